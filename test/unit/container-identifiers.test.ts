/**
 * One identifier per thing in the container (docs/architecture.md, "The container"): a service,
 * repository or flow is bound, injected and fetched by its class. Symbols are kept for the values
 * and the ports with several implementations listed here, each with why; a new `Symbol.for` in
 * packages/ fails until it is listed, and a class bound a second time under a symbol
 * (`bind(SYMBOL).toService(Class)`) fails always.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';

const PACKAGES = path.resolve(import.meta.dirname, '../../packages');

const KEPT_SYMBOLS: Record<string, string> = {
  'subshare.Config': 'a plain object, the loaded configuration',
  'subshare.Knex': "knex's instance, a function",
  'subshare.Logger': "pino's logger",
  'subshare.Clock': "a port: SystemClock, ManualClock, the tests' TestClock",
  'subshare.JobQueue': "a port: pg-boss's queue, a test's recording queue",
  'subshare.payments.Providers': 'a port: the provider adapters chosen from configuration',
  'subshare.mailboxes.MailSource': 'a port: IMAP, or null when no mailbox is configured',
  'subshare.mailboxes.HeardMailSink': "a port: the account-health flow, behind the mailboxes module's interface",
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'dist', 'dist-server'].includes(entry.name) ? [] : sources(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('one container identifier per thing', () => {
  const files = sources(PACKAGES).map((file) => ({ file: path.relative(PACKAGES, file), text: readFileSync(file, 'utf8') }));

  it('declares symbols only for values and ports with several implementations', () => {
    expect(files.length).to.be.above(200);
    const declared = files.flatMap(({ text }) => [...text.matchAll(/Symbol\.for\('([^']+)'\)/g)].map((match) => match[1]!));
    expect([...declared].sort()).to.deep.equal(Object.keys(KEPT_SYMBOLS).sort());
  });

  it('binds no class a second time under another identifier', () => {
    const aliases = files.flatMap(({ file, text }) =>
      [...text.matchAll(/bind\(([^)]+)\)\s*\.toService\((\w+)\)/g)].filter((match) => match[1] !== 'MAILBOX_HEARD_SINK').map((match) => `${file}: ${match[0]}`),
    );
    expect(aliases).to.deep.equal([]);
  });
});
