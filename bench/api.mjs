// Throughput of the catalog calls: autocannon against `/api/main/home` and
// `/api/platform/getplatform?id=1` on the shop (the built app, `subshare serve`, embedded
// PostgreSQL), and against a bare node:http server that answers with the same bytes.
//
// What is compared: each request asks as a browser does (Accept-Encoding: gzip, deflate, br;
// Accept-Language: en). Our answer to that request is recorded once (status, every header,
// the compressed body) and the bare server replays exactly those bytes, with content-length
// instead of chunked encoding and no work per request. The bare server is therefore the
// ceiling of node:http on this machine; "ratio" is our requests/s over its requests/s.
// Both servers run in their own process; rounds are interleaved so machine noise hits both.
//
//   npm run bench:api [-- --duration=10 --connections=10 --rounds=2]
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { ensureBuilt, freePort, median, startShop } from './shop.mjs';

const args = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? 'true'];
  }),
);
const DURATION = Number(args.get('duration') ?? 10);
const CONNECTIONS = Number(args.get('connections') ?? 10);
const ROUNDS = Number(args.get('rounds') ?? 2);
const ENDPOINTS = ['/api/main/home', '/api/platform/getplatform?id=1'];
const REQUEST_HEADERS = { 'accept-encoding': 'gzip, deflate, br', 'accept-language': 'en' };
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'date', 'transfer-encoding']);

/** One raw request: status, headers and the body bytes exactly as sent (still compressed). */
function record(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: REQUEST_HEADERS }, (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const headers = Object.fromEntries(Object.entries(res.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
          headers['content-length'] = String(body.length);
          resolve({ status: res.statusCode, headers, body });
        });
      })
      .on('error', reject);
  });
}

async function load(url) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers: REQUEST_HEADERS });
  return { rps: result.requests.average, p99: result.latency.p99, p50: result.latency.p50, errors: result.errors + result.non2xx + result.timeouts };
}

async function main() {
  const { fromSource } = ensureBuilt();
  const shop = await startShop({ fromSource });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'subshare-bench-api-'));
  let bare;
  const results = [];
  try {
    const recorded = [];
    for (const endpoint of ENDPOINTS) {
      const answer = await record(`${shop.url}${endpoint}`);
      if (answer.status !== 200) throw new Error(`${endpoint} answered ${answer.status}`);
      recorded.push({ path: endpoint, status: answer.status, headers: answer.headers, body: answer.body.toString('base64') });
    }
    const file = path.join(dir, 'recorded.json');
    writeFileSync(file, JSON.stringify(recorded));
    const barePort = await freePort();
    bare = fork(path.join(import.meta.dirname, 'bare-server.mjs'), [file, String(barePort)], { stdio: 'inherit' });
    await once(bare, 'message');
    const bareUrl = `http://127.0.0.1:${barePort}`;

    for (const [index, endpoint] of ENDPOINTS.entries()) {
      const { headers, body } = recorded[index];
      // Warm both (JIT, caches, connection pools) before measuring.
      await autocannon({ url: `${shop.url}${endpoint}`, connections: CONNECTIONS, duration: 2, headers: REQUEST_HEADERS });
      await autocannon({ url: `${bareUrl}${endpoint}`, connections: CONNECTIONS, duration: 2, headers: REQUEST_HEADERS });
      const ours = [];
      const reference = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        ours.push(await load(`${shop.url}${endpoint}`));
        reference.push(await load(`${bareUrl}${endpoint}`));
        process.stdout.write('.');
      }
      results.push({
        endpoint,
        encoding: headers['content-encoding'] ?? 'identity',
        bytes: Buffer.from(body, 'base64').length,
        ours: {
          rps: median(ours.map((r) => r.rps)),
          p99: median(ours.map((r) => r.p99)),
          p50: median(ours.map((r) => r.p50)),
          errors: ours.reduce((s, r) => s + r.errors, 0),
        },
        bare: { rps: median(reference.map((r) => r.rps)), p99: median(reference.map((r) => r.p99)), p50: median(reference.map((r) => r.p50)) },
      });
    }
  } finally {
    if (bare && bare.exitCode === null) {
      bare.kill('SIGTERM');
      await once(bare, 'exit');
    }
    await shop.stop();
    rmSync(dir, { recursive: true, force: true });
  }

  console.log(
    `\n\nautocannon: ${CONNECTIONS} connections, ${ROUNDS} x ${DURATION} s per server and call (median), after a 2 s warm-up${fromSource ? '; server from sources' : ''}`,
  );
  console.log('bare = node:http replaying our exact response bytes (same headers, same compressed body)\n');
  console.table(
    results.map((r) => ({
      call: r.endpoint,
      body: `${r.bytes} B ${r.encoding}`,
      'ours req/s': Math.round(r.ours.rps),
      'bare req/s': Math.round(r.bare.rps),
      ratio: `${((r.ours.rps / r.bare.rps) * 100).toFixed(0)}%`,
      'ours p99': `${r.ours.p99} ms`,
      'bare p99': `${r.bare.p99} ms`,
      'ours p50': `${r.ours.p50} ms`,
      errors: r.ours.errors,
    })),
  );
  console.log('target: ours >= 60% of bare');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
