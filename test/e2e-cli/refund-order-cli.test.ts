import { expect } from 'chai';
import { api, loginAs, type TestUser } from '../support/agent.js';
import { runCli, type CliResult } from '../support/cli.js';
import { harness, testEnv, useWorker } from '../support/harness.js';
import { createAccount, createPlatform, type TestPlatform } from '../support/shop.js';
import { waitFor } from '../support/wait.js';

useWorker();

const HOUR_MS = 3_600_000;

/**
 * `subshare refund-order`: the API's staff refund from a shell, against the test run's database,
 * through the demo provider, under the default policy (5 % fee, 24 hours). It prints the quote,
 * then what went back; a refusal is one line on standard error and exit code 1.
 */
describe('subshare CLI: refund-order', function () {
  this.timeout(120_000);
  const knex = () => harness().knex;
  const orderRow = (id: number) => knex()('orders').where({ id }).first();
  /** With SMTP_URL its e-mails are pending rows that the test worker delivers. */
  const cli = (...args: string[]) =>
    runCli(args, testEnv(harness().db.url, { CREDENTIALS_KEY: harness().config.credentialsKey.toString('base64'), SMTP_URL: harness().smtp.url }));
  const failsWith = (result: CliResult, line: string | RegExp) => {
    expect(result.code, result.stdout + result.stderr).to.equal(1);
    if (typeof line === 'string') expect(result.stderr.trim()).to.equal(line);
    else expect(result.stderr.trim()).to.match(line);
  };
  const refundAudits = (orderId: number) => knex()('audit_log').where({ action: 'order.refund', target_id: String(orderId) });

  /** Paid as a buyer pays with the demo provider (its checkout page posts the signed "paid"), then activated by the worker. */
  async function activeOrder(platform: TestPlatform, currency: 'EUR' | 'KRW' = 'EUR'): Promise<{ buyer: TestUser; orderId: number }> {
    const buyer = await loginAs('user');
    const { body: order } = await api()
      .post('/api/order/insert')
      .set(buyer.auth)
      .send({ platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId, currency })
      .expect(200);
    const { body } = await api().post('/api/payment/createcheckoutsession').set(buyer.auth).send({ orderId: order.id }).expect(200);
    const token = decodeURIComponent(new URL(body.url).pathname.split('/').pop()!);
    await api().post('/api/webhook/demo').type('form').send({ token, outcome: 'paid' }).expect(303);
    await waitFor(async () => (await orderRow(order.id)).state === 2, { what: `order ${order.id} completed` });
    return { buyer, orderId: order.id as number };
  }

  it('--help explains the command and its options', async () => {
    expect((await runCli(['--help'])).stdout).to.match(/\n\s+refund-order\b/);
    expect((await runCli(['refund-order', '--help'])).stdout)
      .to.contain('Usage: subshare refund-order [options] <id>')
      .and.contain('--reason <text>')
      .and.contain('--override-window')
      .and.contain('--manual-reference <ref>')
      .and.contain('Audited as "cli"');
  });

  it('refunds a demo-paid order: quote first, then the refund; state 5, access ended, the buyer e-mailed, audited as "cli"', async () => {
    const platform = await createPlatform({ slotsCount: 2 });
    await createAccount(platform.id, 2);
    const { buyer, orderId } = await activeOrder(platform, 'KRW');

    const result = await cli('refund-order', String(orderId), '--reason', 'asked on the phone');
    expect(result.stderr).to.equal('');
    expect(result.code).to.equal(0);
    const lines = result.stdout.trim().split('\n');
    // ₩6900 paid; 5 % is ₩345.
    expect(lines[0]).to.match(new RegExp(`^Order ${orderId} \\(state 2, completed\\), paid \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC through demo:$`));
    expect(lines[1]).to.equal('  paid 6900 KRW, fee 345 KRW, refund 6555 KRW');
    expect(lines[2]).to.match(/^ {2}window: 24 hours after payment, until \d{4}-\d\d-\d\d \d\d:\d\d UTC: open$/);
    const refund = await knex()('refunds').where({ order_id: orderId }).first();
    expect(refund).to.include({
      source: 'staff',
      status: 'succeeded',
      amount_minor: 6555,
      fee_minor: 345,
      currency: 'KRW',
      actor_label: 'cli',
      override_window: false,
    });
    expect(lines[3]).to.equal(
      `Refunded 6555 KRW (fee 345 KRW) of order ${orderId} through demo: refund ${refund.id}, provider reference demo-refund-${refund.id}.`,
    );
    expect(lines[4]).to.equal(`Order ${orderId} is now in state 5 (refunded); its access has ended.`);
    expect(lines).to.have.length(5);

    expect((await orderRow(orderId)).state).to.equal(5);
    expect((await knex()('subscriptions').where({ user_id: buyer.id }).first()).status).to.equal('refunded');
    const [audit, ...more] = await refundAudits(orderId);
    expect(more).to.deep.equal([]);
    expect(audit).to.include({ actor_label: 'cli', actor_user_id: null, target_type: 'order' });
    expect(audit.details).to.include({
      refundMinor: 6555,
      feeMinor: 345,
      paidMinor: 6900,
      currency: 'KRW',
      overrideWindow: false,
      reason: 'asked on the phone',
    });
    const mail = await harness().mailTo(buyer.email, (m) => m.subject.includes('refunded'));
    expect(mail.subject).to.equal(`Your order #${orderId} has been refunded`);

    // Again: already refunded, nothing changes.
    const again = await cli('refund-order', String(orderId), '--reason', 'asked on the phone');
    failsWith(again, 'This order has already been refunded.');
    expect(again.stdout).to.contain(`Order ${orderId} (state 5, refunded)`);
    expect(await knex()('refunds').where({ order_id: orderId })).to.have.length(1);
  });

  it('past the window it refuses without --override-window and changes nothing; with it, refunds and audits the override', async () => {
    const platform = await createPlatform({ slotsCount: 2 });
    await createAccount(platform.id, 2);
    const { orderId } = await activeOrder(platform);
    const paidAt = new Date(Date.now() - 30 * HOUR_MS);
    await knex()('orders').where({ id: orderId }).update({ paid_at: paidAt });
    const closedAt = new Date(paidAt.getTime() + 24 * HOUR_MS);

    const refused = await cli('refund-order', String(orderId), '--reason', 'asked too late');
    failsWith(refused, `The refund window (24 hours after payment) closed on ${closedAt.toISOString()}; refunding now needs an override.`);
    expect(refused.stdout).to.contain('  paid 4.99 EUR, fee 0.25 EUR, refund 4.74 EUR').and.contain(': closed, needs --override-window');
    expect((await orderRow(orderId)).state).to.equal(2);
    expect(await knex()('refunds').where({ order_id: orderId })).to.deep.equal([]);
    expect(await refundAudits(orderId)).to.deep.equal([]);

    const overridden = await cli('refund-order', String(orderId), '--reason', 'goodwill, asked too late', '--override-window');
    expect(overridden.stderr).to.equal('');
    expect(overridden.code).to.equal(0);
    expect(overridden.stdout).to.contain(`Refunded 4.74 EUR (fee 0.25 EUR) of order ${orderId} through demo: refund `).and.contain(', window overridden.');
    expect((await orderRow(orderId)).state).to.equal(5);
    const [audit] = await refundAudits(orderId);
    expect(audit).to.include({ actor_label: 'cli', actor_user_id: null });
    expect(audit.details).to.include({ overrideWindow: true, windowEndsAt: closedAt.toISOString(), reason: 'goodwill, asked too late' });
  });

  it('fails with one line before touching anything: bad id, unknown order, a reason too short or missing, an unpaid order', async () => {
    failsWith(await cli('refund-order', 'abc', '--reason', 'whatever'), 'The order id must be a positive whole number (got "abc").');
    failsWith(await cli('refund-order', '12', '--reason', 'no'), 'Some fields are missing or invalid. (reason must be at least 3 characters)');
    failsWith(await cli('refund-order', '12'), /required option '--reason <text>' not specified/);
    failsWith(await cli('refund-order', '2000000000', '--reason', 'whatever'), 'This order does not exist.');

    const platform = await createPlatform();
    const buyer = await loginAs('user');
    const { body: order } = await api()
      .post('/api/order/insert')
      .set(buyer.auth)
      .send({ platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId })
      .expect(200);
    const unpaid = await cli('refund-order', String(order.id), '--reason', 'whatever');
    failsWith(unpaid, 'This order has not been paid: there is nothing to refund.');
    expect(unpaid.stdout).to.contain('window: 24 hours after payment (not paid)');
    expect((await orderRow(order.id)).state).to.equal(0);
  });
});
