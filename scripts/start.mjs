// `npm start`: one Node process from the build to the running shop. It builds what is stale
// (waiting for the build, which it stops on a signal), then runs the compiled `subshare start` in
// this same process, so the SIGTERM or SIGINT that npm passes on reaches the shop itself: no shell
// or tsx process in between to outlive it. Plain syntax after check-node.js, which must run first.
import '../packages/cli/bin/check-node.js';

import('./ensure-built.mjs')
  .then(function (built) {
    return built.ensureBuilt();
  })
  .then(function () {
    process.argv.splice(2, 0, 'start'); // what commander reads: `subshare start [...]`
    return import('../packages/cli/dist/main.js');
  })
  .catch(function (error) {
    console.error(error && error.message ? error.message : error);
    process.exit(1);
  });
