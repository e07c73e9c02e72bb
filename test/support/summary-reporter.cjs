// Mocha's spec reporter plus one plain closing line, `N passed, N failed`, that any CI can read.
const Mocha = require('mocha');

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const { passes = 0, failures = 0 } = runner.stats ?? {};
      process.stdout.write(`\n${passes} passed, ${failures} failed\n`);
    });
  }
}

module.exports = SummaryReporter;
