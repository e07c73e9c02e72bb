// Test files run in parallel, each in a worker process with a harness and database of its own
// (test/support/root-hooks.ts). Most files wait on PostgreSQL, SMTP, Chromium or a child process
// more than they compute, so three workers a core keep the cores busy (measured on 2 cores, 2026-11-26:
// the whole suite in 381 s with 4 workers, 335 s with 6). MOCHA_JOBS overrides.
const os = require('node:os');

const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;

module.exports = {
  'node-option': ['import=tsx', 'conditions=source'],
  require: ['test/support/root-hooks.ts'],
  extension: ['ts'],
  'fail-zero': true,
  'forbid-only': true,
  exit: true,
  parallel: true,
  jobs: Number(process.env.MOCHA_JOBS) || Math.max(3, cores * 3),
  // Files share the cores, so a test that spawns processes or a browser may run a few times slower
  // than alone; the timeout is there to catch a hang, not to time anything.
  timeout: 60000,
  reporter: 'test/support/summary-reporter.cjs',
};
