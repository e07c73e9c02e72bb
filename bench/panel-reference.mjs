// The reference for bench/api.mjs's uncached call: node:http and raw `pg` running the SQL
// statements our server ran for one such request (captured by bench/serve.mjs, in the order
// they were sent, one after the other), then writing the status, headers and body bytes our
// server answered. It checks no token and builds no answer: what is left is the database's work
// and the least node:http can do. Arguments: the recorded answer (JSON), the port, the database
// URL, the pool size (our server's, 10 by default).
import http from 'node:http';
import { readFileSync } from 'node:fs';
import pg from 'pg';

const recorded = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const body = Buffer.from(recorded.body, 'base64');
const pool = new pg.Pool({ connectionString: process.argv[4], max: Number(process.argv[5] ?? 10) });

const server = http.createServer(async (req, res) => {
  if (req.url !== recorded.path) {
    res.writeHead(404).end();
    return;
  }
  try {
    for (const { sql, bindings } of recorded.statements) await pool.query(sql, bindings);
    res.writeHead(recorded.status, recorded.headers);
    res.end(body);
  } catch (error) {
    res.writeHead(500).end(String(error));
  }
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.argv[3]), '127.0.0.1', () => process.send?.('listening'));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
