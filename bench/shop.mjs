// Starts the shop for a benchmark: the built app (node scripts/ensure-built.mjs) with an
// embedded PostgreSQL in a temporary DATA_DIR, the demo catalog (`subshare seed`), and the HTTP
// server (bench/serve.mjs: `subshare serve` with a snapshot of the web build) on a free
// loopback port. `stop()` ends the server (and its PostgreSQL) and removes the directory.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');

/** The script's `--name=value` arguments (a bare `--name` is 'true'), by name. */
export function benchArgs() {
  return new Map(
    process.argv.slice(2).map((arg) => {
      // Split at the first `=` only: a value may hold one (`--node-options=--max-semi-space-size=32`).
      const [key, ...value] = arg.replace(/^--/, '').split('=');
      return [key, value.length > 0 ? value.join('=') : 'true'];
    }),
  );
}

export async function freePort() {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Builds what is missing or stale. When the server build fails (a change half-way in the work
 * tree) but a web build exists, the shop runs from the TypeScript sources through tsx instead,
 * and says so: the numbers are then those of the sources, not of the last build.
 */
export function ensureBuilt() {
  const result = spawnSync(process.execPath, ['scripts/ensure-built.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status === 0) return { fromSource: false };
  if (!existsSync(path.join(ROOT, 'packages/web/dist/index.html'))) throw new Error('Building the app failed and there is no web build to fall back on.');
  console.warn('\n!! The build failed: running the server from its sources (tsx) with the last web build in packages/web/dist.\n');
  return { fromSource: true };
}

function cli(fromSource) {
  return fromSource ? ['--import', 'tsx', '--conditions=source', 'packages/cli/src/main.ts'] : ['packages/cli/bin/subshare.js'];
}

function serveArgs(fromSource, webDist) {
  return [...(fromSource ? ['--import', 'tsx', '--conditions=source'] : []), 'bench/serve.mjs', webDist];
}

/**
 * `admin`: `{ email, password }` of an admin to create before the server starts (`subshare create-admin`).
 * `nodeArgs`: for the server's node (e.g. `--cpu-prof`).
 */
export async function startShop({ fromSource = false, logLevel = 'warn', admin, nodeArgs = [] } = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'subshare-bench-'));
  chmodSync(dataDir, 0o755); // embedded PostgreSQL runs as the `postgres` user when we are root
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, LOG_LEVEL: logLevel, NODE_ENV: 'production' };
  delete env.DATABASE_URL;

  const seed = spawnSync(process.execPath, [...cli(fromSource), 'seed'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (seed.status !== 0) throw new Error(`subshare seed failed:\n${seed.stdout}`);
  if (admin) {
    const adminEnv = { ...env, SUBSHARE_PASSWORD: admin.password };
    const created = spawnSync(process.execPath, [...cli(fromSource), 'create-admin', '--email', admin.email], {
      cwd: ROOT,
      env: adminEnv,
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
    });
    if (created.status !== 0) throw new Error(`subshare create-admin failed:\n${created.stdout}`);
  }

  // A copy of the web build, so that rebuilding the web app during the run cannot swap its assets.
  const webDist = path.join(dataDir, 'web-dist');
  cpSync(path.join(ROOT, 'packages/web/dist'), webDist, { recursive: true });
  // The server bundle (React rendering the storefront) beside it, as the server looks for it.
  cpSync(path.join(ROOT, 'packages/web/dist-server'), path.join(dataDir, 'dist-server'), { recursive: true });
  const child = spawn(process.execPath, [...nodeArgs, ...serveArgs(fromSource, webDist)], { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = once(child, 'exit');
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the HTTP server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error('the HTTP server did not become healthy within 60 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  return {
    url,
    pid: child.pid,
    dataDir,
    /** The embedded PostgreSQL's URL: its password from DATA_DIR/secrets.json, its port from postmaster.pid. */
    databaseUrl() {
      const { EMBEDDED_DB_PASSWORD } = JSON.parse(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8'));
      const port = readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')
        .split('\n')[3]
        .trim();
      return `postgres://postgres:${encodeURIComponent(EMBEDDED_DB_PASSWORD)}@127.0.0.1:${port}/subshare`;
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One API call, answered as JSON (null for an empty body); a 4xx or 5xx answer throws. */
export async function callApi(url, path, { token, body, method = body ? 'POST' : 'GET' } = {}) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: 'manual',
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/**
 * Paid, activated orders of the demo catalog for `buyer` ({ id, token }, a verified e-mail):
 * staff (`staffToken`) add an account with five slots to each platform, the buyer orders and
 * pays through the demo provider, and staff activate each order as the admin area does (the
 * worker's job otherwise, and the benchmarks run no worker).
 */
export async function fillShop(url, { staffToken, buyer, platformIds = [1, 2, 4, 5, 6], ordersPerPlatform = 2 }) {
  for (const platformId of platformIds) {
    const { platform } = await callApi(url, `/api/platform/getplatform?id=${platformId}&languageId=1`);
    const typeId = platform.type.find((type) => type.isEnable).id;
    const durationId = platform.duration.find((duration) => duration.isEnable).id;
    await callApi(url, '/api/subscribe/insert', {
      token: staffToken,
      body: {
        platformId,
        email: `bench-${platformId}@accounts.localhost`,
        password: 'secret123',
        slotsCount: 5,
        femail: `fwd-${platformId}@accounts.localhost`,
      },
    });
    for (let n = 0; n < ordersPerPlatform; n += 1) {
      const order = await callApi(url, '/api/order/insert', {
        token: buyer.token,
        body: { platformId, typeId, durationId, quantity: 1, userId: buyer.id, languageId: 1, currency: 'EUR' },
      });
      const checkout = await callApi(url, '/api/payment/createcheckoutsessioncoinpal', { token: buyer.token, body: { orderId: order.id } });
      const demoToken = decodeURIComponent(new URL(checkout.url).pathname.split('/').pop());
      const paid = await fetch(`${url}/api/webhook/demo`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: demoToken, outcome: 'paid' }),
        redirect: 'manual',
      });
      if (paid.status !== 303) throw new Error(`demo payment of order ${order.id}: ${paid.status}`);
      // Refused when the order is active already; the panel check of each benchmark says if none is.
      await callApi(url, '/api/webhook/activatesubscribe', { token: staffToken, body: { orderId: order.id } }).catch(() => undefined);
    }
  }
}

/** The middle value of a list of numbers (the mean of the two middle ones for an even count). */
export function median(values) {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
