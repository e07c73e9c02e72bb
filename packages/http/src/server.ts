import http from 'node:http';
import type { Express } from 'express';

/** Listens and resolves once the port is bound; `close` drains open connections. */
export async function listen(app: Express, port: number, host: string): Promise<{ server: http.Server; url: string; close(): Promise<void> }> {
  const server = http.createServer(app);
  server.keepAliveTimeout = 65_000; // longer than common load balancers' idle timeout
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    server,
    url: `http://${host}:${actualPort}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 5_000).unref();
      }),
  };
}
