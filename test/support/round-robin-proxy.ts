/**
 * A load balancer of the test's own: an HTTP proxy that hands each request to the next of its
 * backends in turn, as a round-robin balancer in front of several `subshare serve` processes
 * does. It keeps connections to the backends alive, passes the client's X-Forwarded-For on
 * (the shops trust loopback, so each test client keeps its own address for rate limits), and
 * counts the answers by status and backend, so a test can say "no 5xx" and "both served".
 */
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';

/**
 * Headers of one connection, not of the message (RFC 9110 7.6.1): a proxy must not pass them on.
 * Passing the backend's `Keep-Alive: timeout=65` told clients to reuse idle connections for 64 s
 * while this proxy closes them after 60 s: a request sent in between met a closing connection
 * (`fetch failed`, "other side closed").
 */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

function endToEnd(headers: http.IncomingHttpHeaders): http.IncomingHttpHeaders {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.includes(name) && !named.includes(name)));
}

export interface RoundRobinProxy {
  url: string;
  /** Answers relayed, by status code. */
  readonly statuses: Map<number, number>;
  /** Requests relayed, per backend (in the order given). */
  readonly perBackend: number[];
  /** Requests the proxy could not relay (a backend refused or dropped the connection). */
  readonly failures: string[];
  close(): Promise<void>;
}

export async function startRoundRobinProxy(backends: string[]): Promise<RoundRobinProxy> {
  // An idle connection to a backend is dropped after 2 s, before the backend's own 5-s keep-alive
  // timeout closes it under a request sent on it at that moment (a reset, not the shop's answer).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256, timeout: 2_000 });
  const targets = backends.map((backend) => new URL(backend));
  const statuses = new Map<number, number>();
  const perBackend = targets.map(() => 0);
  const failures: string[] = [];
  let next = 0;

  const server = http.createServer((req, res) => {
    const index = next;
    next = (next + 1) % targets.length;
    perBackend[index]! += 1;
    const target = targets[index]!;
    const upstream = http.request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...endToEnd(req.headers), host: target.host },
      },
      (answer) => {
        statuses.set(answer.statusCode ?? 0, (statuses.get(answer.statusCode ?? 0) ?? 0) + 1);
        res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      failures.push(`${req.method} ${req.url} → ${target.host}: ${error.message}`);
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'The proxy could not reach a backend.', code: 'bad_gateway' }));
    });
    req.pipe(upstream);
  });
  // Clients (fetch keeps idle connections 4 s) close first, never the proxy under their request.
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    statuses,
    perBackend,
    failures,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
