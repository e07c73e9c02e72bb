/**
 * A TCP proxy of the test's own between the shop and its PostgreSQL, to play a database outage
 * without touching the server other test files share:
 * - `freeze()`: bytes stop moving in both directions and new connections are accepted but get no
 *   answer, as when PostgreSQL is stopped with SIGSTOP or the network drops packets; the bytes
 *   are held, not lost, and `resume()` delivers them (so frozen statements finish late, as they would);
 * - `refuse()`: every open connection is cut and new ones are refused (ECONNREFUSED), as when
 *   PostgreSQL is stopped;
 * - `resume()`: back to forwarding.
 *
 * `tap` sees every chunk as it passes, with its connection's number and direction (to read the
 * wire: pg-wire-recorder.ts).
 */
import net from 'node:net';

/** Told of every chunk the proxy forwards: which connection, which way (`toServer` or back), the bytes. */
export type ProxyTap = (connection: number, toServer: boolean, chunk: Buffer) => void;

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
  /** Chunks held while frozen, in order, with the socket they were headed to. */
  held: Array<{ to: net.Socket; chunk: Buffer }>;
}

export interface TcpProxy {
  port: number;
  /** The given connection URL with its host and port replaced by the proxy's. */
  urlFor(url: string): string;
  freeze(): void;
  refuse(): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number, tap?: ProxyTap): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let connections = 0;
  let frozen = false;
  let server: net.Server | undefined;
  let port = 0;

  const forward = (pair: Pair, to: net.Socket, chunk: Buffer) => {
    if (frozen) pair.held.push({ to, chunk });
    else if (!to.destroyed) to.write(chunk);
  };

  const onConnection = (client: net.Socket) => {
    const upstream = net.connect(targetPort, targetHost);
    const pair: Pair = { client, upstream, held: [] };
    const number = (connections += 1);
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk) => {
      tap?.(number, true, chunk);
      forward(pair, upstream, chunk);
    });
    upstream.on('data', (chunk) => {
      tap?.(number, false, chunk);
      forward(pair, client, chunk);
    });
    for (const socket of [client, upstream]) {
      socket.on('error', end);
      socket.on('close', end);
    }
  };

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const created = net.createServer(onConnection);
      created.once('error', reject);
      created.listen(port, '127.0.0.1', () => {
        port = (created.address() as net.AddressInfo).port;
        server = created;
        resolve();
      });
    });

  const stopListening = () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });

  const cutAll = () => {
    for (const pair of pairs) {
      pair.client.destroy();
      pair.upstream.destroy();
    }
    pairs.clear();
  };

  await listen();

  return {
    get port() {
      return port;
    },
    urlFor(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    freeze() {
      frozen = true;
    },
    async refuse() {
      frozen = false;
      // The server's close waits for its connections, so they are cut before it is awaited.
      const closed = stopListening();
      cutAll();
      await closed;
    },
    async resume() {
      frozen = false;
      for (const pair of pairs) {
        for (const { to, chunk } of pair.held.splice(0)) if (!to.destroyed) to.write(chunk);
      }
      if (!server) await listen();
    },
    async close() {
      frozen = false;
      const closed = stopListening();
      cutAll();
      await closed;
    },
  };
}
