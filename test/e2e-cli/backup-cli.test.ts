import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { createKnex, CredentialsCipher, migrateLatest, type Knex, ReplacementFlow } from '@subshare/core';
import { runCli, type CliResult } from '../support/cli.js';
import { harness, testEnv } from '../support/harness.js';
import { activation, buyer, createAccount, createOrder, createPlatform, markPaidQuietly, orders } from '../support/shop.js';

/**
 * `subshare backup` and `subshare restore` on the test run's database: a backup restored into a
 * second, freshly migrated database on the same server holds the same rows in every table; a
 * restore refuses a database that is not empty or not at the same migration level, a file that
 * is damaged, and changes nothing then.
 */

/**
 * Types the shop's tables do not all use (bytea, json, arrays, interval, float, numbers past
 * 2^53), an identity column and a self-reference whose child row comes first by id. Created in
 * the test database for this file only and in every target database before a restore.
 */
const PROBE = `
  create table backup_probe (
    id bigint generated always as identity primary key,
    parent_id bigint references backup_probe (id),
    big bigint,
    amount numeric(30, 10),
    ratio double precision,
    raw bytea,
    doc jsonb,
    doc_json json,
    flags boolean[],
    at timestamptz,
    span interval,
    note text,
    code char(3)
  )`;

type Sums = Record<string, string>;

/** Every public table's row count and md5 of its rows (knex's lock row aside). */
async function checksums(knex: Knex): Promise<Sums> {
  const { rows: tables } = await knex.raw(
    `select tablename from pg_tables where schemaname = 'public' and tablename <> 'knex_migrations_lock' order by tablename`,
  );
  const sums: Sums = {};
  for (const { tablename } of tables as Array<{ tablename: string }>) {
    const { rows } = await knex.raw(`select count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as sum from ?? t`, [tablename]);
    sums[tablename] = `${rows[0].n} ${rows[0].sum}`;
  }
  return sums;
}

describe('subshare CLI: backup and restore', function () {
  this.timeout(240_000);
  const source = () => harness().knex;
  const key = () => harness().config.credentialsKey.toString('base64');
  const env = (url = harness().db.url, extra: Record<string, string> = {}) => testEnv(url, { CREDENTIALS_KEY: key(), ...extra });
  const failsWith = (result: CliResult, pattern: RegExp) => {
    expect(result.code, result.stdout + result.stderr).to.equal(1);
    expect(result.stderr.trim()).to.match(pattern);
    expect(result.stderr.trim().split('\n'), 'one line').to.have.length(1);
  };

  let dir: string;
  let backupFile: string;
  let sourceSums: Sums;
  const databases: Array<{ url: string; knex: Knex }> = [];
  const mine: { accountId?: number; accountPassword?: string; krwOrderId?: number; replacedId?: number; renewedId?: number } = {};

  /** A second database on the test server, migrated like the first (and with the probe table) unless told otherwise. */
  async function targetDatabase(options: { migrate?: boolean } = {}): Promise<{ url: string; knex: Knex }> {
    const url = await harness().db.createDatabase(`backup_target_${databases.length}`);
    const knex = createKnex(url);
    databases.push({ url, knex });
    if (options.migrate ?? true) {
      await migrateLatest(knex);
      await knex.raw(PROBE);
    }
    return { url, knex };
  }

  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'subshare-backup-test-'));
    await source().raw(PROBE);
    // The child (id 1) references a parent with a higher id; values at the edges of their types.
    await source().raw(`insert into backup_probe (id, parent_id, big, amount, ratio, raw, doc, doc_json, flags, at, span, note, code)
      overriding system value values
      (1, 2, 9007199254740993, 12345678901234567890.0123456789, 0.1, '\\x00ff10', '{"n": 12345678901234567890, "s": "ü\\n"}',
       '{"b": 1,   "a": [1.50]}', '{t,f,null}', '2026-11-30 23:59:59.123456+09', '1 year 2 mons 3 days 04:05:06.789', E'line\\none \\\\ "q" 한국', 'KR'),
      (2, null, -9223372036854775808, -0.0000000001, 1e308, '\\x', '[]', 'null', '{}', '-infinity', '-1 days', '', null),
      (3, null, null, null, 'NaN', null, null, null, null, null, null, null, null)`);
    await source().raw(`select setval(pg_get_serial_sequence('backup_probe', 'id'), 40)`);

    // The shop's own data: an encrypted account, an activated EUR order whose subscription was
    // replaced (a self-reference), a KRW order.
    const platform = await createPlatform({ slotsCount: 2 });
    const account = await createAccount(platform.id, 2, 'backup-secret-1');
    mine.accountId = account.id;
    mine.accountPassword = account.password;
    const eurOrder = await createOrder(await buyer(), platform);
    await markPaidQuietly(eurOrder);
    const [slot] = (await activation().activate(eurOrder)).subscriptions;
    await createAccount(platform.id, 2);
    await harness().container.get(ReplacementFlow).replace({ label: 'test' }, { subscribeId: slot.subscriptionId, orderId: eurOrder });
    mine.replacedId = slot.subscriptionId;
    mine.renewedId = (await source()('subscriptions').where({ replaced_from_id: slot.subscriptionId }).first()).id;
    const krw = await orders().createOrder(
      await buyer({ languageId: 2 }),
      { platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId, languageId: 1, quantity: 1, currency: 'KRW' },
      'KRW',
    );
    mine.krwOrderId = krw.id;
  });

  after(async () => {
    for (const { knex } of databases) await knex.destroy().catch(() => undefined);
    for (const { url } of databases) {
      const name = decodeURIComponent(new URL(url).pathname.slice(1));
      await source()
        .raw('drop database if exists ?? with (force)', [name])
        .catch(() => undefined);
    }
    await source().raw('drop table if exists backup_probe');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('--help explains both commands: the file is private, pg-boss jobs are left out, the same CREDENTIALS_KEY is needed, --yes', async () => {
    const help = await runCli(['--help']);
    for (const command of ['backup', 'restore']) expect(help.stdout).to.match(new RegExp(`\\n\\s+${command}\\b`));
    expect((await runCli(['backup', '--help'])).stdout.replace(/\s+/g, ' '))
      .to.contain('--out <file>')
      .and.contain('mode 600')
      .and.contain("pg-boss's job queue is not in it")
      .and.contain('outbox sweep')
      .and.contain('same CREDENTIALS_KEY');
    // commander wraps help to the terminal's width: compare with the line breaks made spaces.
    expect((await runCli(['restore', '--help'])).stdout.replace(/\s+/g, ' '))
      .to.contain('--in <file>')
      .and.contain('--yes')
      .and.contain('changes nothing')
      .and.contain('--ignore-credentials-key');
  });

  it('backup writes a gzip file of mode 600 with every public table, in one snapshot, and prints a summary', async function () {
    // The worker delivers e-mails and beats its heart meanwhile: back up when the data holds still.
    backupFile = path.join(dir, 'shop.backup.gz');
    let result: CliResult | undefined;
    for (let attempt = 0; attempt < 5; attempt++) {
      const before = await checksums(source());
      result = await runCli(['backup', '--out', backupFile], env());
      const after = await checksums(source());
      if (JSON.stringify(before) === JSON.stringify(after)) {
        sourceSums = after;
        break;
      }
    }
    expect(sourceSums, 'the test database held still during a backup').to.not.equal(undefined);
    expect(result!.stderr).to.equal('');
    expect(result!.code).to.equal(0);
    const tableCount = Object.keys(sourceSums).length;
    const rowCount = Object.values(sourceSums).reduce((sum, value) => sum + Number(value.split(' ')[0]), 0);
    expect(result!.stdout.trim()).to.match(
      new RegExp(
        `^Backed up ${tableCount} tables, ${rowCount} rows to ${backupFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\([\\d.]+ (B|KiB|MiB)\\) in [\\d.]+ s\\.$`,
      ),
    );

    expect(statSync(backupFile).mode & 0o777).to.equal(0o600);
    expect(readdirSync(dir)).to.deep.equal(['shop.backup.gz']); // no temporary file left
    const lines = gunzipSync(readFileSync(backupFile))
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const [header] = lines;
    expect(header).to.include({ format: 'subshare-backup', version: 1 });
    expect(header.migrations).to.deep.equal((await source()('knex_migrations').orderBy('id').pluck('name')) as string[]);
    const names = header.tables.map((table: { name: string }) => table.name);
    expect([...names].sort()).to.deep.equal(Object.keys(sourceSums).sort());
    expect(names).to.not.include('knex_migrations_lock');
    expect(names.indexOf('users')).to.be.below(names.indexOf('orders')); // parents first
    expect(lines.at(-1)).to.deep.equal({ kind: 'end', tables: tableCount, rows: rowCount });
    // Lossless text forms; generated columns are left out.
    const probe = lines.find((line) => line.kind === 'rows' && line.rows.some((row: string[]) => row[2] === '9007199254740993'));
    expect(probe.rows[0]).to.include.members(['9007199254740993', '12345678901234567890.0123456789', '\\x00ff10', '2026-11-30 14:59:59.123456+00']);
    const subscriptions = header.tables.find((table: { name: string }) => table.name === 'subscriptions');
    expect(subscriptions.columns.map((column: { name: string }) => column.name)).to.not.include('slot_range');

    // Written again over the same path: replaced whole, still private.
    const again = await runCli(['backup', '--out', path.join(dir, 'second.gz')], env());
    expect(again.code).to.equal(0);
    expect(statSync(path.join(dir, 'second.gz')).mode & 0o777).to.equal(0o600);
  });

  it('restore checks without --yes and changes nothing; with --yes every table holds the same rows; sequences go on past them', async () => {
    const target = await targetDatabase();
    const fresh = await checksums(target.knex);

    const dryRun = await runCli(['restore', '--in', backupFile], env(target.url));
    failsWith(dryRun, /^Nothing restored: .*\(made .*, \d+ tables, \d+ rows\) fits database "backup_target_0_\w+" on .*; .* run again with --yes\.$/);
    expect(await checksums(target.knex)).to.deep.equal(fresh);

    const result = await runCli(['restore', '--in', backupFile, '--yes'], env(target.url));
    expect(result.stderr).to.equal('');
    expect(result.code).to.equal(0);
    expect(result.stdout.trim()).to.match(
      /^Restored \d+ tables, \d+ rows from .* into database "backup_target_0_\w+" on .* in [\d.]+ s; \d+ sequences set past their highest ids\./,
    );
    expect(await checksums(target.knex)).to.deep.equal(sourceSums);

    // The rows of this test, in particular: the KRW order, the replaced subscription, the account's password (same key).
    const krw = await target.knex('orders').where({ id: mine.krwOrderId }).first();
    expect(krw).to.include({ currency: 'KRW' });
    expect((await target.knex('subscriptions').where({ id: mine.renewedId }).first()).replaced_from_id).to.equal(mine.replacedId);
    const account = await target.knex('platform_accounts').where({ id: mine.accountId }).first();
    expect(new CredentialsCipher(harness().config.credentialsKey).decrypt(account.password_encrypted)).to.equal(mine.accountPassword);
    const [probe] = await target.knex.raw(`select big::text, raw, doc_json::text from backup_probe where id = 1`).then((r) => r.rows);
    expect(probe).to.deep.equal({ big: '9007199254740993', raw: Buffer.from([0x00, 0xff, 0x10]), doc_json: '{"b": 1,   "a": [1.50]}' });

    // New rows take ids past every restored one.
    const maxUser = (await source()('users').max('id as max').first())!.max as number;
    const [user] = await target
      .knex('users')
      .insert({ email: `after-restore-${randomBytes(4).toString('hex')}@example.test`, password_hash: 'x', name: 'After Restore' })
      .returning('id');
    expect(user.id).to.be.above(maxUser);
    const [probeRow] = await target.knex('backup_probe').insert({ note: 'next' }).returning('id');
    expect(Number(probeRow.id)).to.equal(41); // past the sequence's value at backup time, not only past max(id)
    const maxMigration = (await source()('knex_migrations').max('id as max').first())!.max as number;
    const [migration] = await target.knex('knex_migrations').insert({ name: 'probe', batch: 99, migration_time: new Date() }).returning('id');
    expect(migration.id).to.be.above(maxMigration);
  });

  it('restore refuses a database that is not empty, naming its tables, and changes nothing', async () => {
    const target = await targetDatabase();
    await target.knex('users').insert({ email: 'already-here@example.test', password_hash: 'x', name: 'Here' });
    const before = await checksums(target.knex);
    for (const args of [[], ['--yes']]) {
      failsWith(
        await runCli(['restore', '--in', backupFile, ...args], env(target.url)),
        /^Refusing to restore: the database is not empty \(rows in users\); restore only into a freshly migrated database, nothing was changed\.$/,
      );
    }
    expect(await checksums(target.knex)).to.deep.equal(before);
  });

  it('restore refuses a database at another migration level, or with none, and changes nothing', async () => {
    const behind = await targetDatabase();
    const last = (await behind.knex('knex_migrations').orderBy('id', 'desc').first()).name as string;
    await behind.knex('knex_migrations').where({ name: last }).delete();
    const before = await checksums(behind.knex);
    failsWith(
      await runCli(['restore', '--in', backupFile, '--yes'], env(behind.url)),
      new RegExp(`^Refusing to restore: the database's migrations differ from the backup's \\(only in the backup: ${last}\\); .*\\.$`),
    );
    expect(await checksums(behind.knex)).to.deep.equal(before);

    const bare = await targetDatabase({ migrate: false });
    failsWith(
      await runCli(['restore', '--in', backupFile, '--yes'], env(bare.url)),
      /^Refusing to restore: the database has no migrations applied; run `subshare migrate` on it first\.$/,
    );
    const { rows } = await bare.knex.raw(`select count(*)::int as n from pg_tables where schemaname = 'public'`);
    expect(rows[0].n).to.equal(0);
  });

  it('restore refuses another CREDENTIALS_KEY unless told to ignore it', async () => {
    const target = await targetDatabase();
    const otherKey = { CREDENTIALS_KEY: randomBytes(32).toString('base64') };
    failsWith(
      await runCli(['restore', '--in', backupFile, '--yes'], testEnv(target.url, otherKey)),
      /^Refusing to restore: the backup's account and mailbox passwords are encrypted with key [0-9a-f]{8}, but CREDENTIALS_KEY here is key [0-9a-f]{8}; .*--ignore-credentials-key.*\.$/,
    );
    failsWith(await runCli(['restore', '--in', backupFile, '--ignore-credentials-key'], testEnv(target.url, otherKey)), /^Nothing restored: .*--yes\.$/);
    expect(await target.knex('users').count('* as n').first()).to.deep.equal({ n: 0 });
  });

  it('restore refuses a damaged, cut short or foreign file with one line, writing nothing', async () => {
    const target = await targetDatabase();
    const fresh = await checksums(target.knex);
    const raw = gunzipSync(readFileSync(backupFile)).toString('utf8');
    const lines = raw.trimEnd().split('\n');
    const write = (name: string, content: Buffer | string) => {
      const file = path.join(dir, name);
      writeFileSync(file, content);
      return file;
    };
    const restore = (file: string) => runCli(['restore', '--in', file, '--yes'], env(target.url));
    const compressed = readFileSync(backupFile);

    failsWith(await restore(write('plain.txt', 'hello\n')), /is not a subshare backup: not gzip data/);
    failsWith(await restore(write('half.gz', compressed.subarray(0, Math.floor(compressed.length / 2)))), /is damaged or cut short: unexpected end of file\.$/);
    failsWith(await restore(write('other.gz', gzipSync('{"format":"something-else"}\n'))), /is not a subshare backup \(no "subshare-backup" header\)\.$/);
    const header = JSON.parse(lines[0]);
    failsWith(
      await restore(write('future.gz', gzipSync(`${JSON.stringify({ ...header, version: 2 })}\n`))),
      /is a subshare backup of format version 2; this subshare reads version 1\.$/,
    );
    failsWith(await restore(write('json.gz', gzipSync(`${lines[0]}\n{"kind":\n`))), /is damaged: line 2 is not valid JSON\.$/);

    // Damage found only while loading: the transaction rolls back.
    failsWith(
      await restore(write('cut.gz', gzipSync(lines.slice(0, -3).join('\n') + '\n'))),
      /^Restore failed, nothing was changed: .* is cut short: it stops before its end line/,
    );
    // A text value changed by hand, still valid for its column: only the checksum can tell.
    const rowsLine = lines.findIndex((line) => line.includes('"kind":"rows"') && line.includes('한국'));
    const tampered = [...lines];
    tampered[rowsLine] = tampered[rowsLine].replace('한국', '한글');
    expect(tampered[rowsLine]).to.not.equal(lines[rowsLine]);
    failsWith(
      await restore(write('tampered.gz', gzipSync(tampered.join('\n') + '\n'))),
      /^Restore failed, nothing was changed: .* is damaged: the rows of backup_probe do not match their count or checksum/,
    );
    expect(await checksums(target.knex)).to.deep.equal(fresh);
  });

  it('bad arguments fail with one line before anything opens', async () => {
    const missing = await runCli(['backup'], env());
    expect(missing.code).to.equal(1);
    expect(missing.stderr).to.contain("required option '--out <file>' not specified");
    failsWith(await runCli(['backup', '--out', dir], env()), /^--out .* is a directory; name a file in it/);
    failsWith(await runCli(['backup', '--out', path.join(dir, 'no-such-dir', 'x.gz')], env()), /^--out .*: the directory .*no-such-dir does not exist\.$/);
    failsWith(await runCli(['restore', '--in', path.join(dir, 'nothing.gz')], env()), /^--in: cannot read .*nothing\.gz \(ENOENT\)\.$/);
    expect((await runCli(['restore'], env())).stderr).to.contain("required option '--in <file>' not specified");
  });
});
