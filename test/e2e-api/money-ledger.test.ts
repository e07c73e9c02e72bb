import { expect } from 'chai';
import type { Express } from 'express';
import { CatalogService } from '@subshare/core';
import { listen } from '@subshare/http';
import { api, loginAs, type TestUser } from '../support/agent.js';
import { FakePayssion } from '../support/fake-payssion.js';
import { FakeStripe } from '../support/fake-stripe.js';
import { harness, useWorker } from '../support/harness.js';
import { createAccount, createPlatform, unfinishedActivationJobs, type TestPlatform } from '../support/shop.js';
import { waitFor } from '../support/wait.js';

useWorker();

const PANEL = '/api/user/getuserpanel';

/**
 * The money ledger decides access (issue 25): each case reported from outside, with events signed
 * as Stripe and Payssion sign them, delivered over HTTP to the real webhook endpoints. Each of
 * these tests failed on the code before the ledger (checked by running them against it).
 */
describe('money ledger: events in any order, one ledger per order', function () {
  this.timeout(60_000);
  const stripe = new FakeStripe();
  const payssion = new FakePayssion();
  const knex = () => harness().knex;
  const orderRow = (id: number) => knex()('orders').where({ id }).first();
  const subscriptionsOf = (userId: number) => knex()('subscriptions').where({ user_id: userId }).orderBy('id');
  let app: Express;
  let base: string;
  let admin: TestUser;
  let platform: TestPlatform;
  const stops: Array<() => Promise<void>> = [];

  before(async () => {
    for (const fake of [stripe, payssion]) stops.push((await fake.start()).stop);
    const world = harness().appWith({ ...stripe.env, ...payssion.env });
    app = world.app;
    const server = await listen(app, 0, '127.0.0.1');
    base = server.url;
    stops.push(server.close);
    admin = await loginAs('admin', { app });
    platform = await createPlatform({ slotsCount: 10 });
    world.container.get(CatalogService).invalidate();
    await createAccount(platform.id, 10);
  });
  after(async () => {
    for (const stop of stops.reverse()) await stop();
  });
  afterEach(() => {
    stripe.refundStatus = 'succeeded';
  });

  const deliverStripe = (delivery: ReturnType<FakeStripe['webhook']>) => stripe.deliver(`${base}/api/webhook/stripe`, delivery);
  const deliverPayssion = (notification: ReturnType<FakePayssion['notification']>) => payssion.deliver(`${base}/api/webhook/payssion`, notification);
  const panelOf = async (buyer: TestUser) => (await api(app).get(PANEL).set(buyer.auth).query({ id: buyer.id, languageId: 1 }).expect(200)).body;
  const quoteOf = async (orderId: number) => (await api(app).get('/api/order/refundquote').set(admin.auth).query({ orderId }).expect(200)).body;
  const dashboard = async () => (await api(app).get('/api/admin/dashboard').set(admin.auth).expect(200)).body;
  const refund = (orderId: number) => api(app).post('/api/order/refund').set(admin.auth).send({ orderId, reason: 'the buyer asked within a day' });
  const lastPayment = (orderId: number) => knex()('payments').where({ order_id: orderId }).orderBy('id', 'desc').first();

  async function placeOrder(buyer: TestUser, currency: 'EUR' | 'KRW'): Promise<number> {
    const { body } = await api(app)
      .post('/api/order/insert')
      .set(buyer.auth)
      .send({ platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId, languageId: 1, currency })
      .expect(200);
    return body.id;
  }

  /** A card checkout paid at Stripe, its events not yet delivered: the session and its PaymentIntent. */
  async function cardCheckout(buyer: TestUser): Promise<{ orderId: number; sessionId: string; pi: string }> {
    const orderId = await placeOrder(buyer, 'EUR');
    await api(app).post('/api/payment/createcheckoutsession').set(buyer.auth).send({ orderId }).expect(200);
    const session = stripe.pay((await lastPayment(orderId)).provider_reference);
    return { orderId, sessionId: session.id, pi: session.payment_intent! };
  }

  async function settled(orderId: number, state: number): Promise<void> {
    await waitFor(async () => (await orderRow(orderId)).state === state && (await unfinishedActivationJobs([orderId])) === 0, {
      what: `order ${orderId} in state ${state}, its activation done`,
    });
  }

  async function paidByCard(buyer: TestUser): Promise<{ orderId: number; pi: string }> {
    const { orderId, sessionId, pi } = await cardCheckout(buyer);
    expect((await deliverStripe(stripe.webhook(sessionId, 'checkout.session.completed'))).status).to.equal(200);
    await settled(orderId, 2);
    return { orderId, pi };
  }

  it('a full refund before its payment waits (staff see it), applies when the payment arrives, and a redelivery is a duplicate', async () => {
    const buyer = await loginAs('user', { app });
    const { orderId, sessionId, pi } = await cardCheckout(buyer);
    stripe.dashboardRefund(pi);
    const refunded = stripe.chargeRefundedWebhook(pi);
    expect((await deliverStripe(refunded)).status).to.equal(200);
    expect((await deliverStripe(refunded)).status).to.equal(200);
    const waiting = (await dashboard()).waitingMoneyEvents.filter((event: { waitingFor: string }) => event.waitingFor === pi);
    expect(waiting.map((event: { kind: string; amount: number; effect: string }) => [event.kind, event.amount, event.effect])).to.deep.equal([
      ['refund', 4.99, 'waiting'],
      ['refund_total', 4.99, 'waiting'],
    ]);

    expect((await deliverStripe(stripe.webhook(sessionId, 'checkout.session.completed'))).status).to.equal(200);
    await settled(orderId, 5);
    expect((await subscriptionsOf(buyer.id)).filter((row) => row.status === 'active')).to.deep.equal([]);
    expect((await panelOf(buyer)).subscribers).to.deep.equal([]);
    expect((await dashboard()).waitingMoneyEvents.filter((event: { waitingFor: string }) => event.waitingFor === pi)).to.deep.equal([]);
    const quote = await quoteOf(orderId);
    expect(quote).to.include({ access: 'refunded', refunded: 4.99, refundable: false });
    expect(quote.ledger.map((event: { kind: string; effect: string; providerId: string }) => [event.kind, event.effect])).to.deep.equal([
      ['refund', 'access_ended'],
      ['refund_total', 'no_change'],
      ['payment', 'paid'],
    ]);
    expect(quote.ledger[0].providerId).to.equal(stripe.payment(pi).refunds[0].id);
    expect(quote.ledger.every((event: { appliedDate: string | null }) => typeof event.appliedDate === 'string')).to.equal(true);
  });

  it('a dispute before its payment suspends the slot the payment then gets', async () => {
    const buyer = await loginAs('user', { app });
    const { orderId, sessionId, pi } = await cardCheckout(buyer);
    expect((await deliverStripe(stripe.disputeWebhook(pi, 'charge.dispute.created'))).status).to.equal(200);
    expect((await deliverStripe(stripe.webhook(sessionId, 'checkout.session.completed'))).status).to.equal(200);
    await settled(orderId, 2);
    const [subscription] = await subscriptionsOf(buyer.id);
    expect(subscription.status).to.equal('active'); // the slot is held
    expect(subscription.suspended_at).to.be.an.instanceOf(Date);
    expect((await panelOf(buyer)).subscribers).to.deep.equal([]);
    expect((await quoteOf(orderId)).access).to.equal('suspended');
    // Won: access is back.
    expect((await deliverStripe(stripe.disputeWebhook(pi, 'charge.dispute.closed', { status: 'won' }))).status).to.equal(200);
    expect((await subscriptionsOf(buyer.id))[0].suspended_at).to.equal(null);
    expect((await panelOf(buyer)).subscribers).to.have.length(1);
  });

  it('a lost dispute on a renewal takes back the renewal’s month only, and lifts the suspension', async () => {
    const buyer = await loginAs('user', { app });
    const first = await paidByCard(buyer);
    const [before] = await subscriptionsOf(buyer.id);
    const renewal = await paidByCard(buyer);
    const [renewed] = await subscriptionsOf(buyer.id);
    expect(renewed.id).to.equal(before.id);
    expect(renewed.ends_at.getTime()).to.be.greaterThan(before.ends_at.getTime());

    expect((await deliverStripe(stripe.disputeWebhook(renewal.pi, 'charge.dispute.created'))).status).to.equal(200);
    expect((await subscriptionsOf(buyer.id))[0].suspended_at).to.be.an.instanceOf(Date);
    expect((await deliverStripe(stripe.disputeWebhook(renewal.pi, 'charge.dispute.closed', { status: 'lost' }))).status).to.equal(200);

    expect((await orderRow(renewal.orderId)).state).to.equal(5);
    expect((await orderRow(first.orderId)).state).to.equal(2);
    const [after] = await subscriptionsOf(buyer.id);
    expect(after).to.include({ status: 'active', suspended_at: null });
    expect(after.ends_at.getTime()).to.equal(before.ends_at.getTime());
    const panel = await panelOf(buyer);
    expect(panel.subscribers).to.have.length(1);
    expect((await quoteOf(first.orderId)).access).to.equal('active');
    expect((await quoteOf(renewal.orderId)).access).to.equal('charged_back');
  });

  it('a 1-cent refund at Stripe keeps access, and the rest stays refundable by staff', async () => {
    const buyer = await loginAs('user', { app });
    const { orderId, pi } = await paidByCard(buyer);
    stripe.dashboardRefund(pi, 1);
    expect((await deliverStripe(stripe.chargeRefundedWebhook(pi))).status).to.equal(200);
    expect((await orderRow(orderId)).state).to.equal(2);
    expect((await panelOf(buyer)).subscribers).to.have.length(1);
    // €4.99 less the 5 % fee (€0.25) less the cent already back.
    expect(await quoteOf(orderId)).to.include({ access: 'active', refundable: true, refunded: 0.01, refund: 4.73 });

    const { body } = await refund(orderId).expect(200);
    expect(body.refund).to.include({ amount: 4.73, status: 'succeeded' });
    expect(stripe.payment(pi).amountRefunded).to.equal(474);
    expect((await orderRow(orderId)).state).to.equal(5);
    expect((await panelOf(buyer)).subscribers).to.deep.equal([]);
  });

  it('a pending Stripe refund is not a refund made; failed later, the order is refundable again; succeeded later, access ends', async () => {
    const buyer = await loginAs('user', { app });
    const { orderId, pi } = await paidByCard(buyer);
    stripe.refundStatus = 'pending';
    const { body } = await refund(orderId).expect(200);
    expect(body.refund.status).to.equal('pending');
    expect(body.state).to.equal(2);
    expect((await panelOf(buyer)).subscribers).to.have.length(1);
    expect(await quoteOf(orderId)).to.include({ access: 'active', refunded: 0, refundable: false, reason: 'refund_in_progress' });

    const [pending] = stripe.payment(pi).refunds;
    stripe.settleRefund(pending.id, 'failed');
    const failed = stripe.refundUpdatedWebhook(pending.id);
    expect((await deliverStripe(failed)).status).to.equal(200);
    expect((await deliverStripe(failed)).status).to.equal(200);
    expect(await knex()('refunds').where({ order_id: orderId }).pluck('status')).to.deep.equal(['failed']);
    expect(await quoteOf(orderId)).to.include({ access: 'active', refunded: 0, refundable: true, refund: 4.74 });
    expect((await orderRow(orderId)).state).to.equal(2);

    // Again, and this time the bank gives the money back.
    const again = await refund(orderId).expect(200);
    expect(again.body.refund.status).to.equal('pending');
    const second = stripe.payment(pi).refunds[1];
    stripe.settleRefund(second.id, 'succeeded');
    expect((await deliverStripe(stripe.refundUpdatedWebhook(second.id))).status).to.equal(200);
    expect((await orderRow(orderId)).state).to.equal(5);
    expect((await panelOf(buyer)).subscribers).to.deep.equal([]);
    expect((await quoteOf(orderId)).refunded).to.equal(4.74);
  });

  it('a second partial Payssion refund is a refund of its own, not a duplicate of the first', async () => {
    const buyer = await loginAs('user', { app });
    const orderId = await placeOrder(buyer, 'KRW');
    await api(app).post('/api/payment/createcheckoutsessionpayssion').set(buyer.auth).send({ orderId, pmId: 3 }).expect(200);
    const transactionId = (await lastPayment(orderId)).provider_reference;
    payssion.setState(transactionId, 'completed');
    expect((await deliverPayssion(payssion.notification(transactionId))).status).to.equal(200);
    await settled(orderId, 2);

    payssion.dashboardRefund(transactionId, '1000');
    expect((await deliverPayssion(payssion.refundedNotification(transactionId))).status).to.equal(200);
    expect((await orderRow(orderId)).state).to.equal(2);
    payssion.dashboardRefund(transactionId, '2000');
    expect((await deliverPayssion(payssion.refundedNotification(transactionId))).status).to.equal(200);
    const outcomes = await knex()('payment_events')
      .where({ provider: 'payssion' })
      .where('event_id', 'like', `${(await lastPayment(orderId)).reference}:refunded%`)
      .orderBy('id')
      .pluck('outcome');
    expect(outcomes).to.deep.equal(['partial_refund', 'partial_refund']);
    // ₩6,900 less the 5 % fee (₩345) less the ₩3,000 already back.
    expect(await quoteOf(orderId)).to.include({ access: 'active', refunded: 3000, refund: 3555, refundable: true });
    expect((await panelOf(buyer)).subscribers).to.have.length(1);
  });
});
