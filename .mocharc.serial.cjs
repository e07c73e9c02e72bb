// The serial lane: the files that assert a wall-clock limit (a probe answered within 4 s, a catalog
// change served by another process within a second, a pool that fails fast). The parallel lanes
// run three files a core on purpose, and there a limit measures the machine's load rather than
// the code; here the files run one at a time after them, so a limit fails only for real slowness.
// `npm test` runs it after the parallel run (`npm run test:serial` alone). Like the six API files
// named in .mocharc.quick.cjs, it is the gate's, not the inner loop's: its files wait out
// timeouts and restarts more than they compute. One process runs the lane, so its files share
// one harness (root-hooks.ts): each of their tests makes its own data.
const base = require('./.mocharc.cjs');

module.exports = {
  ...base,
  parallel: false,
  spec: ['test/serial/**/*.test.ts'],
};
