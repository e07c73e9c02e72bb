/**
 * Every e-mail, as rendered now, is the reviewed snapshot in test/snapshots/emails/
 * (scripts/email-snapshots-render.ts: every kind and variant, both languages, fixed sample data).
 * A change to an e-mail or to a shared block fails here until `npm run snapshots:emails` writes
 * the snapshots again and the diff is reviewed.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import { EMAIL_KIND_NAMES } from '@subshare/core';
import { EMAIL_SAMPLES, SNAPSHOT_DIR, emailSnapshots } from '../../scripts/email-snapshots-render.js';

const RUN = 'run `npm run snapshots:emails` and review the diff of test/snapshots/emails/';

/** The first line that differs, to say where without printing a whole e-mail. */
function firstDifference(expected: string, actual: string): string {
  const want = expected.split('\n');
  const got = actual.split('\n');
  const line = want.findIndex((text, index) => text !== got[index]);
  const at = line === -1 ? want.length : line;
  return `line ${at + 1}:\n  snapshot: ${want[at] ?? '(end)'}\n  rendered: ${got[at] ?? '(end)'}`;
}

describe('e-mail snapshots (npm run snapshots:emails)', () => {
  const files = emailSnapshots();

  it('cover every e-mail kind in both languages', () => {
    const kinds = new Set(EMAIL_SAMPLES.map((sample) => EMAIL_KIND_NAMES[sample.kind]));
    expect([...kinds].sort()).to.deep.equal(Object.values(EMAIL_KIND_NAMES).sort());
    for (const name of kinds) {
      for (const part of ['en.html', 'en.txt', 'ko.html', 'ko.txt']) {
        const found = [...files.keys()].some((file) => (file.startsWith(`${name}.`) || file.startsWith(`${name}-`)) && file.endsWith(`.${part}`));
        expect(found, `${name} ${part}`).to.equal(true);
      }
    }
  });

  it('hold no file that no e-mail renders', () => {
    const stale = readdirSync(SNAPSHOT_DIR).filter((name) => !files.has(name));
    expect(stale, RUN).to.deep.equal([]);
  });

  for (const [name, rendered] of files) {
    it(`${name} is rendered as reviewed`, () => {
      const path = `${SNAPSHOT_DIR}${name}`;
      expect(existsSync(path), `no snapshot ${name}: ${RUN}`).to.equal(true);
      const snapshot = readFileSync(path, 'utf8');
      if (snapshot !== rendered) expect.fail(`${name} differs from its snapshot at ${firstDifference(snapshot, rendered)}\n${RUN}`);
    });
  }
});
