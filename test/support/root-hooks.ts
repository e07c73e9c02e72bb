// Mocha's global fixtures and root hooks. The global setup runs once per run, in mocha's main
// process: it starts the run's PostgreSQL and prepares the template database (database.ts). The
// root hooks run once per test file in parallel mode (each file in a worker process): every file
// gets a harness of its own, on a database of its own. The serial lane (.mocharc.serial.cjs) runs
// its few files in one process, which share one harness.
import { execFile } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from './database.js';
import { startHarness, stopHarness } from './harness.js';

let server: TestServer | undefined;

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export async function mochaGlobalSetup(): Promise<void> {
  // The CLI tests start the compiled `subshare`, as an operator runs it (a start from source
  // through tsx costs seconds of CPU each, and they start hundreds), and the browser tests and the
  // server's rendering need the built web app: build what is stale once, here, before the workers
  // start (browser files run first and at once; each building it would race on packages/web/dist).
  const build = promisify(execFile)(process.execPath, ['scripts/ensure-built.mjs'], { cwd: ROOT });
  server = await startTestServer();
  await build;
}

export async function mochaGlobalTeardown(): Promise<void> {
  await server?.stop();
  server = undefined;
}

/**
 * With TEST_FILE_TIMES=<path>, each file appends `<seconds>\t<file>\t<started>\t<cpu seconds>` to
 * that path when it ends: the wall time of the whole file, its harness included, when it began
 * (ISO), and the CPU its worker process spent on it (not PostgreSQL's, nor a child process's), to
 * find what holds the suite up (`sort -rn <path> | head`) and what a lane costs.
 */
const FILE_TIMES = process.env.TEST_FILE_TIMES;
let fileStarted = 0;
let fileStartedAt = '';
let fileCpu = process.cpuUsage();

/** The files this root hook runs for: one in a parallel run's worker, every file of the serial lane (.mocharc.serial.cjs). */
function filesOf(context: Mocha.Context): string[] {
  const root = context.test?.parent;
  const files = [...(root?.suites ?? []), ...(root?.tests ?? [])].flatMap((runnable) => (runnable.file ? [relative(ROOT, runnable.file)] : []));
  return [...new Set(files)];
}

/** Unit tests are pure code (docs/contributing.md): they get no database, SMTP server or app. */
const needsHarness = (files: string[]) => files.length === 0 || files.some((file) => !file.startsWith(`test${sep}unit${sep}`));

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(60_000);
    fileStarted = performance.now();
    fileStartedAt = new Date().toISOString();
    fileCpu = process.cpuUsage();
    if (needsHarness(filesOf(this))) await startHarness();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(30_000);
    await stopHarness();
    const file = filesOf(this).join(',');
    if (FILE_TIMES && file) {
      const seconds = ((performance.now() - fileStarted) / 1000).toFixed(1);
      const cpu = process.cpuUsage(fileCpu);
      const cpuSeconds = ((cpu.user + cpu.system) / 1e6).toFixed(1);
      appendFileSync(FILE_TIMES, `${seconds}\t${file}\t${fileStartedAt}\t${cpuSeconds}\n`);
    }
  },
};
