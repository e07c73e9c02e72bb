// Throughput of three calls of the shop (the built app, `subshare serve`, embedded PostgreSQL),
// each against a reference measured in the same run, in its own process:
//
// - the storefront's cached catalog reads, `/api/main/home` and `/api/platform/getplatform?id=1`,
//   against a bare node:http server that answers with the same bytes. Each request asks as a
//   browser does (Accept-Encoding: gzip, deflate, br; Accept-Language: en). Our answer is recorded
//   once (status, every header, the compressed body) and the bare server replays exactly those
//   bytes, with content-length instead of chunked encoding and no work per request: the ceiling
//   of node:http on this machine.
// - an uncached call, the buyer's panel (`/api/user/getuserpanel?id=<buyer>`, with the buyer's
//   token) of a buyer holding a few paid, activated orders, against node:http and raw `pg`
//   running the SQL statements our server ran for that request (captured by bench/serve.mjs)
//   one after the other, then writing our recorded answer (bench/panel-reference.mjs).
//
// "ratio" is our requests/s over the reference's; rounds are interleaved so machine noise hits both.
// Each server process's CPU time per request is printed too (Linux): it varies much less with
// the load of other programs than requests/s do.
//
//   npm run bench:api [-- --duration=10 --connections=10 --rounds=2 --only=home,getplatform,panel --profile=<dir>]
//
// --profile: a V8 CPU profile of our server, written to <dir> when it stops (node --cpu-prof).
import { fork, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { benchArgs, callApi, ensureBuilt, fillShop, freePort, median, startShop } from './shop.mjs';

const args = benchArgs();
const DURATION = Number(args.get('duration') ?? 10);
const CONNECTIONS = Number(args.get('connections') ?? 10);
const ROUNDS = Number(args.get('rounds') ?? 2);
const ONLY = new Set((args.get('only') ?? 'home,getplatform,panel').split(','));
const PROFILE = args.get('profile');
/** The cached calls by the names --only knows them by. */
const CACHED = Object.entries({ home: '/api/main/home', getplatform: '/api/platform/getplatform?id=1' })
  .filter(([name]) => ONLY.has(name))
  .map(([, endpoint]) => endpoint);
/** Issue 16: the cached reads against the bare server, the panel against raw pg. */
const TARGETS = { '/api/main/home': 0.7, '/api/platform/getplatform?id=1': 0.6, panel: 0.5 };
const REQUEST_HEADERS = { 'accept-encoding': 'gzip, deflate, br', 'accept-language': 'en' };
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'date', 'transfer-encoding']);
const ADMIN = { email: 'bench-admin@subshare.localhost', password: 'bench-Admin-pw-1' };
const BUYER = { email: 'bench-buyer@subshare.localhost', password: 'bench-Buyer-pw-1' };
/** The panel's buyer holds one paid, activated order on each of these demo platforms. */
const PANEL_PLATFORMS = [1, 2, 4, 5];

/** One raw request: status, headers and the body bytes exactly as sent (still compressed). */
function record(url, headers = REQUEST_HEADERS) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const kept = Object.fromEntries(Object.entries(res.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
          kept['content-length'] = String(body.length);
          resolve({ status: res.statusCode, headers: kept, body });
        });
      })
      .on('error', reject);
  });
}

/** Clock ticks per second of /proc's CPU times. */
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** CPU time (user + system, ms) the process has used so far, from /proc (Linux); undefined elsewhere. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/**
 * One autocannon run, and the server process's CPU time per request: on a shared machine the
 * requests/s follow the load of others, the CPU a request costs much less so.
 */
async function load(url, headers, pid) {
  const before = cpuMs(pid);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  const after = cpuMs(pid);
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    p50: result.latency.p50,
    cpuUs: before === undefined || after === undefined ? NaN : ((after - before) * 1000) / result.requests.total,
    errors: result.errors + result.non2xx + result.timeouts,
  };
}

/** A child process serving a reference; resolves once it listens. */
async function startReference(script, args) {
  const child = fork(path.join(import.meta.dirname, script), args, { stdio: 'inherit' });
  await once(child, 'message');
  return child;
}

/**
 * A buyer with a verified e-mail and paid, activated orders, and what our server runs and answers
 * for their panel: one request (after a warm one) named `bench-capture-…`, whose SQL statements
 * bench/serve.mjs wrote to `captureFile`.
 */
async function preparePanel(shop, captureFile) {
  const admin = await callApi(shop.url, '/api/user/authenticate', { body: ADMIN });
  const registered = await callApi(shop.url, '/api/user/register', { body: BUYER });
  // The buyer would follow the link in the verification e-mail; the benchmark runs no mail.
  const db = new pg.Client({ connectionString: shop.databaseUrl() });
  await db.connect();
  try {
    await db.query('update users set is_email_verified = true where id = $1', [registered.id]);
  } finally {
    await db.end();
  }
  const buyer = { id: registered.id, token: registered.token };
  await fillShop(shop.url, { staffToken: admin.token, buyer, platformIds: PANEL_PLATFORMS, ordersPerPlatform: 1 });

  const endpoint = `/api/user/getuserpanel?id=${buyer.id}&languageId=1`;
  const headers = { ...REQUEST_HEADERS, authorization: `Bearer ${buyer.token}` };
  await record(`${shop.url}${endpoint}`, headers);
  const captureId = `bench-capture-${Date.now()}`;
  const answer = await record(`${shop.url}${endpoint}`, { ...headers, 'x-request-id': captureId });
  if (answer.status !== 200) throw new Error(`the panel answered ${answer.status}`);
  const statements = existsSync(captureFile)
    ? readFileSync(captureFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
        .filter((line) => line.requestId === captureId)
    : [];
  if (statements.length === 0) throw new Error('no SQL statement was captured for the panel request');
  const recorded = { path: endpoint, status: answer.status, headers: answer.headers, body: answer.body.toString('base64'), statements };
  // What the panel lists (the items the buyer sees with their credentials), read without compression.
  const { subscribers } = await callApi(shop.url, endpoint, { token: buyer.token });
  if (subscribers.length === 0) throw new Error("the buyer's panel lists no active subscription");
  return { endpoint, headers, recorded, active: subscribers.length };
}

/** Ours and the reference, interleaved, after a 2 s warm-up of each. */
async function compare({ url: oursUrl, pid: oursPid }, { url: referenceUrl, pid: referencePid }, headers) {
  await autocannon({ url: oursUrl, connections: CONNECTIONS, duration: 2, headers });
  await autocannon({ url: referenceUrl, connections: CONNECTIONS, duration: 2, headers });
  const ours = [];
  const reference = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    ours.push(await load(oursUrl, headers, oursPid));
    reference.push(await load(referenceUrl, headers, referencePid));
    process.stdout.write('.');
  }
  const summary = (list) => ({
    rps: median(list.map((r) => r.rps)),
    p99: median(list.map((r) => r.p99)),
    p50: median(list.map((r) => r.p50)),
    cpuUs: median(list.map((r) => r.cpuUs)),
  });
  return {
    ours: { ...summary(ours), errors: ours.reduce((sum, r) => sum + r.errors, 0) },
    reference: { ...summary(reference), errors: reference.reduce((sum, r) => sum + r.errors, 0) },
  };
}

async function main() {
  const { fromSource } = ensureBuilt();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'subshare-bench-api-'));
  const captureFile = path.join(dir, 'captured-sql.jsonl');
  process.env.BENCH_CAPTURE_SQL = captureFile;
  const shop = await startShop({ fromSource, admin: ADMIN, nodeArgs: PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(PROFILE)}`] : [] });
  const children = [];
  const results = [];
  try {
    const recorded = [];
    for (const endpoint of CACHED) {
      const answer = await record(`${shop.url}${endpoint}`);
      if (answer.status !== 200) throw new Error(`${endpoint} answered ${answer.status}`);
      recorded.push({ path: endpoint, status: answer.status, headers: answer.headers, body: answer.body.toString('base64') });
    }
    const cachedFile = path.join(dir, 'recorded.json');
    writeFileSync(cachedFile, JSON.stringify(recorded));
    const barePort = await freePort();
    const bare = await startReference('bare-server.mjs', [cachedFile, String(barePort)]);
    children.push(bare);

    for (const [index, endpoint] of CACHED.entries()) {
      const { headers, body } = recorded[index];
      const measured = await compare(
        { url: `${shop.url}${endpoint}`, pid: shop.pid },
        { url: `http://127.0.0.1:${barePort}${endpoint}`, pid: bare.pid },
        REQUEST_HEADERS,
      );
      results.push({
        call: endpoint,
        against: 'bare',
        target: TARGETS[endpoint],
        body: `${Buffer.from(body, 'base64').length} B ${headers['content-encoding'] ?? 'identity'}`,
        ...measured,
      });
    }
    if (ONLY.has('panel')) {
      const panel = await preparePanel(shop, captureFile);
      const panelFile = path.join(dir, 'panel.json');
      writeFileSync(panelFile, JSON.stringify(panel.recorded));
      const panelPort = await freePort();
      const panelReference = await startReference('panel-reference.mjs', [panelFile, String(panelPort), shop.databaseUrl()]);
      children.push(panelReference);
      const measured = await compare(
        { url: `${shop.url}${panel.endpoint}`, pid: shop.pid },
        { url: `http://127.0.0.1:${panelPort}${panel.endpoint}`, pid: panelReference.pid },
        panel.headers,
      );
      const panelBody = Buffer.from(panel.recorded.body, 'base64');
      results.push({
        call: `/api/user/getuserpanel (${panel.active} active)`,
        against: 'pg',
        statements: panel.recorded.statements.length,
        target: TARGETS.panel,
        body: `${panelBody.length} B ${panel.recorded.headers['content-encoding'] ?? 'identity'}`,
        ...measured,
      });
    }
  } finally {
    for (const child of children) {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
    }
    await shop.stop();
    rmSync(dir, { recursive: true, force: true });
  }

  const load = os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  console.log(
    `\n\n${new Date().toISOString().slice(0, 10)}, load average ${load} on ${os.cpus().length} cores; autocannon: ${CONNECTIONS} connections, ` +
      `${ROUNDS} x ${DURATION} s per server and call (median), after a 2 s warm-up${fromSource ? '; server from sources' : ''}`,
  );
  console.log('bare = node:http replaying our exact response bytes (same headers, same compressed body)');
  console.log(
    `pg = node:http + raw pg running the ${results.at(-1)?.statements} SQL statements our server ran for the call, one after the other, then replaying our answer`,
  );
  console.log("CPU/req = the server process's CPU time (user + system) per request, from /proc; PostgreSQL's own is in neither\n");
  console.table(
    results.map((r) => ({
      call: r.call,
      body: r.body,
      reference: r.against,
      'ours req/s': Math.round(r.ours.rps),
      'ref req/s': Math.round(r.reference.rps),
      ratio: `${((r.ours.rps / r.reference.rps) * 100).toFixed(0)}%`,
      target: `${Math.round(r.target * 100)}%`,
      met: r.ours.rps / r.reference.rps >= r.target ? 'yes' : 'NO',
      'ours p50/p99': `${r.ours.p50}/${r.ours.p99} ms`,
      'ref p50/p99': `${r.reference.p50}/${r.reference.p99} ms`,
      'ours CPU/req': `${Math.round(r.ours.cpuUs)} µs`,
      'ref CPU/req': `${Math.round(r.reference.cpuUs)} µs`,
      errors: r.ours.errors + r.reference.errors,
    })),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
