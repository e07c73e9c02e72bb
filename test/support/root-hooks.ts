// Mocha's global fixtures and root hooks. The global setup runs once per run, in mocha's main
// process: it starts the run's PostgreSQL and prepares the template database (database.ts). The
// root hooks run once per test file in parallel mode (each file in a worker process): every file
// gets a harness of its own, on a database of its own.
import { execFile } from 'node:child_process';
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

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(60_000);
    await startHarness();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(30_000);
    await stopHarness();
  },
};
