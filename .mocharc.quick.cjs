// `npm run test:quick`: the inner loop's lane. The unit, integration and API tests, without a
// browser, a cluster or the compiled CLI, on the same parallel run as `npm test` (.mocharc.cjs).
// Left out, to the gate (`npm test`), are the files that each take a minute or more of the lane's
// wall time on their own and test the whole rather than a change: see docs/contributing.md for
// the figures.
const base = require('./.mocharc.cjs');

/** In `npm test` only, and why. */
const GATE_ONLY = [
  // Hostile input on every call of the document for every role: the longest file of all.
  'test/e2e-api/fuzz.test.ts',
  // Runs the document through Redocly and Spectral (child processes).
  'test/e2e-api/openapi-lint.test.ts',
  // Generates a client with openapi-typescript and type-checks a journey with tsc.
  'test/e2e-api/generated-client.test.ts',
  // Starts the compiled CLI for renewal runs (child processes).
  'test/e2e-api/auto-renewal.test.ts',
  // A real call for every operation, each answer checked against the document: the contract whole.
  'test/e2e-api/openapi-answers.test.ts',
  // 60 signed alert mails through real Dovecot and DNS, and eight 20 MB mails for the memory bound.
  'test/e2e-api/mail-trust.test.ts',
];

module.exports = {
  ...base,
  spec: ['test/e2e-api/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/unit/**/*.test.ts'],
  ignore: GATE_ONLY,
};
