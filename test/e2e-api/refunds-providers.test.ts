import { expect } from 'chai';
import type { Express } from 'express';
import { CatalogService } from '@subshare/core';
import { listen } from '@subshare/http';
import { api, loginAs, type TestUser } from '../support/agent.js';
import { FakeCoinPal } from '../support/fake-coinpal.js';
import { FakePayssion } from '../support/fake-payssion.js';
import { FakeStripe } from '../support/fake-stripe.js';
import { harness, useWorker } from '../support/harness.js';
import { createAccount, createPlatform as createSharedPlatform, type TestPlatform } from '../support/shop.js';
import { waitFor } from '../support/wait.js';

useWorker();

const PANEL = '/api/user/getuserpanel';

/**
 * Money back through each provider, against local servers speaking Stripe's, Payssion's and
 * CoinPal's protocols (signatures included): a card order and a Korean-method order each refunded
 * by staff and each charged back by its provider, refunds made in the provider's dashboard, a
 * dispute won and one lost, duplicates and out-of-order deliveries, and a provider that fails.
 * After every step: the order, the slot, the panel, the e-mails.
 */
describe('refunds and chargebacks through the providers', function () {
  this.timeout(60_000);
  const stripe = new FakeStripe();
  const payssion = new FakePayssion();
  const coinpal = new FakeCoinPal({ currencies: ['EUR', 'KRW'] } as ConstructorParameters<typeof FakeCoinPal>[0]);
  const knex = () => harness().knex;
  const orderRow = (id: number) => knex()('orders').where({ id }).first();
  const refundsOf = (orderId: number) => knex()('refunds').where({ order_id: orderId }).orderBy('id');
  /** The order's money ledger: [kind, status, amount] of each row that is not the payment. */
  const ledgerOf = async (orderId: number) =>
    (await knex()('money_events').where({ order_id: orderId }).whereNot({ kind: 'payment' }).orderBy('id')).map((row) => [
      row.kind,
      row.status,
      Number(row.amount_minor),
    ]);
  const idempotencyKey = async (what: string) => `subshare-${(await knex()('installation').where({ key: 'installation_id' }).first()).value}-${what}`;
  const subscriptionOf = (orderId: number) =>
    knex()('subscriptions')
      .whereIn('order_item_id', knex()('order_items').select('id').where({ order_id: orderId }))
      .first();
  const refundedMails = async (orderId: number) =>
    Number(
      (
        await knex()('email_outbox')
          .where({ idempotency_key: `order:${orderId}:refunded` })
          .count<Array<{ n: number }>>('id as n')
      )[0].n,
    );
  let app: Express;
  let base: string;
  let catalog: CatalogService;
  let admin: TestUser;
  let platform: TestPlatform;
  const stops: Array<() => Promise<void>> = [];

  before(async () => {
    for (const fake of [stripe, payssion, coinpal]) stops.push((await fake.start()).stop);
    // The default policy: 5 %, no fixed part, 24 hours.
    const world = harness().appWith({ ...stripe.env, ...payssion.env, ...coinpal.env });
    app = world.app;
    catalog = world.container.get(CatalogService);
    const server = await listen(app, 0, '127.0.0.1');
    base = server.url;
    stops.push(server.close);
    admin = await loginAs('admin', { app });
    platform = await createSharedPlatform({ slotsCount: 10 });
    catalog.invalidate();
    await createAccount(platform.id, 10);
  });
  after(async () => {
    for (const stop of stops.reverse()) await stop();
  });

  async function placeOrder(buyer: TestUser, currency: 'EUR' | 'KRW'): Promise<number> {
    const { body } = await api(app)
      .post('/api/order/insert')
      .set(buyer.auth)
      .send({ platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId, languageId: 1, currency })
      .expect(200);
    return body.id;
  }

  async function lastPayment(orderId: number) {
    return knex()('payments').where({ order_id: orderId }).orderBy('id', 'desc').first();
  }

  async function activated(orderId: number): Promise<void> {
    await waitFor(async () => (await orderRow(orderId)).state === 2, { what: `order ${orderId} activated` });
  }

  /** A card order paid at Stripe and active: its PaymentIntent. */
  async function paidByCard(): Promise<{ buyer: TestUser; orderId: number; pi: string }> {
    const buyer = await loginAs('user', { app });
    const orderId = await placeOrder(buyer, 'EUR');
    await api(app).post('/api/payment/createcheckoutsession').set(buyer.auth).send({ orderId }).expect(200);
    const payment = await lastPayment(orderId);
    const session = stripe.pay(payment.provider_reference);
    expect((await stripe.deliver(`${base}/api/webhook/stripe`, stripe.webhook(session.id, 'checkout.session.completed'))).status).to.equal(200);
    await activated(orderId);
    expect((await lastPayment(orderId)).provider_payment_id).to.equal(session.payment_intent);
    return { buyer, orderId, pi: session.payment_intent! };
  }

  /** A KakaoPay order (KRW) paid at Payssion and active: its transaction id. */
  async function paidByKakaoPay(): Promise<{ buyer: TestUser; orderId: number; transactionId: string }> {
    const buyer = await loginAs('user', { app });
    const orderId = await placeOrder(buyer, 'KRW');
    await api(app).post('/api/payment/createcheckoutsessionpayssion').set(buyer.auth).send({ orderId, pmId: 3 }).expect(200);
    const transactionId = (await lastPayment(orderId)).provider_reference;
    payssion.setState(transactionId, 'completed');
    expect((await payssion.deliver(`${base}/api/webhook/payssion`, payssion.notification(transactionId))).status).to.equal(200);
    await activated(orderId);
    return { buyer, orderId, transactionId };
  }

  const refund = (orderId: number, body: Record<string, unknown> = {}) =>
    api(app)
      .post('/api/order/refund')
      .set(admin.auth)
      .send({ orderId, reason: 'the buyer asked within a day', ...body });
  const panelOf = async (buyer: TestUser) => (await api(app).get(PANEL).set(buyer.auth).query({ id: buyer.id, languageId: 1 }).expect(200)).body;
  const deliverStripe = (delivery: ReturnType<FakeStripe['webhook']>) => stripe.deliver(`${base}/api/webhook/stripe`, delivery);
  const deliverPayssion = (notification: ReturnType<FakePayssion['notification']>) => payssion.deliver(`${base}/api/webhook/payssion`, notification);

  describe('card (Stripe)', () => {
    it('staff refund goes through Stripe’s Refunds API; Stripe’s charge.refunded about it changes nothing twice', async () => {
      const { buyer, orderId, pi } = await paidByCard();
      const { body } = await refund(orderId).expect(200);
      // €4.99 less 5 % (24.95 cents, rounded half up to 25).
      expect(body.refund).to.include({ provider: 'stripe', amount: 4.74, fee: 0.25, status: 'succeeded' });
      expect(stripe.payment(pi).amountRefunded).to.equal(474);
      expect(stripe.lastRefund!.headers['idempotency-key']).to.equal(await idempotencyKey(`refund-${body.refund.id}`));
      expect(body.refund.providerRefundId).to.equal(stripe.payment(pi).refunds[0].id);
      expect((await orderRow(orderId)).state).to.equal(5);
      expect((await panelOf(buyer)).subscribers).to.deep.equal([]);

      const event = stripe.chargeRefundedWebhook(pi);
      for (let copy = 0; copy < 3; copy++) expect((await deliverStripe(event)).status).to.equal(200);
      // The same total in a new event (Stripe tells the total so far): nothing new either.
      expect((await deliverStripe(stripe.chargeRefundedWebhook(pi))).status).to.equal(200);
      expect((await refundsOf(orderId)).map((row) => [row.source, row.status, Number(row.amount_minor)])).to.deep.equal([['staff', 'succeeded', 474]]);
      const mail = await harness().mailTo(buyer.email, (m) => m.subject.includes('refunded'));
      expect(mail.text).to.contain('€4.74');
      expect(await refundedMails(orderId)).to.equal(1);
      const outcomes = await knex()('payment_events').where({ provider: 'stripe', order_id: orderId, event_type: 'charge.refunded' }).pluck('outcome');
      expect(outcomes).to.deep.equal(['noted', 'noted']);
    });

    it('a card payment made before the PaymentIntent was stored is refunded through its Checkout Session, which then names it', async () => {
      const { orderId, pi } = await paidByCard();
      await knex()('payments').where({ order_id: orderId }).update({ provider_payment_id: null });
      await refund(orderId).expect(200);
      expect(stripe.payment(pi).amountRefunded).to.equal(474);
      expect((await lastPayment(orderId)).provider_payment_id).to.equal(pi);
      // Stripe's later event about it finds the payment by the id now stored, and adds nothing.
      expect((await deliverStripe(stripe.chargeRefundedWebhook(pi))).status).to.equal(200);
      expect((await refundsOf(orderId)).map((row) => row.source)).to.deep.equal(['staff']);
    });

    it('a partial refund in Stripe’s dashboard keeps access; the rest ends it; an older event adds nothing', async () => {
      const { buyer, orderId, pi } = await paidByCard();
      stripe.dashboardRefund(pi, 200);
      const first = stripe.chargeRefundedWebhook(pi);
      expect((await deliverStripe(first)).status).to.equal(200);
      // €2.00 of €4.99 is less than the policy's refund (€4.74): a partial refund, access stays.
      expect((await orderRow(orderId)).state).to.equal(2);
      expect((await subscriptionOf(orderId)).status).to.equal('active');
      expect((await panelOf(buyer)).subscribers).to.have.length(1);

      stripe.dashboardRefund(pi); // the rest
      expect((await deliverStripe(stripe.chargeRefundedWebhook(pi))).status).to.equal(200);
      expect((await orderRow(orderId)).state).to.equal(5);
      expect((await subscriptionOf(orderId)).status).to.equal('refunded');
      expect((await panelOf(buyer)).subscribers).to.deep.equal([]);
      const mail = await harness().mailTo(buyer.email, (m) => m.subject.includes('refunded'));
      expect(mail.text).to.contain('€4.99');
      // The first event again, under a new id (as if delivered late): its total is behind.
      expect((await deliverStripe(stripe.chargeRefundedWebhook(pi, { amountRefunded: 200 }))).status).to.equal(200);
      const quote = (await api(app).get('/api/order/refundquote').set(admin.auth).query({ orderId }).expect(200)).body;
      expect(quote).to.include({ access: 'refunded', refunded: 4.99, refundable: false });
      expect(await refundedMails(orderId)).to.equal(1);
    });

    it('a dispute suspends access (slot kept); won, access is back until the original end', async () => {
      const { buyer, orderId, pi } = await paidByCard();
      const before = await subscriptionOf(orderId);
      const opened = stripe.disputeWebhook(pi, 'charge.dispute.created');
      expect((await deliverStripe(opened)).status).to.equal(200);
      expect((await deliverStripe(opened)).status).to.equal(200);
      const suspended = await subscriptionOf(orderId);
      expect(suspended.status).to.equal('active'); // the slot stays held
      expect(suspended.suspended_at).to.be.an.instanceOf(Date);
      expect((await panelOf(buyer)).subscribers).to.deep.equal([]);
      expect(await knex()('audit_log').where({ action: 'payment.dispute_opened', target_id: String(orderId) })).to.have.length(1);
      expect((await orderRow(orderId)).state).to.equal(2);

      expect((await deliverStripe(stripe.disputeWebhook(pi, 'charge.dispute.closed', { status: 'won' }))).status).to.equal(200);
      const back = await subscriptionOf(orderId);
      expect(back.suspended_at).to.equal(null);
      expect(back.ends_at.getTime()).to.equal(before.ends_at.getTime());
      const panel = await panelOf(buyer);
      expect(panel.subscribers).to.have.length(1);
      expect(panel.subscribers[0].password).to.be.a('string');
      // A late copy of "created" does not suspend again.
      expect((await deliverStripe(stripe.disputeWebhook(pi, 'charge.dispute.created', { status: 'needs_response' }))).status).to.equal(200);
      expect((await subscriptionOf(orderId)).suspended_at).to.equal(null);
      expect(await refundsOf(orderId)).to.deep.equal([]);
    });

    it('a lost dispute is a chargeback: access ends, the buyer is told; delivered before "created", nothing is suspended after', async () => {
      const { buyer, orderId, pi } = await paidByCard();
      const lost = stripe.disputeWebhook(pi, 'charge.dispute.closed', { status: 'lost' });
      const created = stripe.disputeWebhook(pi, 'charge.dispute.created', { status: 'needs_response' });
      expect((await deliverStripe(lost)).status).to.equal(200);
      expect((await deliverStripe(lost)).status).to.equal(200);
      expect((await deliverStripe(created)).status).to.equal(200);
      expect((await orderRow(orderId)).state).to.equal(5);
      const subscription = await subscriptionOf(orderId);
      expect(subscription.status).to.equal('refunded');
      expect(subscription.suspended_at).to.equal(null);
      expect(await ledgerOf(orderId)).to.deep.equal([
        ['dispute', 'lost', 499],
        ['dispute', 'open', 499],
      ]);
      const mail = await harness().mailTo(buyer.email, (m) => m.subject.includes('took back'));
      expect(mail.subject).to.equal(`Your bank took back the payment for order #${orderId}`);
      expect(await refundedMails(orderId)).to.equal(1);
      // Staff cannot refund what the bank already took back.
      expect((await refund(orderId).expect(409)).body.code).to.equal('order_not_refundable');
    });
  });

  describe('Korean methods (Payssion)', () => {
    it('staff refund goes through Payssion’s refund call in whole won; its refunded notification changes nothing twice', async () => {
      const { buyer, orderId, transactionId } = await paidByKakaoPay();
      const { body } = await refund(orderId).expect(200);
      // ₩6,900 less 5 % (₩345).
      expect(body.refund).to.include({ provider: 'payssion', currencyCode: 'KRW', amount: 6555, fee: 345 });
      expect(payssion.lastRefund!.params).to.include({ transaction_id: transactionId, amount: '6555', currency: 'KRW' });
      expect((await orderRow(orderId)).state).to.equal(5);
      expect((await panelOf(buyer)).subscribers).to.deep.equal([]);

      const notification = payssion.refundedNotification(transactionId);
      expect((await deliverPayssion(notification)).status).to.equal(200);
      expect((await deliverPayssion(notification)).status).to.equal(200);
      expect((await refundsOf(orderId)).map((row) => [row.source, row.status, Number(row.amount_minor)])).to.deep.equal([['staff', 'succeeded', 6555]]);
      const mail = await harness().mailTo(buyer.email, (m) => m.subject.includes('refunded'));
      expect(mail.text).to.contain('₩6,555');
      expect(await refundedMails(orderId)).to.equal(1);
    });

    it('a chargeback ends access once, however often it is delivered; a forged one changes nothing', async () => {
      const { buyer, orderId, transactionId } = await paidByKakaoPay();
      const forged = payssion.chargebackNotification(transactionId, { forgeSig: true });
      expect((await deliverPayssion(forged)).status).to.equal(400);
      expect((await orderRow(orderId)).state).to.equal(2);

      const chargeback = payssion.chargebackNotification(transactionId);
      const answers = await Promise.all(Array.from({ length: 5 }, () => deliverPayssion(chargeback)));
      expect(answers.map((answer) => answer.status)).to.deep.equal([200, 200, 200, 200, 200]);
      expect((await orderRow(orderId)).state).to.equal(5);
      expect((await subscriptionOf(orderId)).status).to.equal('refunded');
      expect(await ledgerOf(orderId)).to.deep.equal([['chargeback', 'succeeded', 6900]]);
      await harness().mailTo(buyer.email, (m) => m.subject.includes('took back'));
      expect(await refundedMails(orderId)).to.equal(1);
    });
  });

  describe('re-addressed notifications', () => {
    it('a signed chargeback of one order re-posted with another order’s transaction id (unsigned) changes neither', async () => {
      const x = await paidByKakaoPay();
      const y = await paidByKakaoPay();
      const readdressed = payssion.chargebackNotification(x.transactionId, { tamper: { transaction_id: y.transactionId } });
      const answer = await deliverPayssion(readdressed);
      expect(answer.status).to.equal(400);
      expect(JSON.parse(answer.body).code).to.equal('notification_mismatch');
      expect((await orderRow(x.orderId)).state).to.equal(2);
      expect((await orderRow(y.orderId)).state).to.equal(2);
      expect(await refundsOf(y.orderId)).to.deep.equal([]);
      // The genuine one still applies, to its own order only.
      expect((await deliverPayssion(payssion.chargebackNotification(x.transactionId))).status).to.equal(200);
      expect((await orderRow(x.orderId)).state).to.equal(5);
      expect((await orderRow(y.orderId)).state).to.equal(2);
    });

    it('a Stripe dispute about a PaymentIntent we never took waits (staff see it) and changes nothing', async () => {
      const { orderId, pi } = await paidByCard();
      const stranger = stripe.disputeWebhook(pi, 'charge.dispute.created', { status: 'needs_response', dispute: { payment_intent: 'pi_not_ours' } });
      expect((await deliverStripe(stranger)).status).to.equal(200);
      expect((await subscriptionOf(orderId)).suspended_at).to.equal(null);
      const event = await knex()('payment_events').where({ provider: 'stripe', event_type: 'charge.dispute.created' }).orderBy('id', 'desc').first();
      expect(event.outcome).to.equal('waiting');
      const waiting = await knex()('money_events').where({ provider: 'stripe', waiting_for: 'pi_not_ours' }).whereNull('applied_at');
      expect(waiting).to.have.length(1);
    });
  });

  describe('crypto (CoinPal, no refund call)', () => {
    it('staff record the transfer they made; the reference is required and kept', async () => {
      const buyer = await loginAs('user', { app });
      const orderId = await placeOrder(buyer, 'EUR');
      await api(app).post('/api/payment/createcheckoutsessioncoinpal').set(buyer.auth).send({ orderId }).expect(200);
      const payment = await lastPayment(orderId);
      coinpal.setStatus(payment.provider_reference, 'paid');
      expect((await coinpal.deliver(`${base}/api/webhook/coinpal`, coinpal.notification(payment.provider_reference))).status).to.equal(200);
      await activated(orderId);

      const quote = (await api(app).get('/api/order/refundquote').set(admin.auth).query({ orderId }).expect(200)).body;
      expect(quote).to.include({ provider: 'coinpal', manual: true, refund: 4.74 });
      const missing = await refund(orderId).expect(400);
      expect(missing.body.errors).to.have.key('manualReference');
      expect((await orderRow(orderId)).state).to.equal(2);

      const { body } = await refund(orderId, { manualReference: 'USDT tx 0xabc123' }).expect(200);
      expect(body.refund).to.include({ provider: 'coinpal', manualReference: 'USDT tx 0xabc123', providerRefundId: null, amount: 4.74 });
      expect((await orderRow(orderId)).state).to.equal(5);
      const audit = await knex()('audit_log')
        .where({ action: 'order.refund', target_id: String(orderId) })
        .first();
      expect(audit.details).to.include({ manualReference: 'USDT tx 0xabc123', provider: 'coinpal' });
    });
  });

  // Last: it moves the shop's clock on, past what a Stripe signature made with the real time passes.
  describe('a provider that does not answer', () => {
    it('Stripe 5xx: the refund stays pending and the order unchanged; a click at once is refused; five minutes on, the same refund is sent again and made once', async () => {
      const { buyer, orderId, pi } = await paidByCard();
      stripe.failNext(500);
      const unknown = await refund(orderId).expect(503);
      expect(unknown.body.code).to.equal('refund_outcome_unknown');
      expect(unknown.body.message).to.contain('Stripe did not answer');
      expect((await orderRow(orderId)).state).to.equal(2);
      expect((await panelOf(buyer)).subscribers).to.have.length(1);
      const [pending] = await refundsOf(orderId);
      expect(pending).to.include({ status: 'pending', error: 'stripe_unavailable' });
      expect(stripe.payment(pi).amountRefunded).to.equal(0);

      expect((await refund(orderId).expect(409)).body.code).to.equal('refund_in_progress');
      const quote = async () => (await api(app).get('/api/order/refundquote').set(admin.auth).query({ orderId }).expect(200)).body;
      expect(await quote()).to.include({ refundable: false, reason: 'refund_in_progress' });
      harness().clock.advance(6 * 60_000);
      expect(await quote()).to.include({ refundable: true, reason: null });
      const { body } = await refund(orderId).expect(200);
      expect(body.refund.id).to.equal(Number(pending.id));
      expect(stripe.lastRefund!.headers['idempotency-key']).to.equal(await idempotencyKey(`refund-${pending.id}`));
      expect(stripe.payment(pi).amountRefunded).to.equal(474);
      expect((await refundsOf(orderId)).map((row) => row.status)).to.deep.equal(['succeeded']);
      expect((await orderRow(orderId)).state).to.equal(5);
    });

    it('Payssion 5xx: the refund stays pending and the order unchanged; its later refunded notification completes it once', async () => {
      const { orderId, transactionId } = await paidByKakaoPay();
      payssion.failNext(500);
      expect((await refund(orderId).expect(503)).body.code).to.equal('refund_outcome_unknown');
      expect((await orderRow(orderId)).state).to.equal(2);
      expect((await subscriptionOf(orderId)).status).to.equal('active');
      // Payssion had made it after all (its answer was lost): its notification completes our refund.
      payssion.dashboardRefund(transactionId, '6555');
      expect((await deliverPayssion(payssion.refundedNotification(transactionId))).status).to.equal(200);
      expect((await refundsOf(orderId)).map((row) => [row.source, row.status, Number(row.amount_minor)])).to.deep.equal([['staff', 'succeeded', 6555]]);
      expect((await orderRow(orderId)).state).to.equal(5);
      expect((await refund(orderId).expect(409)).body.code).to.equal('order_not_refundable');
    });
  });
});
