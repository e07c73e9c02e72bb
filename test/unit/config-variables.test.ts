import { expect } from 'chai';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_VARIABLES, loadConfig, renderEnvExample } from '@subshare/core';

/**
 * CONFIG_VARIABLES is the one description of the configuration: the loader reads exactly those
 * names, `.env.example` is rendered from it, and docs/configuration.md's table names the same.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENV_EXAMPLE = path.join(ROOT, '.env.example');
const names = CONFIG_VARIABLES.map((variable) => variable.name as string);

/** Every name loadConfig asks the environment for. */
function namesRead(env: Record<string, string>): Set<string> {
  const read = new Set<string>();
  const recording = new Proxy(env, {
    get(target, key) {
      if (typeof key === 'string') read.add(key);
      return target[key as string];
    },
  });
  loadConfig(recording);
  return read;
}

describe('configuration variables (one table for the loader, .env.example and docs/configuration.md)', () => {
  it('the loader reads every variable of the table and no other', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'subshare-config-'));
    const demo = namesRead({ DATA_DIR: dataDir });
    const production = namesRead({
      DATA_DIR: dataDir,
      DATABASE_URL: 'postgres://u:p@db.example:5432/shop',
      CREDENTIALS_KEY: 'ab'.repeat(32),
      TOKEN_SECRET: 'y'.repeat(48),
      ALLOW_DEMO_PAYMENTS: 'true',
    });
    const read = new Set([...demo, ...production]);
    expect([...read].sort()).to.deep.equal([...names].sort());
    expect(new Set(names).size, 'no name twice in the table').to.equal(names.length);
  });

  it('.env.example is rendered from the table (UPDATE_ENV_EXAMPLE=1 rewrites it)', () => {
    if (process.env.UPDATE_ENV_EXAMPLE === '1') writeFileSync(ENV_EXAMPLE, renderEnvExample());
    const text = readFileSync(ENV_EXAMPLE, 'utf8');
    const listed = [...text.matchAll(/^# ([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]);
    expect(listed).to.deep.equal(names);
    expect(text, 'regenerate with UPDATE_ENV_EXAMPLE=1 npx mocha test/unit/config-variables.test.ts').to.equal(renderEnvExample());
    // Loaded as a .env file as it is, it sets nothing: every line is a comment or blank.
    expect(text.split('\n').filter((line) => line.trim() && !line.startsWith('#'))).to.deep.equal([]);
  });

  it("docs/configuration.md's table names every variable of the table and no other", () => {
    const doc = readFileSync(path.join(ROOT, 'docs/configuration.md'), 'utf8');
    const section = /\n## Variables\n([\s\S]*?)\n## /.exec(doc)?.[1] ?? '';
    const rows = section.split('\n').filter((line) => /^\|\s*`[A-Z]/.test(line));
    expect(rows, 'the table rows').to.not.be.empty;
    const inTable = new Set(rows.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]!)));
    expect([...inTable].sort()).to.deep.equal([...names].sort());
  });
});
