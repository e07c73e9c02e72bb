import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  buildContainer,
  createKnex,
  CredentialsCipher,
  CredentialsCipherError,
  credentialsKeyId,
  hashPassword,
  migrateLatest,
  seedDemoCatalog,
  TOKENS,
  AccountsService,
  type JobQueue,
  type Knex,
  type Logger,
} from '@subshare/core';
import { createApp } from '@subshare/http';
import { api } from '../support/agent.js';
import { runCli } from '../support/cli.js';
import { harness, testEnv } from '../support/harness.js';

const CIPHERTEXT = /^v1:[0-9a-f]{8}:/;
const base64 = (key: Buffer) => key.toString('base64');
const uniqueLogin = () => `cli-${randomUUID().slice(0, 10)}@example.test`;

/** The CLI on the test run's database, with the same CREDENTIALS_KEY as the test app. */
const mainEnv = () => testEnv(harness().db.url, { CREDENTIALS_KEY: base64(harness().config.credentialsKey) });

/** Parses the address and password lines that create-mailbox prints. */
function printedMailbox(stdout: string): { id: number; email: string; password: string } {
  const id = Number(/Created mailbox (\d+)/.exec(stdout)?.[1]);
  const email = /address:\s+(\S+)/.exec(stdout)?.[1] ?? '';
  const password = /password:\s+(\S+)/.exec(stdout)?.[1] ?? '';
  return { id, email, password };
}

describe('subshare CLI: accounts, mailboxes and the credentials key', function () {
  // Each test starts several `subshare` processes; beside the browser files they may take a
  // few seconds each. The timeout catches a hang, it times nothing.
  this.timeout(180_000);

  it('--help lists the three commands', async () => {
    const result = await runCli(['--help']);
    for (const command of ['create-account', 'create-mailbox', 'rotate-credentials-key']) expect(result.stdout).to.match(new RegExp(`\\n\\s+${command}\\b`));
  });

  it('create-account adds an encrypted account that the API side can read, audited as "cli" without the password', async () => {
    const login = uniqueLogin();
    const forward = uniqueLogin();
    // The password from standard input: never on the command line, where `ps` shows it.
    const result = await runCli(
      ['create-account', '--platform', '2', '--email', login, '--password-stdin', '--slots', '6', '--forward', forward],
      mainEnv(),
      'cli-pass-123\n',
    );
    expect(result.stderr).to.equal('');
    expect(result.code).to.equal(0);
    const row = await harness().knex('platform_accounts').where({ login_email: login }).first();
    expect(result.stdout.trim()).to.equal(`Created account ${row.id} on platform 2: ${login}, 6 slot(s), forwarding to ${forward}, no mailbox of ours.`);
    expect(result.stdout).to.not.contain('cli-pass-123');
    expect(row).to.include({ platform_id: 2, slots_count: 6, forwarding_email: forward, mailbox_id: null });
    expect(row.password_encrypted).to.match(CIPHERTEXT).and.not.contain('cli-pass-123');

    const accounts = harness().container.get(AccountsService);
    expect(await accounts.accountCredentials(row.id)).to.deep.equal({ email: login, password: 'cli-pass-123' });
    const audit = await harness()
      .knex('audit_log')
      .where({ action: 'account.create', target_id: String(row.id) })
      .first();
    expect(audit).to.include({ actor_label: 'cli', actor_user_id: null });
    expect(JSON.stringify(audit)).to.not.contain('cli-pass-123');
  });

  it('create-account applies the same rules as the API: bad input, duplicates and unknown platforms fail with a clear line', async () => {
    const login = uniqueLogin();
    // The password from the environment (SUBSHARE_PASSWORD).
    const run = (overrides: Record<string, string>, password = 'secret-123') => {
      const options = { '--platform': '1', '--email': login, '--slots': '3', '--forward': uniqueLogin(), ...overrides };
      return runCli(['create-account', ...Object.entries(options).flat()], { ...mainEnv(), SUBSHARE_PASSWORD: password });
    };
    const tooMany = await run({ '--slots': '21' });
    expect(tooMany.code).to.equal(1);
    expect(tooMany.stderr).to.contain('Some fields are missing or invalid.');
    expect((await run({}, '12345')).stderr).to.contain('Use at least 6 characters.');

    expect((await run({})).code).to.equal(0);
    const duplicate = await run({});
    expect(duplicate.code).to.equal(1);
    expect(duplicate.stderr.trim()).to.equal('This platform already has an account with this login e-mail.');
    const unknown = await run({ '--platform': '999999' });
    expect(unknown.stderr.trim()).to.equal('This platform does not exist.');
  });

  it('create-account and rotate-credentials-key refuse a secret on the command line, and say where to give it instead', async () => {
    const login = uniqueLogin();
    const onArgv = await runCli(
      ['create-account', '--platform', '1', '--email', login, '--password', 'seen-by-ps-1', '--slots', '2', '--forward', uniqueLogin()],
      mainEnv(),
    );
    expect(onArgv.code).to.equal(1);
    expect(onArgv.stderr.trim()).to.equal(
      '--password is not accepted: a secret on the command line is visible to every user in `ps` and kept in shell history. ' +
        'Set SUBSHARE_PASSWORD, use --password-stdin, or leave it out to be asked.',
    );
    expect(await harness().knex('platform_accounts').where({ login_email: login })).to.have.length(0);
    // Without a terminal, the environment or standard input, the command says what it needs instead of waiting.
    const missing = await runCli(['create-account', '--platform', '1', '--email', login, '--slots', '2', '--forward', uniqueLogin()], mainEnv());
    expect(missing.code).to.equal(1);
    expect(missing.stderr.trim()).to.equal(
      'The password is missing: set SUBSHARE_PASSWORD, pipe it in with --password-stdin, or run the command on a terminal to be asked.',
    );
    for (const option of ['--new-key', '--old-key']) {
      const rotate = await runCli(['rotate-credentials-key', option, randomBytes(32).toString('hex')], mainEnv());
      expect(rotate.code).to.equal(1);
      expect(rotate.stderr).to.contain(`${option} is not accepted: a secret on the command line is visible to every user in \`ps\``);
    }
  });

  it('create-mailbox prints the new address and its password once; the row holds only ciphertext', async () => {
    const result = await runCli(['create-mailbox', '--platform', '3'], mainEnv());
    expect(result.stderr).to.equal('');
    const mailbox = printedMailbox(result.stdout);
    expect(result.stdout).to.contain(`Created mailbox ${mailbox.id} for platform 3:`);
    expect(mailbox.email).to.match(/^[a-z]+-[a-z]+-\d{4}@mail\.localhost$/);
    expect(mailbox.password).to.have.length.of.at.least(20);
    expect(result.stdout.split(mailbox.password)).to.have.length(2); // printed exactly once

    const row = await harness().knex('mailboxes').where({ id: mailbox.id }).first();
    expect(row).to.include({ email: mailbox.email, platform_id: 3 });
    expect(row.password_encrypted).to.match(CIPHERTEXT).and.not.contain(mailbox.password);
    expect(new CredentialsCipher(harness().config.credentialsKey).decrypt(row.password_encrypted)).to.equal(mailbox.password);
    expect(
      await harness()
        .knex('audit_log')
        .where({ action: 'mailbox.create', target_id: String(mailbox.id), actor_label: 'cli' }),
    ).to.have.length(1);

    const unassigned = printedMailbox((await runCli(['create-mailbox'], mainEnv())).stdout);
    expect((await harness().knex('mailboxes').where({ id: unassigned.id }).first()).platform_id).to.equal(null);
  });

  it('rotate-credentials-key refuses a malformed key or the key in use, changing nothing', async () => {
    const malformed = await runCli(['rotate-credentials-key', '--keys-stdin'], mainEnv(), 'too-short\n');
    expect(malformed.code).to.equal(1);
    expect(malformed.stderr.trim()).to.equal('The new key must be 32 bytes, as 64 hex digits or base64.');
    const same = await runCli(['rotate-credentials-key'], { ...mainEnv(), SUBSHARE_NEW_KEY: harness().config.credentialsKey.toString('hex') });
    expect(same.code).to.equal(1);
    expect(same.stderr).to.contain('The new key is the key in use.');
  });

  describe('rotate-credentials-key on a database of its own', () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    let url: string;
    let knex: Knex;
    const env = (key: Buffer, extra: Record<string, string> = {}) => testEnv(url, { CREDENTIALS_KEY: base64(key), ...extra });

    /** The shop (container and HTTP app) on that database, configured with `key`. */
    const shopWith = (key: Buffer) => {
      const { config, clock, container } = harness();
      const jobQueue = container.get<JobQueue>(TOKENS.JobQueue);
      const other = buildContainer({ config: { ...config, credentialsKey: key }, knex, logger: container.get<Logger>(TOKENS.Logger), jobQueue, clock });
      return { accounts: other.get(AccountsService), app: createApp(other, { accessLog: false }) };
    };

    before(async () => {
      url = await harness().db.createDatabase('subshare_rotation');
      knex = createKnex(url);
      await migrateLatest(knex);
      await seedDemoCatalog(knex);
    });
    after(() => knex.destroy());

    it('re-encrypts every account and mailbox password with the new key in one go; the new key reads them, the old no longer does', async () => {
      const login = uniqueLogin();
      const created = await runCli(['create-account', '--platform', '1', '--email', login, '--slots', '2', '--forward', uniqueLogin()], {
        ...env(oldKey),
        SUBSHARE_PASSWORD: 'rotate-me-1',
      });
      expect(created.code, created.stderr).to.equal(0);
      const mailbox = printedMailbox((await runCli(['create-mailbox', '--platform', '1'], env(oldKey))).stdout);
      const before = await knex('platform_accounts').where({ login_email: login }).first();
      const mailboxBefore = await knex('mailboxes').where({ id: mailbox.id }).first();
      expect(before.password_encrypted.split(':')[1]).to.equal(credentialsKeyId(oldKey));

      const rotated = await runCli(['rotate-credentials-key'], { ...env(oldKey), SUBSHARE_NEW_KEY: newKey.toString('hex') });
      expect(rotated.stderr).to.equal('');
      expect(rotated.code).to.equal(0);
      expect(rotated.stdout).to.contain(
        `Re-encrypted 1 mailbox and 1 account password(s) from key ${credentialsKeyId(oldKey)} to key ${credentialsKeyId(newKey)} (0 already on the new key).`,
      );
      expect(rotated.stdout).to.contain('Now set CREDENTIALS_KEY to the new key');
      expect(rotated.stdout).to.not.contain(newKey.toString('hex')).and.not.contain(base64(newKey));

      const after = await knex('platform_accounts').where({ id: before.id }).first();
      const mailboxAfter = await knex('mailboxes').where({ id: mailbox.id }).first();
      expect(after.password_encrypted)
        .to.match(new RegExp(`^v1:${credentialsKeyId(newKey)}:`))
        .and.not.equal(before.password_encrypted);
      expect(mailboxAfter.password_encrypted)
        .to.match(new RegExp(`^v1:${credentialsKeyId(newKey)}:`))
        .and.not.equal(mailboxBefore.password_encrypted);

      // The shop on the new key reads them, through the service and through the API.
      const current = shopWith(newKey);
      expect(await current.accounts.accountCredentials(before.id)).to.deep.equal({ email: login, password: 'rotate-me-1' });
      const [admin] = await knex('users')
        .insert({ email: uniqueLogin(), password_hash: await hashPassword('admin-pass-1'), role: 2, is_email_verified: true, name: 'Ops' })
        .returning(['id', 'email']);
      const login200 = await api(current.app).post('/api/user/authenticate').send({ email: admin.email, password: 'admin-pass-1' }).expect(200);
      const listed = await api(current.app)
        .get('/api/subscribe/getbemails')
        .query({ plaformId: 1 })
        .set('Authorization', `Bearer ${login200.body.token}`)
        .expect(200);
      expect(listed.body).to.deep.include({ id: mailbox.id, email: mailbox.email, password: mailbox.password, platformId: 1 });

      // The old key no longer reads anything: refused by key id, answered as a server fault.
      const stale = shopWith(oldKey);
      try {
        await stale.accounts.accountCredentials(before.id);
        expect.fail('the old key still decrypted');
      } catch (error) {
        expect(error).to.be.instanceOf(CredentialsCipherError);
        expect((error as CredentialsCipherError).reason).to.equal('wrong_key');
      }
      const staleLogin = await api(stale.app).post('/api/user/authenticate').send({ email: admin.email, password: 'admin-pass-1' }).expect(200);
      const refused = await api(stale.app)
        .get('/api/subscribe/getbemails')
        .query({ plaformId: 1 })
        .set('Authorization', `Bearer ${staleLogin.body.token}`)
        .expect(500);
      expect(refused.body.code).to.equal('credentials_wrong_key');
      expect(JSON.stringify(refused.body)).to.not.contain(mailbox.password);

      // A repeated run (old key given explicitly, new key configured) skips what is already done.
      // Both keys on standard input: the new one on the first line, the old one on the second.
      const again = await runCli(['rotate-credentials-key', '--keys-stdin'], env(newKey), `${base64(newKey)}\n${base64(oldKey)}\n`);
      expect(again.code, again.stderr).to.equal(0);
      expect(again.stdout).to.contain('Re-encrypted 0 mailbox and 0 account password(s)').and.contain('(2 already on the new key)');

      const audit = await knex('audit_log').where({ action: 'credentials.rotate' }).orderBy('id');
      expect(audit.map((entry) => entry.details)).to.deep.equal([
        { fromKeyId: credentialsKeyId(oldKey), toKeyId: credentialsKeyId(newKey), mailboxes: 1, accounts: 1, skipped: 0 },
        { fromKeyId: credentialsKeyId(oldKey), toKeyId: credentialsKeyId(newKey), mailboxes: 0, accounts: 0, skipped: 2 },
      ]);
    });

    it('stops with nothing changed when a row is on neither key', async () => {
      const thirdKey = randomBytes(32);
      await runCli(['create-mailbox'], env(thirdKey));
      const snapshot = await knex('mailboxes').orderBy('id').select('id', 'password_encrypted');
      const result = await runCli(['rotate-credentials-key'], { ...env(newKey), SUBSHARE_NEW_KEY: base64(randomBytes(32)) });
      expect(result.code).to.equal(1);
      expect(result.stderr).to.contain('1 stored password(s) are encrypted with neither the current nor the new key').and.contain(credentialsKeyId(thirdKey));
      expect(await knex('mailboxes').orderBy('id').select('id', 'password_encrypted')).to.deep.equal(snapshot);
    });
  });

  it('in demo mode, rewrites CREDENTIALS_KEY in DATA_DIR/secrets.json so the next start uses the new key', async function () {
    this.timeout(150_000);
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'subshare-rotate-demo-'));
    const demo = { DATA_DIR: dataDir, PORT: '3000' };
    expect((await runCli(['migrate'], demo)).code).to.equal(0);
    const secretsFile = path.join(dataDir, 'secrets.json');
    const generated = JSON.parse(readFileSync(secretsFile, 'utf8'));
    const created = await runCli(['create-mailbox'], demo);
    expect(created.code, created.stderr).to.equal(0);

    const newKey = randomBytes(32);
    const rotated = await runCli(['rotate-credentials-key', '--keys-stdin'], demo, newKey.toString('hex'));
    expect(rotated.code, rotated.stderr).to.equal(0);
    expect(rotated.stdout).to.contain('Re-encrypted 1 mailbox and 0 account password(s)').and.contain(`Updated CREDENTIALS_KEY in ${secretsFile}`);
    const rewritten = JSON.parse(readFileSync(secretsFile, 'utf8'));
    expect(rewritten).to.deep.equal({ ...generated, CREDENTIALS_KEY: base64(newKey) });
    expect(statSync(secretsFile).mode & 0o777).to.equal(0o600);

    // The next run reads the new key from secrets.json: the row is on it (a second rotation finds it under "current").
    const next = await runCli(['rotate-credentials-key'], { ...demo, SUBSHARE_NEW_KEY: base64(randomBytes(32)) });
    expect(next.code, next.stderr).to.equal(0);
    expect(next.stdout)
      .to.contain('Re-encrypted 1 mailbox and 0 account password(s)')
      .and.contain(`from key ${credentialsKeyId(newKey)}`);
    rmSync(dataDir, { recursive: true, force: true });
  });
});
