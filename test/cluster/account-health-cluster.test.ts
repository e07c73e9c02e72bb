import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { SHIPPED_ALERT_RULES, AccountsService } from '@subshare/core';
import { loginAs } from '../support/agent.js';
import { alertMail } from '../support/alert-mails.js';
import { exited, spawnCli } from '../support/cli.js';
import { startDovecot, type TestDovecot } from '../support/dovecot.js';
import { harness, testEnv } from '../support/harness.js';
import { subscribe } from '../support/mailboxes.js';
import { onFreePort } from '../support/ports.js';
import { createAccount, createPlatform, jobsIn, UNFINISHED_JOB_STATES } from '../support/shop.js';
import { waitFor } from '../support/wait.js';

/**
 * Issue 29 in a cluster: two `subshare serve` and two `subshare worker` processes of the built CLI
 * on one PostgreSQL, reading a real Dovecot. An account's "password changed" mail is APPENDed:
 * whichever worker owns the mailbox hears it, the account turns broken, and its buyer is moved
 * once, e-mailed once, audited once, even when the move job is sent again and again. A forged
 * "password changed" (unsigned) before it changes nothing (issue 33).
 */
describe('a cluster: an alert mail breaks an account and its buyer moves once (2 serve, 2 worker)', function () {
  this.timeout(300_000);
  let dovecot: TestDovecot;
  let env: Record<string, string>;
  const children: Array<ReturnType<typeof spawnCli>> = [];
  const staffAlert = `ops-${randomUUID().slice(0, 8)}@example.test`;
  const knex = () => harness().knex;

  async function start(args: string[], ready: string, extra: Record<string, string> = {}) {
    const child = spawnCli(args, { ...env, ...extra });
    children.push(child);
    await waitFor(() => child.output().includes(ready) || child.exitCode !== null, { timeoutMs: 60_000, intervalMs: 50, what: args.join(' ') });
    if (child.exitCode !== null) {
      // Gone already (e.g. its port was taken after the probe: onFreePort tries another).
      children.splice(children.indexOf(child), 1);
      throw new Error(`${args.join(' ')} exited ${child.exitCode}: ${child.output()}`);
    }
    return child;
  }

  before(async function () {
    dovecot = await startDovecot();
    env = testEnv(harness().db.url, {
      SMTP_URL: harness().smtp.url,
      TOKEN_SECRET: harness().config.tokenSecret.toString('utf8'),
      CREDENTIALS_KEY: harness().config.credentialsKey.toString('base64'),
      MAILBOX_IMAP_URL: dovecot.url,
      STAFF_ALERT_EMAILS: staffAlert,
      LOG_LEVEL: 'info',
    });
  });

  after(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    const codes = await Promise.all(children.map((child: ChildProcess) => exited(child)));
    await dovecot?.destroy();
    expect(codes, 'every process stops cleanly on SIGTERM').to.deep.equal(codes.map(() => 0));
  });

  it('the state changes within 5 s of the APPEND; one move, one buyer e-mail, one staff e-mail, one audit entry each', async () => {
    // The shop: a Netflix-like platform, an account whose mailbox is on Dovecot with a buyer on it, a spare account.
    const { container } = harness();
    const platform = await createPlatform({ slotsCount: 4 });
    await knex()('platforms')
      .where({ id: platform.id })
      .update({ alert_rules: JSON.stringify(SHIPPED_ALERT_RULES.netflix) });
    const accounts = container.get(AccountsService);
    const mailbox = await accounts.createMailbox({ label: 'test' }, { platformId: platform.id });
    dovecot.addUser(mailbox.email, mailbox.password);
    const account = await accounts.createAccount(
      { label: 'test' },
      { platformId: platform.id, email: mailbox.email, password: `pw-${randomUUID().slice(0, 8)}`, slotsCount: 4, femail: 'fw@example.test' },
    );
    const buyer = await loginAs('user');
    const subscriptionId = await subscribe(container, buyer, platform);
    const spare = await createAccount(platform.id, 4);

    // The cluster; the workers watch every account's mailbox as they start.
    for (let i = 0; i < 2; i += 1) await onFreePort((port) => start(['serve'], 'HTTP server listening', { PORT: String(port) }));
    await Promise.all([start(['worker'], 'worker started'), start(['worker'], 'worker started')]);
    await waitFor(async () => (await knex()('mailbox_read_state').where({ mailbox_id: mailbox.id }).first())?.live === true, {
      what: 'a worker to watch the mailbox',
      timeoutMs: 60_000,
    });

    // A forgery first (issue 33): unsigned, with a fake Authentication-Results. The owning worker
    // records it as unverified and the account stays ok.
    const forged = {
      ...alertMail('netflix', 'passwordChanged', mailbox.email, 'en'),
      subject: 'Your password has been changed (forged)',
      signAs: false as const,
    };
    await dovecot.deliver(mailbox.email, {
      ...forged,
      headers: ['Authentication-Results: mx.evil.example; dkim=none; spf=fail; dmarc=fail (p=REJECT) header.from=netflix.com'],
    });
    const unverified = await waitFor(async () => knex()('account_alert_mail').where({ platform_account_id: account.id, subject: forged.subject }).first(), {
      what: 'the forgery recorded',
      timeoutMs: 30_000,
    });
    expect(unverified).to.include({ authentication: 'noSignature', action: 'unverified' });
    expect((await knex()('platform_accounts').where({ id: account.id }).first('health')).health).to.equal('ok');

    // The platform's own mail, signed by netflix.com.
    await dovecot.deliver(mailbox.email, alertMail('netflix', 'passwordChanged', mailbox.email, 'en'));
    await waitFor(async () => (await knex()('platform_accounts').where({ id: account.id }).first('health')).health === 'broken', {
      what: 'the account broken',
      timeoutMs: 5_000,
      intervalMs: 25,
    });
    const moved = await waitFor(async () => knex()('subscriptions').where({ replaced_from_id: subscriptionId }).first(), {
      what: 'the move',
      timeoutMs: 30_000,
    });
    expect(moved.platform_account_id).to.equal(spare.id);

    // The move job again, four times, to both workers: nothing more happens.
    for (let i = 0; i < 4; i += 1) await harness().boss.send('account-health-move', { accountId: account.id });
    await waitFor(async () => (await jobsIn(['account-health-move'], UNFINISHED_JOB_STATES)) === 0, {
      what: 'the repeated move jobs to finish',
      timeoutMs: 30_000,
    });
    await harness().mailTo(buyer.email, (mail) => mail.subject.includes('moved'));
    await harness().mailTo(staffAlert, (mail) => mail.subject.includes(mailbox.email));

    expect(await knex()('subscriptions').where({ replaced_from_id: subscriptionId }).count('* as n').first()).to.deep.equal({ n: 1 });
    expect(await knex()('account_alert_mail').where({ platform_account_id: account.id, authentication: 'verified' }).count('* as n').first()).to.deep.equal({
      n: 1,
    });
    expect(await knex()('account_alert_mail').where({ platform_account_id: account.id }).count('* as n').first()).to.deep.equal({ n: 2 });
    expect(
      await knex()('audit_log')
        .where({ action: 'account.health', target_id: String(account.id) })
        .count('* as n')
        .first(),
    ).to.deep.equal({ n: 1 });
    expect(
      await knex()('audit_log')
        .where({ action: 'subscription.replace', target_id: String(subscriptionId) })
        .count('* as n')
        .first(),
    ).to.deep.equal({ n: 1 });
    expect(
      await knex()('email_outbox')
        .where({ idempotency_key: `subscription:${subscriptionId}:replaced` })
        .count('* as n')
        .first(),
    ).to.deep.equal({ n: 1 });
    expect(await knex()('email_outbox').where({ to_address: staffAlert }).count('* as n').first()).to.deep.equal({ n: 1 });
    expect(
      harness()
        .smtp.messagesTo(buyer.email)
        .filter((mail) => mail.subject.includes('moved')),
    ).to.have.length(1);
  });
});
