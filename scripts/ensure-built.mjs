// `npm start` runs this first: it builds the server packages and the web app when their
// build output is missing or older than their sources, and does nothing otherwise.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

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
const webBuilt = existsSync(at('packages/web/dist/index.html')) ? newest(at('packages/web/dist')) : 0;

const run = (what, command) => {
  console.log(`Building ${what}…`);
  execSync(command, { cwd: root, stdio: 'inherit' });
};

// Tests run the server from source and only need the web app.
const webOnly = process.argv.includes('--web-only');
if (!webOnly && serverSources > serverBuilt) run('the server', 'npm run build:server --silent');
if (webSources > webBuilt) run('the web app', 'npm run build:web --silent');
