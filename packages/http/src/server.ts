import http, { type RequestListener } from 'node:http';
import type { Express } from 'express';

export interface ListeningServer {
  server: http.Server;
  url: string;
  /**
   * Stops serving, by `deadline` (epoch ms) at the latest: readiness says `draining` first
   * (`app.locals.draining`, read by /readyz), then the port is closed so new connections are
   * refused, requests in flight may finish, idle keep-alive connections are closed as soon as
   * they are idle, and whatever is still open at the deadline is cut.
   */
  close(deadline?: number): Promise<void>;
}

/** How long requests in flight may take to finish once the server is told to stop. */
const DRAIN_MS = 4_000;

/** Listens and resolves once the port is bound; `handle` answers the requests (the app itself unless given: createServerHandler). */
export async function listen(app: Express, port: number, host: string, handle: RequestListener = app): Promise<ListeningServer> {
  const server = http.createServer(handle);
  server.keepAliveTimeout = 65_000; // longer than common load balancers' idle timeout
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
      closing ??= new Promise<void>((resolve) => {
        app.locals.draining = true;
        server.close(() => resolve());
        // A keep-alive connection becomes idle once its request is answered; close it then, not
        // after keepAliveTimeout.
        server.closeIdleConnections();
        const idle = setInterval(() => server.closeIdleConnections(), 100);
        const cut = setTimeout(() => server.closeAllConnections(), Math.max(0, Math.min(deadline, Date.now() + DRAIN_MS) - Date.now()));
        server.once('close', () => {
          clearInterval(idle);
          clearTimeout(cut);
        });
      });
      return closing;
    },
  };
}
