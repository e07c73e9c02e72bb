import { expect } from 'chai';
import type { Express } from 'express';
import { api, loginAs, type TestUser } from '../support/agent.js';
import { harness, useWorker } from '../support/harness.js';
import { CatalogService } from '@subshare/core';
import { createAccount, createPlatform as createSharedPlatform, type TestPlatform } from '../support/shop.js';
import { waitFor } from '../support/wait.js';

useWorker();

const QUOTE = '/api/order/refundquote';
const REFUND = '/api/order/refund';
const PANEL = '/api/user/getuserpanel';
const HOUR = 3_600_000;

/**
 * Staff refunds under the refund policy, through the demo provider (the provider-side refunds,
 * disputes and chargebacks against local Stripe and Payssion servers are in
 * refunds-providers.test.ts): fee arithmetic in EUR and KRW, the window and its override, a
 * refund that cannot happen twice, access ending with the money, the freed slot going to the
 * buyer who waited, and a refunded renewal taking back only its own month.
 */
describe('staff refunds (POST /api/order/refund, GET /api/order/refundquote)', function () {
  this.timeout(60_000);
  const knex = () => harness().knex;
  const orderRow = (id: number) => knex()('orders').where({ id }).first();
  let app: Express;
  let catalog: CatalogService;
  let admin: TestUser;
  let moderator: TestUser;

  before(async () => {
    // The policy under test: 7.5 % plus €0.30 or ₩500, within 24 hours.
    const world = harness().appWith({ REFUND_FEE_PERCENT: '7.5', REFUND_FEE_EUR: '0.30', REFUND_FEE_KRW: '500', REFUND_WINDOW_HOURS: '24' });
    app = world.app;
    catalog = world.container.get(CatalogService);
    [admin, moderator] = await Promise.all([loginAs('admin', { app }), loginAs('moderator', { app })]);
  });

  /** A platform of the test's own, known at once to this file's app (its catalog is cached). */
  async function createPlatform(options: Parameters<typeof createSharedPlatform>[0]): Promise<TestPlatform> {
    const platform = await createSharedPlatform(options);
    catalog.invalidate();
    return platform;
  }

  async function placeOrder(buyer: TestUser, platform: TestPlatform, currency: 'EUR' | 'KRW' = 'EUR'): Promise<number> {
    const { body } = await api(app)
      .post('/api/order/insert')
      .set(buyer.auth)
      .send({ platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId, languageId: 1, currency })
      .expect(200);
    return body.id;
  }

  /** Paid as a buyer pays with the demo provider: its checkout page posts the signed "paid". */
  async function pay(buyer: TestUser, orderId: number): Promise<void> {
    const { body } = await api(app).post('/api/payment/createcheckoutsession').set(buyer.auth).send({ orderId }).expect(200);
    const token = decodeURIComponent(new URL(body.url).pathname.split('/').pop()!);
    await api(app).post('/api/webhook/demo').type('form').send({ token, outcome: 'paid' }).expect(303);
  }

  async function stateIs(orderId: number, state: number): Promise<void> {
    await waitFor(async () => (await orderRow(orderId)).state === state, { what: `order ${orderId} in state ${state}` });
  }

  async function activeBuyer(platform: TestPlatform, currency: 'EUR' | 'KRW' = 'EUR'): Promise<{ buyer: TestUser; orderId: number }> {
    const buyer = await loginAs('user', { app });
    const orderId = await placeOrder(buyer, platform, currency);
    await pay(buyer, orderId);
    await stateIs(orderId, 2);
    return { buyer, orderId };
  }

  const refund = (orderId: number, body: Record<string, unknown> = {}, who: TestUser = admin) =>
    api(app)
      .post(REFUND)
      .set(who.auth)
      .send({ orderId, reason: 'asked within a day', ...body });

  it('gives back the amount paid less the fee, ends access at once, frees the slot for the buyer who waited, and tells the buyer', async () => {
    const platform = await createPlatform({ slotsCount: 1 });
    await createAccount(platform.id, 1);
    const { buyer, orderId } = await activeBuyer(platform);
    // A second buyer pays while the only slot is taken: waiting (state 6).
    const waiting = await loginAs('user', { app });
    const waitingOrder = await placeOrder(waiting, platform);
    await pay(waiting, waitingOrder);
    await waitFor(
      async () =>
        (await knex()('email_outbox')
          .where({ idempotency_key: `order:${waitingOrder}:purchased` })
          .first()) !== undefined,
      {
        what: 'the waiting e-mail',
      },
    );
    expect((await orderRow(waitingOrder)).state).to.equal(6);

    const quote = (await api(app).get(QUOTE).set(admin.auth).query({ orderId }).expect(200)).body;
    // €4.99 paid: 7.5 % is 37.425 cents, rounded half up to 37, plus 30 cents.
    expect(quote).to.include({ orderId, state: 2, refundable: true, reason: null, provider: 'demo', manual: false, currencyCode: 'EUR' });
    expect(quote).to.include({ paid: 4.99, fee: 0.67, refund: 4.32, feePercent: 7.5, feeFixed: 0.3, windowHours: 24, insideWindow: true });
    expect(new Date(quote.windowEndsDate).getTime() - new Date(quote.paidDate).getTime()).to.equal(24 * HOUR);
    expect(quote.refunds).to.deep.equal([]);

    const { body } = await refund(orderId).expect(200);
    expect(body).to.include({ orderId, state: 5 });
    expect(body.refund).to.include({
      source: 'staff',
      status: 'succeeded',
      provider: 'demo',
      currencyCode: 'EUR',
      amount: 4.32,
      fee: 0.67,
      overrideWindow: false,
    });
    expect(body.refund.providerRefundId).to.match(/^demo-refund-/);

    // Access ended: no credentials, the order shown refunded, the subscription's slot free.
    const panel = (await api(app).get(PANEL).set(buyer.auth).query({ id: buyer.id, languageId: 1 }).expect(200)).body;
    expect(panel.subscribers).to.deep.equal([]);
    expect(panel.subscribersRefunded.map((item: { orderId: number }) => item.orderId)).to.deep.equal([orderId]);
    expect(panel.subscribersRefunded[0]).to.include({ email: null, password: null });
    const subscription = await knex()('subscriptions').where({ user_id: buyer.id }).first();
    expect(subscription.status).to.equal('refunded');
    // The freed slot goes to the buyer who waited.
    await stateIs(waitingOrder, 2);
    const [{ n }] = await knex()('subscriptions').where({ user_id: waiting.id, status: 'active' }).count<Array<{ n: number }>>('id as n');
    expect(Number(n)).to.equal(1);

    const mail = await harness().mailTo(buyer.email, (m) => m.subject.includes('refunded'));
    expect(mail.subject).to.equal(`Your order #${orderId} has been refunded`);
    expect(mail.text).to.contain('€4.32');
    const audit = await knex()('audit_log')
      .where({ action: 'order.refund', target_id: String(orderId) })
      .first();
    expect(audit.actor_user_id).to.equal(admin.id);
    expect(audit.details).to.include({ refundMinor: 432, feeMinor: 67, paidMinor: 499, currency: 'EUR', overrideWindow: false, reason: 'asked within a day' });

    // Nothing twice: the order is refunded.
    const again = await refund(orderId).expect(409);
    expect(again.body.code).to.equal('order_not_refundable');
    const [{ n: refunds }] = await knex()('refunds').where({ order_id: orderId }).count<Array<{ n: number }>>('id as n');
    expect(Number(refunds)).to.equal(1);
  });

  it('computes the fee in whole won for a KRW order', async () => {
    const platform = await createPlatform({ slotsCount: 2 });
    await createAccount(platform.id, 2);
    const { orderId } = await activeBuyer(platform, 'KRW');
    const quote = (await api(app).get(QUOTE).set(admin.auth).query({ orderId }).expect(200)).body;
    // ₩6,900 paid: 7.5 % is ₩517.5, rounded half up to ₩518, plus ₩500.
    expect(quote).to.include({ currencyCode: 'KRW', paid: 6900, fee: 1018, refund: 5882, feeFixed: 500 });
    const { body } = await refund(orderId).expect(200);
    expect(body.refund).to.include({ currencyCode: 'KRW', amount: 5882, fee: 1018 });
    const row = await knex()('refunds').where({ order_id: orderId }).first();
    expect(Number(row.amount_minor)).to.equal(5882);
  });

  it('double clicks and two admins at once refund once', async () => {
    const platform = await createPlatform({ slotsCount: 2 });
    await createAccount(platform.id, 2);
    const { buyer, orderId } = await activeBuyer(platform);
    const other = await loginAs('admin', { app });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => refund(orderId, {}, i % 2 ? other : admin)));
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses.filter((status) => status === 200)).to.have.length(1);
    expect(statuses.filter((status) => status === 409)).to.have.length(7);
    for (const res of answers.filter((candidate) => candidate.status === 409)) {
      expect(res.body.code).to.be.oneOf(['refund_in_progress', 'order_not_refundable']);
    }
    const rows = await knex()('refunds').where({ order_id: orderId });
    expect(rows.map((row) => row.status)).to.deep.equal(['succeeded']);
    await harness().mailTo(buyer.email, (m) => m.subject.includes('refunded'));
    const [{ n }] = await knex()('email_outbox')
      .where({ idempotency_key: `order:${orderId}:refunded` })
      .count<Array<{ n: number }>>('id as n');
    expect(Number(n)).to.equal(1);
  });

  it('takes back only a refunded renewal’s own month from the same subscription', async () => {
    const platform = await createPlatform({ slotsCount: 2 });
    await createAccount(platform.id, 2);
    const { buyer, orderId: first } = await activeBuyer(platform);
    const before = await knex()('subscriptions').where({ user_id: buyer.id }).first();
    const renewal = await placeOrder(buyer, platform);
    await pay(buyer, renewal);
    await stateIs(renewal, 2);
    const extended = await knex()('subscriptions').where({ id: before.id }).first();
    expect(extended.ends_at.getTime()).to.be.greaterThan(before.ends_at.getTime());

    await refund(renewal).expect(200);
    const after = await knex()('subscriptions').where({ id: before.id }).first();
    expect(after.status).to.equal('active');
    expect(after.ends_at.getTime()).to.equal(before.ends_at.getTime());
    const panel = (await api(app).get(PANEL).set(buyer.auth).query({ id: buyer.id, languageId: 1 }).expect(200)).body;
    expect(panel.subscribers.map((item: { subscribeId: number }) => item.subscribeId)).to.deep.equal([before.id]);
    expect(panel.subscribers[0].password).to.be.a('string');
    expect(panel.subscribersRefunded.map((item: { orderId: number }) => item.orderId)).to.deep.equal([renewal]);

    // The first order refunded too: nothing is left, the subscription ends.
    await refund(first).expect(200);
    expect((await knex()('subscriptions').where({ id: before.id }).first()).status).to.equal('refunded');
  });

  it('is for admins only, and refuses what is not a refund with a clear answer', async () => {
    const platform = await createPlatform({ slotsCount: 2 });
    await createAccount(platform.id, 2);
    const { buyer, orderId } = await activeBuyer(platform);
    expect((await refund(orderId, {}, moderator).expect(403)).body.code).to.equal('forbidden');
    await refund(orderId, {}, buyer).expect(403);
    await api(app).get(QUOTE).set(moderator.auth).query({ orderId }).expect(403);
    await api(app).post(REFUND).send({ orderId, reason: 'no login' }).expect(401);

    const invalid = await api(app).post(REFUND).set(admin.auth).send({ orderId: 'one', reason: 1, overrideWindow: 'maybe' }).expect(400);
    expect(invalid.body.errors).to.include.keys('orderId', 'overrideWindow');
    expect((await api(app).post(REFUND).set(admin.auth).send({ orderId }).expect(400)).body.errors).to.have.key('reason');
    const manual = await refund(orderId, { manualReference: 'tx-123' }).expect(400);
    expect(manual.body.errors).to.have.key('manualReference');
    await refund(2_000_000_000).expect(404);
    const unpaid = await placeOrder(buyer, platform);
    expect((await refund(unpaid).expect(409)).body.code).to.equal('order_not_refundable');
    const unpaidQuote = (await api(app).get(QUOTE).set(admin.auth).query({ orderId: unpaid }).expect(200)).body;
    expect(unpaidQuote).to.include({ refundable: false, reason: 'order_not_paid' });
    // Nothing of the above changed the paid order.
    expect((await orderRow(orderId)).state).to.equal(2);
    expect(await knex()('refunds').where({ order_id: orderId })).to.deep.equal([]);
  });

  it('past the window needs an explicit override, which the audit log records', async () => {
    const platform = await createPlatform({ slotsCount: 2 });
    await createAccount(platform.id, 2);
    const { orderId } = await activeBuyer(platform);
    harness().clock.advance(25 * HOUR);
    const quote = (await api(app).get(QUOTE).set(admin.auth).query({ orderId }).expect(200)).body;
    expect(quote).to.include({ insideWindow: false, refundable: true });
    const refused = await refund(orderId).expect(409);
    expect(refused.body.code).to.equal('refund_window_passed');
    expect((await orderRow(orderId)).state).to.equal(2);

    const { body } = await refund(orderId, { overrideWindow: true, reason: 'goodwill after the window' }).expect(200);
    expect(body.refund).to.include({ overrideWindow: true, amount: 4.32 });
    const audit = await knex()('audit_log')
      .where({ action: 'order.refund', target_id: String(orderId) })
      .first();
    expect(audit.details).to.include({ overrideWindow: true, reason: 'goodwill after the window' });
  });
});
