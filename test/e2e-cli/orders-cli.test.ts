import { expect } from 'chai';
import { EMAIL_KIND } from '../../packages/core/src/wire/email-kinds.js';
import { createUser } from '../support/agent.js';
import { exited, runCli, spawnCli, type CliResult } from '../support/cli.js';
import { harness, testEnv, useWorker } from '../support/harness.js';
import { freePort } from '../support/ports.js';
import { waitFor } from '../support/wait.js';
import { activation, buyer, createAccount, createOrder, createPlatform, markPaidQuietly, platformJobsSettled, type TestPlatform } from '../support/shop.js';

useWorker();

/**
 * The operator's order commands against the test run's database: activate-order, list-orders,
 * replace-subscription and send-email call the same core services as the API, print what an
 * operator needs, and fail with one line and exit code 1.
 */
describe('subshare CLI: orders, subscriptions and e-mails', function () {
  this.timeout(120_000);
  const knex = () => harness().knex;
  /** The CLI on the test database; with SMTP_URL its e-mails are pending rows that the test worker delivers. */
  const env = () => testEnv(harness().db.url, { CREDENTIALS_KEY: harness().config.credentialsKey.toString('base64'), SMTP_URL: harness().smtp.url });
  const cli = (...args: string[]) => runCli(args, env());
  const failsWith = (result: CliResult, line: string) => {
    expect(result.code, result.stdout).to.equal(1);
    expect(result.stderr.trim()).to.equal(line);
    expect(result.stdout).to.equal('');
  };
  const auditOf = (action: string, targetId: number) => knex()('audit_log').where({ action, target_id: String(targetId) });

  /** A paid order on a family-invitation platform: it waits for staff, whatever the worker does meanwhile. */
  async function waitingOrder(platform: TestPlatform): Promise<number> {
    const orderId = await createOrder(await buyer(), platform);
    await markPaidQuietly(orderId);
    return orderId;
  }

  it('--help lists the four commands, and each explains itself', async () => {
    const help = await runCli(['--help']);
    for (const command of ['activate-order', 'list-orders', 'replace-subscription', 'send-email'])
      expect(help.stdout).to.match(new RegExp(`\\n\\s+${command}\\b`));
    expect((await runCli(['activate-order', '--help'])).stdout)
      .to.contain('Usage: subshare activate-order [options] <id>')
      .and.contain('audited as "cli"');
    expect((await runCli(['list-orders', '--help'])).stdout)
      .to.contain('--state <n>')
      .and.contain('--page <n>')
      .and.contain('--limit <n>');
    expect((await runCli(['replace-subscription', '--help'])).stdout)
      .to.contain('<subscriptionId>')
      .and.contain('--order <id>');
    expect((await runCli(['send-email', '--help'])).stdout)
      .to.contain('--user <id>')
      .and.contain('--type <kind>')
      .and.contain('9  subscriptionReplaced');
  });

  describe('activate-order', () => {
    it('activates a waiting order: order 2, a subscription, the buyer e-mailed, audited as "cli"', async () => {
      const platform = await createPlatform({ slotsCount: 3, needsInvitation: true });
      const account = await createAccount(platform.id, 3);
      const orderId = await waitingOrder(platform);

      const result = await cli('activate-order', String(orderId));
      expect(result.stderr).to.equal('');
      expect(result.code).to.equal(0);
      const [item] = await knex()('order_items').where({ order_id: orderId });
      const subscription = await knex()('subscriptions').where({ id: item.subscription_id }).first();
      expect(subscription).to.include({ platform_account_id: account.id, slot: 1, status: 'active' });
      expect(result.stdout)
        .to.contain(`Activated order ${orderId} (now state 2):`)
        .and.contain(`subscription ${subscription.id}: account ${account.id}, profile 1 of 3, `);
      expect((await knex()('orders').where({ id: orderId }).first()).state).to.equal(2);
      expect(await knex()('email_outbox').where({ idempotency_key: `order:${orderId}:activated` })).to.have.length(1);
      const [audit] = await auditOf('order.activate', orderId);
      expect(audit).to.include({ actor_label: 'cli', actor_user_id: null });
      const order = await knex()('orders').where({ id: orderId }).first();
      await harness().mailTo(order.email, (mail) => mail.subject.includes(`#${orderId}`));
    });

    it('fails with one line and changes nothing: bad id, unknown order, an order not waiting, no free slot', async () => {
      failsWith(await cli('activate-order', 'abc'), 'The order id must be a positive whole number (got "abc").');
      failsWith(await cli('activate-order', '2000000000'), 'This order does not exist.');

      const platform = await createPlatform({ slotsCount: 1, needsInvitation: true });
      const unpaid = await createOrder(await buyer(), platform);
      failsWith(await cli('activate-order', String(unpaid)), 'This order is not waiting for activation (state 0).');

      const full = await waitingOrder(platform); // the platform has no account yet
      failsWith(await cli('activate-order', String(full)), 'No slot is free on this platform for the whole period; add an account first.');
      expect((await knex()('orders').where({ id: full }).first()).state).to.equal(6);
      expect(await auditOf('order.activate', full)).to.have.length(0);
    });
  });

  describe('list-orders', () => {
    it('shows a page of the orders in a state, newest first, with what an operator needs', async () => {
      const platform = await createPlatform();
      const user = await buyer();
      const older = await createOrder(user, platform);
      // While the first is open (state 0), the same choice again is that order (a reload of /payment).
      await knex()('orders').where({ id: older }).update({ state: 3, payment_method: 1 });
      const newer = await createOrder(user, platform);
      await knex()('orders').where({ id: newer }).update({ state: 3, payment_method: 1 });
      const [{ n }] = await knex()('orders').where({ state: 3 }).count<Array<{ n: string }>>('id as n');
      const count = Number(n);

      const result = await cli('list-orders', '--state', '3', '--limit', '2');
      expect(result.stderr).to.equal('');
      expect(result.code).to.equal(0);
      const lines = result.stdout.trim().split('\n');
      expect(lines[0]).to.equal(`Orders in state 3 (payment failed): ${count} in all, page 1 of ${Math.ceil(count / 2)} (2 a page).`);
      expect(lines[1].split(/\s{2,}/)).to.deep.equal(['ID', 'E-MAIL', 'PLATFORM', 'TYPE', 'DURATION', 'TOTAL', 'PAYMENT', 'CREATED', 'PAID', 'COMPLETED']);
      expect(lines).to.have.length(4);
      const [first, second] = lines.slice(2).map((line) => line.split(/\s{2,}/));
      expect(first[0]).to.equal(String(newer));
      expect(second[0]).to.equal(String(older));
      expect(first.slice(1, 7)).to.deep.equal([user.email, platform.name, 'Standard', '1 Month', '4.99 EUR', 'card']);
      expect(first[7]).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
      expect(first.slice(8)).to.deep.equal(['-', '-']);

      const next = await cli('list-orders', '--state', '3', '--limit', '1', '--page', '2');
      expect(
        next.stdout
          .trim()
          .split('\n')[2]
          .split(/\s{2,}/)[0],
      ).to.equal(String(older));
      const past = await cli('list-orders', '--state', '3', '--page', '100000');
      expect(past.stdout.trim()).to.equal(`Orders in state 3 (payment failed): ${count} in all; page 100000 is past the last page (${Math.ceil(count / 20)}).`);
    });

    it('refuses a bad state, page or limit with one line', async () => {
      failsWith(
        await cli('list-orders', '--state', '7'),
        '--state must be an order state: 0 created, 1 awaiting payment, 2 completed, 3 payment failed, 4 expired unpaid, 5 refunded, 6 paid, waiting for activation (got "7").',
      );
      failsWith(await cli('list-orders', '--state', '2', '--page', '0'), '--page must be a positive whole number (got "0").');
      failsWith(await cli('list-orders', '--state', '2', '--limit', '101'), 'Some fields are missing or invalid. (limit must be 1 to 100)');
      const missing = await cli('list-orders');
      expect(missing.code).to.equal(1);
      expect(missing.stderr).to.contain("required option '--state <n>' not specified");
    });
  });

  describe('replace-subscription', () => {
    /** A paid order of the platform, activated by the test (the platform's capacity jobs done first). */
    async function activeSubscription(platform: TestPlatform) {
      await platformJobsSettled(platform.id);
      const orderId = await createOrder(await buyer(), platform);
      await markPaidQuietly(orderId);
      const [slot] = (await activation().activate(orderId)).subscriptions;
      return { orderId, subscriptionId: slot.subscriptionId, accountId: slot.platformAccountId };
    }

    it('moves a subscription to another account (its order looked up), keeps the end date, frees the old slot, e-mails, audits', async () => {
      const platform = await createPlatform({ slotsCount: 2 });
      await createAccount(platform.id, 2);
      const old = await activeSubscription(platform);
      const spare = await createAccount(platform.id, 2);
      const before = await knex()('subscriptions').where({ id: old.subscriptionId }).first();

      const result = await cli('replace-subscription', String(old.subscriptionId));
      expect(result.stderr).to.equal('');
      expect(result.code).to.equal(0);
      const created = await knex()('subscriptions').where({ replaced_from_id: old.subscriptionId }).first();
      expect(created).to.include({ platform_account_id: spare.id, status: 'active', user_id: before.user_id });
      expect(created.ends_at.getTime()).to.equal(before.ends_at.getTime());
      expect((await knex()('subscriptions').where({ id: old.subscriptionId }).first()).status).to.equal('replaced');
      expect(result.stdout.trim()).to.equal(
        `Replaced subscription ${old.subscriptionId} (account ${old.accountId}) of order ${old.orderId} with subscription ${created.id}: ` +
          `account ${spare.id}, profile ${created.slot} of 2, until ${created.ends_at.toISOString().slice(0, 16).replace('T', ' ')} UTC. The buyer is e-mailed.`,
      );
      expect(await knex()('email_outbox').where({ idempotency_key: `subscription:${old.subscriptionId}:replaced` })).to.have.length(1);
      expect(await auditOf('subscription.replace', old.subscriptionId))
        .to.have.length(1)
        .and.satisfy((rows: Array<{ actor_label: string }>) => rows[0].actor_label === 'cli');

      // The old one is no longer active: a second run changes nothing.
      failsWith(await cli('replace-subscription', String(old.subscriptionId), '--order', String(old.orderId)), 'This subscription is not active.');
    });

    it('fails with one line: bad id, unknown subscription, wrong order, no other account with a free slot', async () => {
      failsWith(await cli('replace-subscription', '0'), 'The subscription id must be a positive whole number (got "0").');
      failsWith(await cli('replace-subscription', '2000000000'), 'This subscription does not exist.');
      const platform = await createPlatform({ slotsCount: 1 });
      await createAccount(platform.id, 1);
      const only = await activeSubscription(platform);
      const otherOrder = await createOrder(await buyer(), platform);
      failsWith(
        await cli('replace-subscription', String(only.subscriptionId), '--order', String(otherOrder)),
        'This subscription does not belong to this order. (is not a subscription of this order)',
      );
      failsWith(await cli('replace-subscription', String(only.subscriptionId)), 'No other account of this platform has a free slot until the end date.');
      expect((await knex()('subscriptions').where({ id: only.subscriptionId }).first()).status).to.equal('active');
    });
  });

  describe('send-email', () => {
    it('queues the e-mail in the user’s language, delivered once; a repeat within the minute sends nothing new', async () => {
      const user = await createUser({ languageId: 2 });
      const result = await cli('send-email', '--user', String(user.id), '--type', 'welcome');
      expect(result.stderr).to.equal('');
      expect(result.code).to.equal(0);
      const [row] = await knex()('email_outbox').where({ user_id: user.id });
      expect(row).to.include({ kind: 0, language_id: 2, to_address: user.email });
      expect(result.stdout.trim()).to.equal(`Queued e-mail ${row.id} (0 welcome, Korean) to ${user.email}; the worker delivers it.`);
      const mail = await harness().mailTo(user.email);
      expect(mail.subject).to.contain('환영합니다');

      const again = await cli('send-email', '--user', String(user.id), '--type', '0');
      expect(again.code).to.equal(0);
      expect(again.stdout.trim()).to.equal(
        `Already queued within the last minute: e-mail ${row.id} (0 welcome, Korean) to ${user.email}. Nothing new was sent.`,
      );
      expect(await knex()('email_outbox').where({ user_id: user.id })).to.have.length(1);
      const audit = await auditOf('email.send', user.id);
      expect(audit).to.have.length(1);
      expect(audit[0]).to.include({ actor_label: 'cli', actor_user_id: null });
      expect(audit[0].details).to.deep.equal({ userId: user.id, kind: 0, kindName: 'welcome', outboxId: row.id });
    });

    it('links to the address of the shop serving the same DATA_DIR, not port 3000, when its own environment names none', async () => {
      const shared = env(); // one DATA_DIR for the shop and the command
      const port = await freePort();
      // The shop, started without PUBLIC_URL on another port: it links to http://127.0.0.1:<port>.
      const shop = spawnCli(['serve'], { ...shared, PORT: String(port), LOG_LEVEL: 'info' });
      try {
        await waitFor(() => shop.output().includes('HTTP server listening'), { timeoutMs: 60_000, intervalMs: 100, what: `serve on ${port}` });
        const user = await createUser({ languageId: 1 });
        // The command beside it knows neither that PORT nor a PUBLIC_URL (testEnv's PORT is 3000).
        const result = await runCli(['send-email', '--user', String(user.id), '--type', 'welcome'], shared);
        expect(result.code, result.stderr).to.equal(0);
        const mail = await harness().mailTo(user.email);
        expect(mail.text).to.contain(`http://127.0.0.1:${port}/`).and.not.contain(':3000');
        // An explicit PUBLIC_URL still wins.
        const other = await createUser({ languageId: 1 });
        const chosen = await runCli(['send-email', '--user', String(other.id), '--type', 'welcome'], { ...shared, PUBLIC_URL: 'https://shop.example.test' });
        expect(chosen.code, chosen.stderr).to.equal(0);
        expect((await harness().mailTo(other.email)).text).to.contain('https://shop.example.test/');
      } finally {
        shop.kill('SIGTERM');
        await exited(shop);
      }
    });

    it('takes a subscription kind’s data from the user’s records, and a code is never printed', async () => {
      const platform = await createPlatform({ slotsCount: 2 });
      await createAccount(platform.id, 2);
      const user = await buyer();
      const orderId = await createOrder(user, platform);
      await markPaidQuietly(orderId);
      await activation().activate(orderId);
      const result = await cli('send-email', '--user', String(user.id), '--type', 'subscribeActive');
      expect(result.code, result.stderr).to.equal(0);
      const id = Number(/Queued e-mail (\d+) \(3 subscribeActive, English\)/.exec(result.stdout)?.[1]);
      const mail = await harness().mailTo(user.email, (candidate) => candidate.messageId.startsWith(`<outbox-${id}.`));
      expect(mail.subject).to.equal(`Your ${platform.name} subscription is now active`);
      expect(mail.text).to.contain(`#${orderId}`);

      const unverified = await createUser({ verified: false });
      const code = await cli('send-email', '--user', String(unverified.id), '--type', '5');
      expect(code.code, code.stderr).to.equal(0);
      const codeMail = await harness().mailTo(unverified.email);
      const digits = /\b(\d{6})\b/.exec(codeMail.text)![1];
      expect(code.stdout).to.contain('(5 verificationCode, English)').and.not.contain(digits);
    });

    it('fails with one line and writes nothing: bad arguments, unknown user, missing data', async () => {
      const user = await createUser();
      failsWith(await cli('send-email', '--user', 'me', '--type', '0'), '--user must be a positive whole number (got "me").');
      // The kinds run from 0 to the last one declared (wire/email-kinds.ts); one past it is no kind.
      const last = Math.max(...Object.values(EMAIL_KIND));
      failsWith(
        await cli('send-email', '--user', String(user.id), '--type', 'postcard'),
        `--type must be an e-mail kind, 0 to ${last} or a name such as subscribeActive (got "postcard").`,
      );
      failsWith(
        await cli('send-email', '--user', String(user.id), '--type', String(last + 1)),
        `--type must be an e-mail kind, 0 to ${last} or a name such as subscribeActive (got "${last + 1}").`,
      );
      failsWith(await cli('send-email', '--user', '2000000000', '--type', '0'), 'This user does not exist.');
      failsWith(await cli('send-email', '--user', String(user.id), '--type', '3'), 'This user has no active subscription.');
      failsWith(await cli('send-email', '--user', String(user.id), '--type', 'verificationCode'), 'This e-mail address is already verified.');
      expect(await knex()('email_outbox').where({ user_id: user.id })).to.have.length(0);
      expect(await auditOf('email.send', user.id)).to.have.length(0);
    });
  });
});
