// Starts the shop for a benchmark: the built app (node scripts/ensure-built.mjs) with an
// embedded PostgreSQL in a temporary DATA_DIR, the demo catalog (`subshare seed`), and the HTTP
// server (bench/serve.mjs: `subshare serve` with a snapshot of the web build) on a free
// loopback port. `stop()` ends the server (and its PostgreSQL) and removes the directory.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');

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

/** `admin`: `{ email, password }` of an admin to create before the server starts (`subshare create-admin`). */
export async function startShop({ fromSource = false, logLevel = 'warn', admin } = {}) {
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
  const child = spawn(process.execPath, serveArgs(fromSource, webDist), { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
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

/** The middle value of a list of numbers (the mean of the two middle ones for an even count). */
export function median(values) {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
