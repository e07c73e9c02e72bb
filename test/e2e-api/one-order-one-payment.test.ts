import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Express } from 'express';
import { signRenewalLink, CatalogService, PaymentNotificationFlow } from '@subshare/core';
import { listen } from '@subshare/http';
import { api, loginAs, type TestUser } from '../support/agent.js';
import { FakeCoinPal } from '../support/fake-coinpal.js';
import { FakePayssion } from '../support/fake-payssion.js';
import { FakeStripe } from '../support/fake-stripe.js';
import { harness, useWorker } from '../support/harness.js';
import { createAccount, createPlatform, type TestPlatform } from '../support/shop.js';
import { waitFor } from '../support/wait.js';

useWorker();

const PANEL = '/api/user/getuserpanel';

/**
 * One order, one payment (issue 34, item 3), through the real HTTP API and local servers speaking
 * Stripe's, Payssion's and CoinPal's protocols (signatures included): a checkout opened twice is
 * the same Stripe session, another method expires it; a second payment that still gets through is
 * refunded at once through its provider, in the ledger, on the order's page and the dashboard;
 * 8 parallel POSTs of a renewal pay link make one session; Payssion refunds are told apart by
 * their own ids; CoinPal's chargeback ends access. Replayed notifications change nothing.
 */
describe('one order, one payment', function () {
  this.timeout(60_000);
  const stripe = new FakeStripe();
  const payssion = new FakePayssion();
  const coinpal = new FakeCoinPal();
  const knex = () => harness().knex;
  const orderRow = (id: number) => knex()('orders').where({ id }).first();
  const paymentsOf = (orderId: number) => knex()('payments').where({ order_id: orderId }).orderBy('id');
  const refundsOf = (orderId: number) => knex()('refunds').where({ order_id: orderId }).orderBy('id');
  const ledgerOf = async (orderId: number) =>
    (await knex()('money_events').where({ order_id: orderId }).whereNot({ kind: 'payment' }).orderBy('id')).map((row) => [
      row.kind,
      row.status,
      Number(row.amount_minor),
    ]);
  /** The distinct refunds the ledger knows of the order (several events may report one refund). */
  const refundSubjectsOf = async (orderId: number) => [
    ...new Set(await knex()('money_events').where({ order_id: orderId, kind: 'refund' }).orderBy('id').pluck('subject')),
  ];
  const subscriptionOf = (orderId: number) =>
    knex()('subscriptions')
      .whereIn('order_item_id', knex()('order_items').select('id').where({ order_id: orderId }))
      .first();
  let app: Express;
  let reconcile: () => Promise<unknown>;
  let base: string;
  let admin: TestUser;
  let platform: TestPlatform;
  const stops: Array<() => Promise<void>> = [];

  before(async () => {
    for (const fake of [stripe, payssion, coinpal]) stops.push((await fake.start()).stop);
    const world = harness().appWith({ ...stripe.env, ...payssion.env, ...coinpal.env });
    app = world.app;
    reconcile = () => world.container.get(PaymentNotificationFlow).reconcile();
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

  async function placeOrder(buyer: TestUser, currency: 'EUR' | 'KRW'): Promise<number> {
    const { body } = await api(app)
      .post('/api/order/insert')
      .set(buyer.auth)
      .send({ platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId, languageId: 1, currency })
      .expect(200);
    return body.id;
  }
  const checkout = (buyer: TestUser, path: string, body: Record<string, unknown>) => api(app).post(`/api/payment/${path}`).set(buyer.auth).send(body);
  const activated = (orderId: number) => waitFor(async () => (await orderRow(orderId)).state === 2, { what: `order ${orderId} activated` });
  const deliverStripe = (delivery: ReturnType<FakeStripe['webhook']>) => stripe.deliver(`${base}/api/webhook/stripe`, delivery);
  const deliverPayssion = (notification: ReturnType<FakePayssion['notification']>) => payssion.deliver(`${base}/api/webhook/payssion`, notification);
  const deliverCoinPal = (notification: ReturnType<FakeCoinPal['notification']>) => coinpal.deliver(`${base}/api/webhook/coinpal`, notification);
  const quoteOf = async (orderId: number) => (await api(app).get('/api/order/refundquote').set(admin.auth).query({ orderId }).expect(200)).body;
  const dashboard = async () => (await api(app).get('/api/admin/dashboard').set(admin.auth).expect(200)).body;
  const panelOf = async (buyer: TestUser) => (await api(app).get(PANEL).set(buyer.auth).query({ id: buyer.id, languageId: 1 }).expect(200)).body;

  it('opening card checkout twice reuses its open session; another method expires it at Stripe', async () => {
    const buyer = await loginAs('user', { app });
    const orderId = await placeOrder(buyer, 'EUR');
    const created = stripe.requests.create;
    const first = await checkout(buyer, 'createcheckoutsession', { orderId }).expect(200);
    const second = await checkout(buyer, 'createcheckoutsession', { orderId }).expect(200);
    expect(second.body).to.deep.equal(first.body);
    expect(stripe.requests.create - created).to.equal(1);
    const [card] = await paymentsOf(orderId);
    expect((await paymentsOf(orderId)).map((row) => row.status)).to.deep.equal(['pending']);

    // The buyer switches to crypto: the card session can no longer be paid.
    const expired = stripe.requests.expire;
    await checkout(buyer, 'createcheckoutsessioncoinpal', { orderId }).expect(200);
    expect(stripe.requests.expire - expired).to.equal(1);
    expect(stripe.session(card.provider_reference).status).to.equal('expired');
    const page = await fetch(`${stripe.baseUrl}/pay/${card.provider_reference}`);
    expect(page.status).to.equal(404);
    expect((await paymentsOf(orderId)).map((row) => [row.provider, row.status])).to.deep.equal([
      ['stripe', 'expired'],
      ['coinpal', 'pending'],
    ]);

    // Back to card: a new session (the expired one is not reused); CoinPal's cannot be closed.
    await checkout(buyer, 'createcheckoutsession', { orderId }).expect(200);
    expect(stripe.requests.create - created).to.equal(2);
    expect((await paymentsOf(orderId)).map((row) => [row.provider, row.status])).to.deep.equal([
      ['stripe', 'expired'],
      ['coinpal', 'pending'],
      ['stripe', 'pending'],
    ]);
  });

  it('while Stripe makes the session no transaction holds the order; a second tab waits for the claim and gets that session', async () => {
    const buyer = await loginAs('user', { app });
    const orderId = await placeOrder(buyer, 'EUR');
    const created = stripe.requests.create;
    const letGo = stripe.holdNext(); // Stripe is slow to make the session
    const first = checkout(buyer, 'createcheckoutsession', { orderId }).then((answer) => answer);
    try {
      await waitFor(() => stripe.requests.create - created === 1, { what: 'the session asked of Stripe' });
      // The claim is a committed row; neither the order's row nor an advisory lock is held meanwhile
      // (the first version held both, and a pooled connection, for Stripe's whole answer).
      expect(await knex()('checkout_claims').where({ order_id: orderId }).pluck('order_id')).to.deep.equal([orderId]);
      // NOWAIT: a row locked elsewhere fails at once rather than being waited for.
      await knex().transaction(async (trx) => {
        expect(await trx('orders').where({ id: orderId }).forUpdate().noWait().pluck('id')).to.deep.equal([orderId]);
        expect(await trx('payments').where({ order_id: orderId }).forUpdate().noWait().pluck('status')).to.deep.equal(['pending']);
      });
      const { rows } = await knex().raw(
        `select count(*)::int as n from pg_locks l join pg_stat_activity a using (pid) where a.datname = current_database() and l.locktype = 'advisory'`,
      );
      expect(rows[0].n, 'advisory locks held while Stripe answers').to.equal(0);
      // A second tab: it waits for the claim, then finds the session the first one made.
      const second = checkout(buyer, 'createcheckoutsession', { orderId }).then((answer) => answer);
      letGo();
      const answers = await Promise.all([first, second]);
      expect(answers.map((answer) => answer.status)).to.deep.equal([200, 200]);
      expect(answers[1]!.body).to.deep.equal(answers[0]!.body);
    } finally {
      letGo();
    }
    expect(stripe.requests.create - created).to.equal(1);
    expect((await paymentsOf(orderId)).map((row) => row.status)).to.deep.equal(['pending']);
    expect(await knex()('checkout_claims').where({ order_id: orderId })).to.deep.equal([]);
  });

  it('a claim left by a process that died ends by itself: the next checkout waits for it to expire, then opens', async () => {
    const buyer = await loginAs('user', { app });
    const orderId = await placeOrder(buyer, 'EUR');
    const created = stripe.requests.create;
    // What a process killed while it held the claim leaves: a row nobody will delete, live for one more second.
    await knex()('checkout_claims').insert({ order_id: orderId, token: randomUUID(), expires_at: knex().raw("now() + interval '1 second'") });
    const answer = await checkout(buyer, 'createcheckoutsession', { orderId }).expect(200);
    expect(answer.body.url).to.be.a('string');
    expect(stripe.requests.create - created).to.equal(1);
    expect((await paymentsOf(orderId)).map((row) => row.status)).to.deep.equal(['pending']);
    expect(await knex()('checkout_claims').where({ order_id: orderId }), 'the claim given up').to.deep.equal([]);
  });

  it('a checkout whose claim was taken over while Stripe answered makes no session on it: its payment is abandoned and it starts again', async () => {
    const buyer = await loginAs('user', { app });
    const orderId = await placeOrder(buyer, 'EUR');
    const [customers, created] = [stripe.requests.customer, stripe.requests.create];
    const letGo = stripe.holdNext(); // "Renew automatically": the buyer's Stripe customer is made first, and held
    const answer = checkout(buyer, 'createcheckoutsession', { orderId, renewAutomatically: true }).then((response) => response);
    try {
      await waitFor(() => stripe.requests.customer - customers === 1, { what: "the buyer's customer asked of Stripe" });
      // Meanwhile the claim expired and another checkout of the order took it over (for one second).
      await knex()('checkout_claims')
        .where({ order_id: orderId })
        .update({ token: randomUUID(), expires_at: knex().raw("now() + interval '1 second'") });
    } finally {
      letGo();
    }
    expect((await answer).status).to.equal(200);
    expect(stripe.requests.create - created, 'one session, made by the second attempt').to.equal(1);
    const payments = await paymentsOf(orderId);
    expect(payments.map((row) => [row.status, row.provider_reference === null])).to.deep.equal([
      ['failed', true],
      ['pending', false],
    ]);
    expect((await answer).body.url).to.equal(payments[1].checkout_url);
    expect(await knex()('checkout_claims').where({ order_id: orderId })).to.deep.equal([]);
  });

  it('a tab whose session was paid meanwhile: the order is applied as paid, no new checkout', async () => {
    const buyer = await loginAs('user', { app });
    const orderId = await placeOrder(buyer, 'EUR');
    await checkout(buyer, 'createcheckoutsession', { orderId }).expect(200);
    const [card] = await paymentsOf(orderId);
    stripe.pay(card.provider_reference); // paid at Stripe; its webhook has not come yet
    const created = stripe.requests.create;
    expect((await checkout(buyer, 'createcheckoutsessioncoinpal', { orderId }).expect(409)).body.code).to.equal('order_not_payable');
    expect(stripe.requests.create).to.equal(created);
    expect((await paymentsOf(orderId)).map((row) => [row.provider, row.status])).to.deep.equal([['stripe', 'paid']]);
    await activated(orderId);
  });

  it('paid in both tabs (crypto, then card): the second payment is refunded through Stripe at once, in the ledger, for staff; a replay refunds nothing more', async () => {
    const before = (await dashboard()).doublePayments;
    const buyer = await loginAs('user', { app });
    const orderId = await placeOrder(buyer, 'EUR');
    await checkout(buyer, 'createcheckoutsessioncoinpal', { orderId }).expect(200);
    await checkout(buyer, 'createcheckoutsession', { orderId }).expect(200);
    const [crypto, card] = await paymentsOf(orderId);

    coinpal.setStatus(crypto.provider_reference, 'paid');
    expect((await deliverCoinPal(coinpal.notification(crypto.provider_reference))).status).to.equal(200);
    await activated(orderId);

    const session = stripe.pay(card.provider_reference);
    const completed = stripe.webhook(session.id, 'checkout.session.completed');
    expect((await deliverStripe(completed)).status).to.equal(200);
    const pi = session.payment_intent!;
    expect(stripe.payment(pi).refunds.map((refund) => [refund.amount, refund.status])).to.deep.equal([[499, 'succeeded']]);
    expect(
      (await refundsOf(orderId)).map((row) => [row.source, row.status, Number(row.amount_minor), Number(row.fee_minor), Number(row.payment_id)]),
    ).to.deep.equal([['double_payment', 'succeeded', 499, 0, card.id]]);
    expect(await ledgerOf(orderId)).to.deep.equal([['refund', 'succeeded', 499]]);
    expect(await knex()('money_events').where({ order_id: orderId, kind: 'refund' }).pluck('event_type')).to.deep.equal(['double_payment.refund']);
    expect((await paymentsOf(orderId)).map((row) => [row.provider, row.status])).to.deep.equal([
      ['coinpal', 'paid'],
      ['stripe', 'refunded'],
    ]);
    // The buyer keeps what the first payment bought.
    expect((await orderRow(orderId)).state).to.equal(2);
    expect((await panelOf(buyer)).subscribers).to.have.length(1);

    // Replays of the second payment's event: nothing more goes back.
    for (const answer of await Promise.all([deliverStripe(completed), deliverStripe(completed)])) expect(answer.status).to.equal(200);
    expect(stripe.payment(pi).refunds).to.have.length(1);
    expect(await refundsOf(orderId)).to.have.length(1);
    // Stripe's own refund event about it (its running total, and the refund listed by id) is the same refund.
    expect((await deliverStripe(stripe.chargeRefundedWebhook(pi))).status).to.equal(200);
    expect(await refundSubjectsOf(orderId)).to.deep.equal([stripe.payment(pi).refunds[0].id]);

    // Staff see it on the order and the dashboard.
    const quote = await quoteOf(orderId);
    expect(quote.refunds.map((refund: { source: string; status: string; amount: number }) => [refund.source, refund.status, refund.amount])).to.deep.equal([
      ['double_payment', 'succeeded', 4.99],
    ]);
    expect(quote.ledger.some((event: { eventType: string }) => event.eventType === 'double_payment.refund')).to.equal(true);
    expect(quote).to.include({ access: 'active', provider: 'coinpal' });
    const after = (await dashboard()).doublePayments;
    expect(after.refunded - before.refunded).to.equal(1);
    expect(after.refundedAmounts.find((entry: { currencyCode: string }) => entry.currencyCode === 'EUR').amount).to.be.at.least(4.99);
  });

  it('a second payment through CoinPal (no refund call) waits for staff, on the dashboard', async () => {
    const before = (await dashboard()).doublePayments;
    const buyer = await loginAs('user', { app });
    const orderId = await placeOrder(buyer, 'KRW');
    await checkout(buyer, 'createcheckoutsessioncoinpal', { orderId }).expect(200);
    await checkout(buyer, 'createcheckoutsessionpayssion', { orderId, pmId: 5 }).expect(200);
    const [crypto, korean] = await paymentsOf(orderId);
    payssion.setState(korean.provider_reference, 'completed');
    expect((await deliverPayssion(payssion.notification(korean.provider_reference))).status).to.equal(200);
    await activated(orderId);
    coinpal.setStatus(crypto.provider_reference, 'paid');
    const paid = coinpal.notification(crypto.provider_reference);
    expect((await deliverCoinPal(paid)).status).to.equal(200);
    expect((await deliverCoinPal(paid)).status).to.equal(200);
    expect((await refundsOf(orderId)).map((row) => [row.source, row.status, Number(row.payment_id)])).to.deep.equal([['double_payment', 'pending', crypto.id]]);
    expect((await dashboard()).doublePayments.waiting - before.waiting).to.equal(1);
    expect((await orderRow(orderId)).state).to.equal(2);
  });

  it('8 parallel POSTs of a renewal pay link make one order and one open Stripe session', async () => {
    const buyer = await loginAs('user', { app });
    const orderId = await placeOrder(buyer, 'EUR');
    await checkout(buyer, 'createcheckoutsession', { orderId }).expect(200);
    const [card] = await paymentsOf(orderId);
    const session = stripe.pay(card.provider_reference);
    expect((await deliverStripe(stripe.webhook(session.id, 'checkout.session.completed'))).status).to.equal(200);
    await activated(orderId);
    const subscription = await subscriptionOf(orderId);
    const periodEnd = new Date(subscription.ends_at).getTime();
    const token = await signRenewalLink(
      { purpose: 'pay', subscriptionId: subscription.id, periodEnd, expiresAt: periodEnd + 86_400_000 },
      harness().config.tokenSecret,
    );
    const created = stripe.requests.create;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        api(app)
          .post('/api/subscribe/autorenew/pay')
          .type('form')
          .send(`token=${encodeURIComponent(token)}`),
      ),
    );
    expect(answers.map((answer) => answer.status)).to.deep.equal(Array(8).fill(303));
    expect(new Set(answers.map((answer) => answer.headers.location)).size).to.equal(1);
    expect(stripe.requests.create - created).to.equal(1);
    const charges = await knex()('renewal_charges').where({ subscription_id: subscription.id });
    expect(charges).to.have.length(1);
    const renewalPayments = await paymentsOf(charges[0].order_id);
    expect(renewalPayments.map((row) => [row.provider, row.status])).to.deep.equal([['stripe', 'pending']]);
  });

  it('Payssion: two partial refunds of the same amount are two refunds; staff refund the rest; replays change nothing', async () => {
    const buyer = await loginAs('user', { app });
    const orderId = await placeOrder(buyer, 'KRW');
    await checkout(buyer, 'createcheckoutsessionpayssion', { orderId, pmId: 3 }).expect(200);
    const [payment] = await paymentsOf(orderId);
    const transactionId = payment.provider_reference;
    payssion.setState(transactionId, 'completed');
    expect((await deliverPayssion(payssion.notification(transactionId))).status).to.equal(200);
    await activated(orderId);

    const first = payssion.refundedNotification(transactionId, { refund: payssion.dashboardRefund(transactionId, '1000') });
    expect((await deliverPayssion(first)).status).to.equal(200);
    const second = payssion.refundedNotification(transactionId, { refund: payssion.dashboardRefund(transactionId, '1000') });
    expect((await deliverPayssion(second)).status).to.equal(200);
    expect((await deliverPayssion(first)).status).to.equal(200);
    expect(await ledgerOf(orderId)).to.deep.equal([
      ['refund', 'succeeded', 1000],
      ['refund', 'succeeded', 1000],
    ]);
    // ₩6,900 less the 5 % fee (₩345) less the ₩2,000 already back.
    expect(await quoteOf(orderId)).to.include({ access: 'active', refunded: 2000, refund: 4555, refundable: true });

    const { body } = await api(app).post('/api/order/refund').set(admin.auth).send({ orderId, reason: 'the buyer asked' }).expect(200);
    expect(body.refund).to.include({ provider: 'payssion', amount: 4555, status: 'succeeded' });
    expect(payssion.lastRefund!.params).to.include({ transaction_id: transactionId, amount: '4555', currency: 'KRW' });
    expect((await orderRow(orderId)).state).to.equal(5);
    const rest = payssion.refundedNotification(transactionId);
    expect((await deliverPayssion(rest)).status).to.equal(200);
    expect((await deliverPayssion(second)).status).to.equal(200);
    const subjects = await refundSubjectsOf(orderId);
    expect(subjects).to.have.length(3);
    expect(subjects.at(-1)).to.equal(body.refund.providerRefundId);
    expect(await quoteOf(orderId)).to.include({ access: 'refunded', refunded: 6555, refundable: false });
  });

  it('Payssion: a refund notification carrying the payment’s own transaction id names the refund by its amount', async () => {
    const buyer = await loginAs('user', { app });
    const orderId = await placeOrder(buyer, 'KRW');
    await checkout(buyer, 'createcheckoutsessionpayssion', { orderId, pmId: 4 }).expect(200);
    const [payment] = await paymentsOf(orderId);
    const transactionId = payment.provider_reference;
    payssion.setState(transactionId, 'completed');
    expect((await deliverPayssion(payssion.notification(transactionId))).status).to.equal(200);
    await activated(orderId);
    payssion.dashboardRefund(transactionId, '1500');
    const refunded = payssion.refundedNotification(transactionId, { tamper: { transaction_id: transactionId } });
    expect((await deliverPayssion(refunded)).status).to.equal(200);
    expect((await deliverPayssion(refunded)).status).to.equal(200);
    expect(await refundSubjectsOf(orderId)).to.deep.equal(['refund:1500']);
    expect(await quoteOf(orderId)).to.include({ access: 'active', refunded: 1500 });
  });

  it('CoinPal chargeback ends access like a Stripe chargeback, in the ledger; a claim CoinPal denies and a replay change nothing', async () => {
    const buyer = await loginAs('user', { app });
    const orderId = await placeOrder(buyer, 'EUR');
    await checkout(buyer, 'createcheckoutsessioncoinpal', { orderId }).expect(200);
    const [payment] = await paymentsOf(orderId);
    coinpal.setStatus(payment.provider_reference, 'paid');
    expect((await deliverCoinPal(coinpal.notification(payment.provider_reference))).status).to.equal(200);
    await activated(orderId);

    // Signed, but CoinPal's query still says paid: nothing happens.
    expect((await deliverCoinPal(coinpal.notification(payment.provider_reference, { status: 'chargeback' }))).status).to.equal(200);
    expect((await orderRow(orderId)).state).to.equal(2);

    coinpal.setStatus(payment.provider_reference, 'chargeback');
    const chargeback = coinpal.notification(payment.provider_reference);
    const answer = await deliverCoinPal(chargeback);
    expect(answer.status).to.equal(200);
    expect(answer.body).to.equal('success');
    expect((await orderRow(orderId)).state).to.equal(5);
    expect((await subscriptionOf(orderId)).status).to.equal('refunded');
    expect(await ledgerOf(orderId)).to.deep.equal([['chargeback', 'succeeded', 499]]);
    expect((await panelOf(buyer)).subscribers).to.deep.equal([]);
    for (const again of await Promise.all([deliverCoinPal(chargeback), deliverCoinPal(chargeback)])) expect(again.status).to.equal(200);
    expect(await ledgerOf(orderId)).to.deep.equal([['chargeback', 'succeeded', 499]]);
    expect(await quoteOf(orderId)).to.include({ access: 'charged_back', refundable: false });
  });

  it('Stripe does not answer the refund of a second payment: it stays pending, and reconciliation sends the same refund once', async () => {
    const buyer = await loginAs('user', { app });
    const orderId = await placeOrder(buyer, 'EUR');
    await checkout(buyer, 'createcheckoutsessioncoinpal', { orderId }).expect(200);
    await checkout(buyer, 'createcheckoutsession', { orderId }).expect(200);
    const [crypto, card] = await paymentsOf(orderId);
    coinpal.setStatus(crypto.provider_reference, 'paid');
    expect((await deliverCoinPal(coinpal.notification(crypto.provider_reference))).status).to.equal(200);
    await activated(orderId);
    const session = stripe.pay(card.provider_reference);
    // The refund call: the paid event also asks Stripe for the card's fingerprint first.
    stripe.failNext(500, undefined, 'refund');
    expect((await deliverStripe(stripe.webhook(session.id, 'checkout.session.completed'))).status).to.equal(200);
    expect((await refundsOf(orderId)).map((row) => [row.source, row.status])).to.deep.equal([['double_payment', 'pending']]);
    expect(stripe.payment(session.payment_intent!).refunds).to.have.length(0);
    await reconcile(); // too soon: it may still be under way
    expect(stripe.payment(session.payment_intent!).refunds).to.have.length(0);
    harness().clock.advance(6 * 60_000); // last in this file: Stripe's signatures are checked against this clock
    await reconcile();
    await reconcile();
    expect(stripe.payment(session.payment_intent!).refunds.map((refund) => refund.amount)).to.deep.equal([499]);
    expect((await refundsOf(orderId)).map((row) => [row.source, row.status])).to.deep.equal([['double_payment', 'succeeded']]);
    expect((await orderRow(orderId)).state).to.equal(2);
    harness().clock.advance(-6 * 60_000);
  });
});
