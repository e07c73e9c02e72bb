// Mocha's global fixtures and root hooks. The global setup runs once per run, in mocha's main
// process: it starts the run's PostgreSQL and prepares the template database (database.ts). The
// root hooks run once per test file in parallel mode (each file in a worker process): every file
// gets a harness of its own, on a database of its own.
import { startTestServer, type TestServer } from './database.js';
import { startHarness, stopHarness } from './harness.js';

let server: TestServer | undefined;

export async function mochaGlobalSetup(): Promise<void> {
  server = await startTestServer();
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
