/**
 * `npm test`: the parallel lane (every test file but the serial ones, three a core), then the
 * serial lane (.mocharc.serial.cjs: the files that assert a wall-clock limit, one at a time).
 * Each lane's reporter ends with `N passed, N failed`; this prints the two added up as the last
 * line, which CI reads, and fails when either lane fails. Arguments go to both lanes' mocha.
 */
import { spawn } from 'node:child_process';

const PARALLEL = [
  'test/e2e-browser/**/*.test.ts',
  'test/cluster/**/*.test.ts',
  'test/e2e-cli/**/*.test.ts',
  'test/e2e-api/**/*.test.ts',
  'test/integration/**/*.test.ts',
  'test/unit/**/*.test.ts',
];
const SUMMARY = /^(\d+) passed, (\d+) failed$/;

/** Runs mocha with `args`, its output passed through; answers its exit code and its summary line's counts. */
function lane(args) {
  return new Promise((resolve) => {
    const child = spawn('npx', ['mocha', ...args, ...process.argv.slice(2)], { stdio: ['inherit', 'pipe', 'inherit'] });
    let counts = { passed: 0, failed: 0 };
    let rest = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        const match = SUMMARY.exec(line.trim());
        if (match) counts = { passed: Number(match[1]), failed: Number(match[2]) };
      }
    });
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), ...counts }));
  });
}

const parallel = await lane(PARALLEL);
const serial = await lane(['--config', '.mocharc.serial.cjs']);
// A lane that crashed before its summary counts as one failure: CI must not read it as green.
const failed = parallel.failed + serial.failed + (parallel.code !== 0 && parallel.failed === 0 ? 1 : 0) + (serial.code !== 0 && serial.failed === 0 ? 1 : 0);
process.stdout.write(`\nboth lanes: ${parallel.passed} + ${serial.passed} passed\n${parallel.passed + serial.passed} passed, ${failed} failed\n`);
process.exitCode = parallel.code !== 0 || serial.code !== 0 ? 1 : 0;
