// Mocha root hooks: one harness (database, container, app) for the whole run.
import { startHarness, stopHarness } from './harness.js';

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
