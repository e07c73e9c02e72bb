// The reference for bench/api.mjs: a bare node:http server that answers each path with the
// exact status, headers and body bytes our server sent for it (recorded in the JSON file given
// as the first argument). It does no work per request beyond writing them.
import http from 'node:http';
import { readFileSync } from 'node:fs';

const recorded = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const routes = new Map(recorded.map((entry) => [entry.path, { ...entry, body: Buffer.from(entry.body, 'base64') }]));

const server = http.createServer((req, res) => {
  const route = routes.get(req.url);
  if (!route) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(route.status, route.headers);
  res.end(route.body);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.argv[3]), '127.0.0.1', () => process.send?.('listening'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
