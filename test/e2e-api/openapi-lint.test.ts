/**
 * The served document passes Redocly CLI (redocly.yaml: its recommended rules, two turned off
 * with their reasons) and Spectral's OpenAPI ruleset (.spectral.yaml) without an error or a
 * warning: scripts/lint-openapi.sh, run as CI would.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the OpenAPI document lints clean (Redocly, Spectral spectral:oas)', function () {
  this.timeout(120_000);

  it('scripts/lint-openapi.sh reports no error and no warning', async () => {
    // Exits non-zero on any problem (execFile rejects); Redocly reports on stderr, Spectral on stdout.
    const { stdout, stderr } = await promisify(execFile)('scripts/lint-openapi.sh', { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
    const report = `${stderr}\n${stdout}`;
    expect(report).to.match(/Your API description is valid/);
    expect(report).to.not.match(/You have \d+ (warning|error)/);
    expect(report).to.match(/No results with a severity of 'warn' or higher found/);
  });
});
