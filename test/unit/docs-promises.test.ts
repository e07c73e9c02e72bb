import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ACTIVATION_HOURS, REMINDER_DAYS, RENEWAL_HOLD_EXTRA_HOURS, RENEWAL_LAST_RETRY_DAYS, RENEWAL_RETRY_DAYS } from '@subshare/core/promises';

/**
 * The docs' prose states the promised numbers in words an operator reads ("3 days before the
 * end"); the numbers live in `@subshare/core/promises`. This keeps the two in step: every such
 * phrase in README.md and docs/*.md must say the constant's value, so changing REMINDER_DAYS
 * fails here until the docs say the new figure. (The web texts and e-mails take the constants
 * themselves: promised-numbers.test.ts.) Lines about refunds are left out: the refund window is
 * configuration (REFUND_WINDOW_HOURS), documented in docs/configuration.md.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

const PHRASES: Array<{ what: string; pattern: RegExp; says: (match: RegExpMatchArray) => string; expected: string }> = [
  { what: 'the reminder', pattern: /(\d+) days? before the end/g, says: (m) => m[1]!, expected: String(REMINDER_DAYS) },
  { what: 'the reminder pass', pattern: /ends within (\d+) days?/g, says: (m) => m[1]!, expected: String(REMINDER_DAYS) },
  {
    what: 'the renewal retries',
    pattern: /(\d+)(?: days?)? and (\d+) days? after the end/g,
    says: (m) => `${m[1]} and ${m[2]}`,
    expected: RENEWAL_RETRY_DAYS.join(' and '),
  },
  {
    what: 'the slot hold',
    pattern: /end \+ (\d+) days \+ (\d+) h/g,
    says: (m) => `${m[1]} days + ${m[2]} h`,
    expected: `${RENEWAL_LAST_RETRY_DAYS} days + ${RENEWAL_HOLD_EXTRA_HOURS} h`,
  },
  { what: 'activation', pattern: /(?:within (\d+) hours|(\d+) hours after payment)/g, says: (m) => (m[1] ?? m[2])!, expected: String(ACTIVATION_HOURS) },
];

function docs(): Array<{ file: string; text: string }> {
  const files = [
    'README.md',
    ...readdirSync(path.join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
  return files.map((file) => ({ file, text: readFileSync(path.join(ROOT, file), 'utf8') }));
}

/** Each phrase that states a promised number with another value: `file:line: phrase (says X, the constant Y)`. */
function outOfStep(text: string, file: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    if (/refund/i.test(line)) return;
    for (const phrase of PHRASES)
      for (const match of line.matchAll(phrase.pattern)) {
        const says = phrase.says(match);
        if (says !== phrase.expected) found.push(`${file}:${index + 1}: "${match[0]}" (${phrase.what}: says ${says}, the constant ${phrase.expected})`);
      }
  });
  return found;
}

describe('the docs state the promised numbers as the constants say', () => {
  it('every phrase in README.md and docs/ names the value of its constant', () => {
    const found = docs().flatMap(({ file, text }) => outOfStep(text, file));
    expect(found, 'change the figure in the doc, or the constant in @subshare/core/promises').to.deep.equal([]);
  });

  it('finds a phrase with another value, and reads the docs that state them', () => {
    expect(outOfStep('tried again 2 and 5 days after the end; reminder 7 days before the end', 'x.md')).to.have.length(2);
    expect(outOfStep('a refund within 48 hours', 'x.md')).to.deep.equal([]);
    // The phrases are there to check: renewal.md states the reminder, the retries and the hold.
    const renewal = docs().find(({ file }) => file === 'docs/renewal.md')!.text;
    for (const phrase of PHRASES.slice(0, 4)) expect(renewal, phrase.what).to.match(new RegExp(phrase.pattern.source));
  });
});
