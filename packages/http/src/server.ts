import http, { type RequestListener } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';

export interface ListeningServer {
  server: http.Server;
  url: string;
  /**
   * Stops serving, by `deadline` (epoch ms) at the latest (docs/operations.md, "Stopping"):
   * readiness says `draining` (`app.locals.draining`, read by /readyz) and every answer from now
   * on carries `Connection: close`, so each connection is closed after its answer. Connections
   * open at this moment may carry one more request for up to IDLE_GRACE_MS (less once all have
   * closed); then the port is closed (new connections are refused) and connections still idle
   * are closed. Whatever is still open at the deadline is cut.
   */
  close(deadline?: number): Promise<void>;
}

/** How long requests in flight may take to finish once the server is told to stop. */
const DRAIN_MS = 4_000;

/**
 * How long a keep-alive connection open when the drain starts is kept for its client's next
 * request. Closing an idle keep-alive connection races with a request its client may be sending
 * on it at that moment (a reset, not an answer: 18 of 2,500 requests under load); a connection
 * that has carried its next request is closed by the server right after the answer instead.
 */
const IDLE_GRACE_MS = 1_000;

const closedSocket = (socket: Socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));

/** Listens and resolves once the port is bound; `handle` answers the requests (the app itself unless given: createServerHandler). */
export async function listen(app: Express, port: number, host: string, handle: RequestListener = app): Promise<ListeningServer> {
  let draining = false;
  // Answers not yet sent: when the drain starts, they too close their connection.
  const unanswered = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    if (draining) {
      res.setHeader('Connection', 'close');
    } else {
      unanswered.add(res);
      res.once('close', () => unanswered.delete(res));
    }
    handle(req, res);
  });
  server.keepAliveTimeout = 65_000; // longer than common load balancers' idle timeout
  const connections = new Set<Socket>();
  // Connections accepted whose first request has not been read yet: closing the port now would
  // reset them (Node closes idle connections on close()), so the drain waits for them.
  const unread = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    unread.add(socket);
    socket.once('close', () => {
      connections.delete(socket);
      unread.delete(socket);
    });
  });
  server.on('request', (req: http.IncomingMessage) => unread.delete(req.socket));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  let closing: Promise<void> | undefined;
  return {
    server,
    url: `http://${host}:${actualPort}`,
    close: (deadline = Date.now() + DRAIN_MS) => {
      closing ??= (async () => {
        app.locals.draining = true;
        draining = true;
        for (const res of unanswered) if (!res.headersSent) res.setHeader('Connection', 'close');
        const cutAt = Math.min(deadline, Date.now() + DRAIN_MS);
        const closed = new Promise<void>((resolve) => server.once('close', () => resolve()));
        const cut = setTimeout(() => server.closeAllConnections(), Math.max(0, cutAt - Date.now()));
        let grace: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.all([...connections].map(closedSocket)),
          new Promise((resolve) => (grace = setTimeout(resolve, Math.max(0, Math.min(IDLE_GRACE_MS, cutAt - Date.now()))))),
        ]);
        clearTimeout(grace);
        // Connections accepted during the grace are answered like the others; once none is
        // waiting to be read, the port closes: new connections are refused, not reset.
        while (unread.size > 0 && Date.now() < cutAt) await new Promise((resolve) => setImmediate(resolve));
        // Node's close() also closes the connections idle since the drain began; one still
        // answering closes after its answer (Connection: close), or, answered before the drain
        // with keep-alive, once idle.
        server.close();
        const idle = setInterval(() => server.closeIdleConnections(), 100);
        await closed;
        clearInterval(idle);
        clearTimeout(cut);
      })();
      return closing;
    },
  };
}
