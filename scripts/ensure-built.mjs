// `npm start` (scripts/start.mjs) runs this first: it builds the server packages, the migrations
// and the web app when their build output is missing or older than their sources, and does nothing
// otherwise. Run directly (`node scripts/ensure-built.mjs [--web-only]`) it does the same.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');

function newest(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce((latest, entry) => Math.max(latest, newest(path.join(target, entry))), stat.mtimeMs);
}

const at = (...parts) => path.join(root, ...parts);
const server = ['core', 'http', 'worker', 'cli'];
// The migrations are compiled with the server (migrations/tsconfig.json → migrations/dist).
const migrationFiles = existsSync(at('migrations')) ? readdirSync(at('migrations')).filter((file) => file.endsWith('.ts') || file === 'tsconfig.json') : [];
const serverSources = Math.max(
  ...migrationFiles.map((file) => newest(at('migrations', file))),
  ...server.map((pkg) => Math.max(newest(at('packages', pkg, 'src')), newest(at('packages', pkg, 'tsconfig.json')))),
);
const serverBuilt =
  existsSync(at('packages/cli/dist/main.js')) && existsSync(at('migrations/dist'))
    ? Math.max(newest(at('migrations/dist')), ...server.map((pkg) => newest(at('packages', pkg, 'dist'))))
    : 0;
// The web app also bundles the validation rules it shares with the server.
const webSources = Math.max(
  newest(at('packages/web/src')),
  newest(at('packages/core/src/validation')),
  newest(at('packages/web/index.html')),
  newest(at('packages/web/vite.config.ts')),
  newest(at('packages/web/public')),
);
// Both halves of the web build: dist/ for the browser, dist-server/ for the server's rendering.
const webBuilt =
  existsSync(at('packages/web/dist/index.html')) && existsSync(at('packages/web/dist-server/entry-server.js'))
    ? Math.min(newest(at('packages/web/dist')), newest(at('packages/web/dist-server')))
    : 0;

/**
 * Runs one build command in a process group of its own and waits for it. A stop signal meanwhile
 * goes to that whole group (npm, its shell, tsc or vite), and this process then ends with the
 * signal's exit code, so nothing of the build outlives a stopped `npm start`.
 */
function run(what, command) {
  console.log(`Building ${what}…`);
  return new Promise((resolve, reject) => {
    const child = spawn(command, { cwd: root, stdio: 'inherit', shell: true, detached: true });
    let stoppedBy;
    const forward = (signal) => {
      stoppedBy = signal;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // the group has already gone
      }
    };
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    for (const signal of signals) process.on(signal, forward);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      for (const name of signals) process.off(name, forward);
      if (stoppedBy) process.exit(128 + (os.constants.signals[stoppedBy] ?? 0));
      if (code === 0) resolve();
      else reject(new Error(`Building ${what} failed (${signal ?? `exit code ${code}`}).`));
    });
  });
}

/**
 * Builds what is stale. Tests run the server in their own process from source, and need the web
 * app (`webOnly`, for the browser) and the compiled CLI (`serverOnly`, for the commands they start).
 */
export async function ensureBuilt({ webOnly = false, serverOnly = false } = {}) {
  if (!webOnly && serverSources > serverBuilt) await run('the server', 'npm run build:server --silent');
  if (!serverOnly && webSources > webBuilt) await run('the web app', 'npm run build:web --silent');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  ensureBuilt({ webOnly: process.argv.includes('--web-only'), serverOnly: process.argv.includes('--server-only') }).catch((error) => {
    console.error(error.message);
    process.exit(1);
  });
}
