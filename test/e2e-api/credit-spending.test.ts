import { expect } from 'chai';
import type { Express } from 'express';
import { CatalogService, CheckoutFlow, CreditService, money, type CurrencyCode } from '@subshare/core';
import { listen } from '@subshare/http';
import { api, loginAs, type TestUser } from '../support/agent.js';
import { buyByCard, moveClockTo, remindersDelivered, useRenewalShop } from '../support/auto-renewal.js';
import { FakeCoinPal } from '../support/fake-coinpal.js';
import { FakeStripe } from '../support/fake-stripe.js';
import { createAccount, createPlatform, type TestPlatform } from '../support/shop.js';
import { harness, useWorker } from '../support/harness.js';
import { waitFor } from '../support/wait.js';

useWorker();

const DAY = 24 * 3600_000;

/**
 * Spending credit (issue 37, items 4 and 5) through the HTTP API, against the local Stripe server:
 * credit pays first and Stripe is asked only for the rest (the amount it received is checked), the
 * buyer can opt out, an order wholly covered by credit is paid and activated without a provider,
 * credit comes back from a checkout that was never paid, a manual and an automatic renewal spend
 * credit first, and a refund gives credit back before money. Repeats change nothing.
 */
describe('spending credit (checkout, renewal, refund)', function () {
  this.timeout(60_000);
  const shop = useRenewalShop();
  const knex = () => harness().knex;
  const clock = () => harness().clock;
  let stripe: FakeStripe;
  let credit: CreditService;
  /** Logged in by each refund test (the clock moves on between tests, past a session's life). */
  let admin: TestUser;
  before(() => {
    stripe = shop.stripe;
    credit = harness().container.get(CreditService);
  });

  let earned = 0;
  /** The buyer earns credit, as a referral reward would (CreditService.earn through the container). */
  async function giveCredit(buyer: TestUser, minor: number, currency: CurrencyCode = 'EUR'): Promise<void> {
    earned += 1;
    await knex().transaction((trx) => credit.earn(buyer.id, money(minor, currency), { key: `test:earn:${buyer.id}:${earned}` }, trx));
  }
  const available = async (buyer: TestUser, currency: CurrencyCode = 'EUR') => (await credit.available(buyer.id, currency)).amount;
  const creditRows = (buyer: TestUser) => knex()('credit_entries').where({ user_id: buyer.id }).orderBy('id');
  const orderRow = (id: number) => knex()('orders').where({ id }).first();
  const paymentsOf = (orderId: number) => knex()('payments').where({ order_id: orderId }).orderBy('id');
  const webhook = (delivery: ReturnType<FakeStripe['webhook']>) => stripe.deliver(`${shop.base}/api/webhook/stripe`, delivery);
  const signedNow = () => ({ timestamp: Math.floor(clock().now().getTime() / 1000) });
  const sessionOf = (orderId: number) => [...stripe.sessions.values()].filter((session) => session.metadata.orderId === String(orderId));
  const unitAmount = (params: Record<string, unknown>) =>
    Number(((params.line_items as Array<Record<string, unknown>>)[0].price_data as Record<string, unknown>).unit_amount);

  async function newBuyerWithOrder(currency: CurrencyCode = 'EUR'): Promise<{ buyer: TestUser; orderId: number }> {
    const buyer = await loginAs('user', { app: shop.app });
    const { platform } = shop;
    const { body } = await api(shop.app)
      .post('/api/order/insert')
      .set(buyer.auth)
      .send({ platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId, languageId: 1, currency })
      .expect(200);
    return { buyer, orderId: body.id };
  }

  const checkout = (buyer: TestUser, body: Record<string, unknown>) => api(shop.app).post('/api/payment/createcheckoutsession').set(buyer.auth).send(body);

  /** The buyer pays the order's newest Stripe session; the signed webhook applies it. */
  async function payAtStripe(orderId: number): Promise<void> {
    const session = sessionOf(orderId).at(-1)!;
    stripe.pay(session.id);
    expect((await webhook(stripe.webhook(session.id, 'checkout.session.completed', signedNow()))).status).to.equal(200);
    await waitFor(async () => (await orderRow(orderId)).state === 2, { what: `order ${orderId} activated` });
  }

  it('spends credit first and asks Stripe only for the rest; a replayed webhook changes nothing', async () => {
    const { buyer, orderId } = await newBuyerWithOrder();
    await giveCredit(buyer, 200);
    const started = await checkout(buyer, { orderId }).expect(200);
    expect(started.body.url).to.match(/^http/);
    // €4.99 less €2.00 of credit: Stripe's session is for €2.99.
    expect(unitAmount(stripe.lastCreate!.params)).to.equal(299);
    const [payment] = await paymentsOf(orderId);
    expect(payment).to.include({ provider: 'stripe', status: 'pending' });
    expect([Number(payment.amount_minor), Number(payment.credit_minor)]).to.deep.equal([499, 200]);
    expect(await available(buyer)).to.equal(0);

    await payAtStripe(orderId);
    expect((await paymentsOf(orderId))[0].status).to.equal('paid');
    // The ledger's payment row is the whole amount (the policy's fee reads it), the order says what credit paid.
    const ledger = await knex()('money_events').where({ order_id: orderId, kind: 'payment' });
    expect(ledger.map((row: { amount_minor: string }) => Number(row.amount_minor))).to.deep.equal([499]);
    const order = (await api(shop.app).get('/api/order/getorder').query({ id: orderId }).set(buyer.auth).expect(200)).body;
    expect(order).to.include({ total: 4.99, creditApplied: 2, toPay: 2.99 });

    // The same webhook again: one spend, no release, the order as it was.
    const session = sessionOf(orderId).at(-1)!;
    expect((await webhook(stripe.webhook(session.id, 'checkout.session.completed', signedNow()))).status).to.equal(200);
    const rows = await creditRows(buyer);
    expect(rows.map((row: { kind: string; amount_minor: string }) => [row.kind, Number(row.amount_minor)])).to.deep.equal([
      ['earned', 200],
      ['spent', 200],
    ]);
    expect((await orderRow(orderId)).state).to.equal(2);
  });

  it('leaves the credit when the buyer opts out (useCredit: false)', async () => {
    const { buyer, orderId } = await newBuyerWithOrder();
    await giveCredit(buyer, 200);
    await checkout(buyer, { orderId, useCredit: false }).expect(200);
    expect(unitAmount(stripe.lastCreate!.params)).to.equal(499);
    expect(Number((await paymentsOf(orderId))[0].credit_minor)).to.equal(0);
    const order = (await api(shop.app).get('/api/order/getorder').query({ id: orderId }).set(buyer.auth).expect(200)).body;
    expect(order).to.include({ creditApplied: 0, toPay: 4.99 });
    await checkout(buyer, { orderId, useCredit: 'no' }).expect(400);
    await payAtStripe(orderId);
    expect(await available(buyer)).to.equal(200);
  });

  it('pays and activates an order wholly covered by credit without any provider, and answers the shop’s result page', async () => {
    const { buyer, orderId } = await newBuyerWithOrder();
    await giveCredit(buyer, 1000);
    const sessionsBefore = stripe.sessions.size;
    const { body } = await checkout(buyer, { orderId }).expect(200);
    expect(body.url).to.equal(`${shop.base}/paymentresult/${orderId}/1`);
    expect(stripe.sessions.size).to.equal(sessionsBefore);
    await waitFor(async () => (await orderRow(orderId)).state === 2, { what: 'the credit-paid order activated' });
    const [payment] = await paymentsOf(orderId);
    expect(payment).to.include({ provider: 'credit', status: 'paid' });
    expect([Number(payment.amount_minor), Number(payment.credit_minor)]).to.deep.equal([499, 499]);
    const ledger = await knex()('money_events').where({ order_id: orderId });
    expect(ledger.map((row: { provider: string; kind: string; amount_minor: string }) => [row.provider, row.kind, Number(row.amount_minor)])).to.deep.equal([
      ['credit', 'payment', 499],
    ]);
    expect(await available(buyer)).to.equal(501);
    const order = (await api(shop.app).get('/api/order/getorder').query({ id: orderId }).set(buyer.auth).expect(200)).body;
    expect(order).to.include({ total: 4.99, creditApplied: 4.99, toPay: 0 });
    // The panel shows the subscription like any paid order's.
    const panel = await api(shop.app).get('/api/user/getuserpanel').query({ id: buyer.id, languageId: 1 }).set(buyer.auth).expect(200);
    expect(panel.body.subscribers.length).to.be.greaterThan(0);
    // Paying again: the order is not payable any more, and nothing more is spent.
    await checkout(buyer, { orderId }).expect(409);
    expect(await available(buyer)).to.equal(501);
  });

  it('tells the holder the credit a checkout of the order could spend (creditAvailable), in its currency only', async () => {
    const { buyer, orderId } = await newBuyerWithOrder();
    const getOrder = (reader: TestUser) => api(shop.app).get('/api/order/getorder').query({ id: orderId }).set(reader.auth).expect(200);
    expect((await getOrder(buyer)).body).to.include({ creditAvailable: 0 });
    await giveCredit(buyer, 300);
    expect((await getOrder(buyer)).body).to.include({ total: 4.99, creditAvailable: 3, creditApplied: 0, toPay: 4.99 });
    // A checkout took it: the order's open checkout holds it, and a new checkout would take it again.
    await checkout(buyer, { orderId }).expect(200);
    expect(await available(buyer)).to.equal(0);
    expect((await getOrder(buyer)).body).to.include({ creditAvailable: 3, creditApplied: 3, toPay: 1.99 });
    // Staff reading the buyer's order see the order's figures, not the buyer's credit.
    const staff = await loginAs('admin', { app: shop.app });
    expect((await getOrder(staff)).body).to.include({ creditApplied: 3, creditAvailable: 0 });
    expect((await getOrder(staff)).body.minimumToPay).to.deep.equal([]);
    // A KRW order offers KRW credit only: the buyer has none (a new order's answer says so from the start).
    const { platform } = shop;
    const inserted = await api(shop.app)
      .post('/api/order/insert')
      .set(buyer.auth)
      .send({ platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId, languageId: 1, currency: 'KRW' })
      .expect(200);
    expect(inserted.body).to.include({ currencyCode: 'KRW', creditAvailable: 0 });
  });

  it('leaves at least Stripe’s minimum charge (€0.50) to pay at a card checkout: €4.90 of credit on €4.99 spends €4.49', async () => {
    // Spending all €4.90 would ask Stripe for €0.09, below its minimum: Stripe refuses such a
    // session (400 amount_too_small), so credit pays less and the card exactly the minimum.
    const { buyer, orderId } = await newBuyerWithOrder();
    await giveCredit(buyer, 490);
    const getOrder = () => api(shop.app).get('/api/order/getorder').query({ id: orderId }).set(buyer.auth).expect(200);
    const answer = (await getOrder()).body;
    expect(answer).to.include({ total: 4.99, creditAvailable: 4.9 });
    expect(answer.minimumToPay).to.deep.include({ pmId: 1, amount: 0.5 });
    await checkout(buyer, { orderId }).expect(200);
    expect(unitAmount(stripe.lastCreate!.params)).to.equal(50);
    const [payment] = await paymentsOf(orderId);
    expect([Number(payment.amount_minor), Number(payment.credit_minor)]).to.deep.equal([499, 449]);
    expect(await available(buyer)).to.equal(41);
    expect((await getOrder()).body).to.include({ creditApplied: 4.49, toPay: 0.5 });
    await payAtStripe(orderId);
    expect(await available(buyer)).to.equal(41);
  });

  it('credit that covers the whole total still pays it all, whatever the minimum', async () => {
    const { buyer, orderId } = await newBuyerWithOrder();
    await giveCredit(buyer, 499);
    const started = await checkout(buyer, { orderId }).expect(200);
    expect(started.body.url).to.contain(`/paymentresult/${orderId}/1`);
    expect((await paymentsOf(orderId))[0]).to.include({ provider: 'credit', status: 'paid' });
    expect(await available(buyer)).to.equal(0);
  });

  it('gives credit back from a checkout left for a new one, and from one that expired unpaid, once', async () => {
    const { buyer, orderId } = await newBuyerWithOrder();
    await giveCredit(buyer, 300);
    await checkout(buyer, { orderId }).expect(200);
    expect(unitAmount(stripe.lastCreate!.params)).to.equal(199);
    expect(await available(buyer)).to.equal(0);
    // The buyer goes back and pays without credit: the first session is closed, its credit released.
    await checkout(buyer, { orderId, useCredit: false }).expect(200);
    expect(unitAmount(stripe.lastCreate!.params)).to.equal(499);
    const [first] = await paymentsOf(orderId);
    expect(first.status).to.equal('expired');
    expect(sessionOf(orderId)[0].status).to.equal('expired');
    expect(await available(buyer)).to.equal(300);
    // And back to credit: the second session is closed, the third spends the released credit.
    await checkout(buyer, { orderId }).expect(200);
    expect(unitAmount(stripe.lastCreate!.params)).to.equal(199);
    expect(await available(buyer)).to.equal(0);
    // The order is never paid: a day later it expires and the credit comes back, once.
    moveClockTo(clock().now().getTime() + DAY + 3600_000);
    const expire = harness().container.get(CheckoutFlow);
    await expire.expireUnpaid();
    expect((await orderRow(orderId)).state).to.equal(4);
    expect(await available(buyer)).to.equal(300);
    await expire.expireUnpaid();
    const kinds = (await creditRows(buyer)).map((row: { kind: string }) => row.kind);
    expect(kinds).to.deep.equal(['earned', 'spent', 'released', 'spent', 'released']);
  });

  it('an automatic renewal spends credit first and charges the card for the rest; wholly covered, Stripe is not asked', async () => {
    // The first purchase with "Renew automatically" is all by card: credit is kept for the renewals.
    const { buyer, subscription, customer } = await buyByCard(shop);
    await giveCredit(buyer, 200);
    expect(await available(buyer)).to.equal(200);
    await shop.renewal.renewDue();
    moveClockTo(new Date(subscription.ends_at.getTime() - 2 * DAY - 3600_000));
    await shop.expiry.remindDue();
    // The reminder says what credit pays and what the card will be charged, not the whole €4.99 on the card.
    const reminder = await harness().mailTo(buyer.email, (message) => /renews on/.test(message.subject));
    expect(reminder.text).to.contain('we will use €2.00 of your credit for the €4.99 and charge the rest, €2.99, to your card ending in 4444');
    expect(reminder.text).to.contain('To be charged to your card: €2.99');
    expect(reminder.text).to.not.contain('we will charge €4.99');
    await remindersDelivered();
    moveClockTo(new Date(subscription.ends_at.getTime() + 60_000));
    const run = await shop.renewal.renewDue();
    expect(run.charges.filter((charge) => charge.subscriptionId === subscription.id).map((charge) => charge.outcome)).to.deep.equal(['succeeded']);
    const intents = stripe.offSessionCharges().filter((intent) => intent.customer === customer);
    expect(intents.map((intent) => intent.amount)).to.deep.equal([299]);
    expect(await available(buyer)).to.equal(0);
    await waitFor(async () => (await knex()('subscriptions').where({ id: subscription.id }).first()).ends_at.getTime() > subscription.ends_at.getTime(), {
      what: 'the subscription extended',
    });
    const receipt = await harness().mailTo(buyer.email, (message) => /^Receipt/.test(message.subject));
    expect(receipt.text).to.contain('We used €2.00 of your credit and charged the rest, €2.99, to your card ending in 4444.');
    expect(receipt.text).to.contain('Credit applied: -€2.00');
    expect(receipt.text).to.contain('Paid: €2.99');

    // The next period: credit covers it all, so no PaymentIntent at all.
    await giveCredit(buyer, 1000);
    const renewed = await knex()('subscriptions').where({ id: subscription.id }).first();
    moveClockTo(new Date(renewed.ends_at.getTime() - 2 * DAY - 3600_000));
    await shop.expiry.remindDue();
    const secondReminder = await harness().mailTo(buyer.email, (message) => /renews on/.test(message.subject) && message !== reminder);
    expect(secondReminder.text).to.contain('your credit pays the €4.99, so nothing is charged to your card');
    await remindersDelivered();
    moveClockTo(new Date(renewed.ends_at.getTime() + 60_000));
    const second = await shop.renewal.renewDue();
    expect(second.charges.filter((charge) => charge.subscriptionId === subscription.id).map((charge) => charge.outcome)).to.deep.equal(['succeeded']);
    expect(stripe.offSessionCharges().filter((intent) => intent.customer === customer)).to.have.length(1);
    const charge = await knex()('renewal_charges').where({ subscription_id: subscription.id }).orderBy('id', 'desc').first();
    const [payment] = await paymentsOf(charge.order_id);
    expect(payment).to.include({ provider: 'credit', status: 'paid' });
    expect(await available(buyer)).to.equal(501);
    await waitFor(async () => (await knex()('subscriptions').where({ id: subscription.id }).first()).ends_at.getTime() > renewed.ends_at.getTime(), {
      what: 'the subscription extended by credit',
    });
    const secondReceipt = await harness().mailTo(buyer.email, (message) => /^Receipt/.test(message.subject) && message !== receipt);
    expect(secondReceipt.text).to.contain('Your credit paid the €4.99, so nothing was charged to your card.');
    expect(secondReceipt.text).to.not.contain('4444');
  });

  it('an automatic renewal leaves at least Stripe’s minimum (€0.50) to charge the card off-session', async () => {
    const { buyer, subscription, customer } = await buyByCard(shop);
    // €4.90 of credit on €4.99: the card would be charged €0.09, which Stripe refuses.
    await giveCredit(buyer, 490);
    await shop.renewal.renewDue();
    moveClockTo(new Date(subscription.ends_at.getTime() - 2 * DAY - 3600_000));
    await shop.expiry.remindDue();
    const reminder = await harness().mailTo(buyer.email, (message) => /renews on/.test(message.subject));
    expect(reminder.text).to.contain('To be charged to your card: €0.50');
    await remindersDelivered();
    moveClockTo(new Date(subscription.ends_at.getTime() + 60_000));
    const run = await shop.renewal.renewDue();
    expect(run.charges.filter((charge) => charge.subscriptionId === subscription.id).map((charge) => charge.outcome)).to.deep.equal(['succeeded']);
    expect(
      stripe
        .offSessionCharges()
        .filter((intent) => intent.customer === customer)
        .map((intent) => intent.amount),
    ).to.deep.equal([50]);
    expect(await available(buyer)).to.equal(41);
  });

  it('a manual renewal paid through its link spends credit too', async () => {
    const { buyer, subscription, card } = await buyByCard(shop);
    await shop.renewal.renewDue();
    stripe.cardBehaves(card.id, 'authentication_required');
    moveClockTo(new Date(subscription.ends_at.getTime() - 2 * DAY - 3600_000));
    await shop.expiry.remindDue();
    await remindersDelivered();
    moveClockTo(new Date(subscription.ends_at.getTime() + 60_000));
    await shop.renewal.renewDue();
    const mail = await harness().mailTo(buyer.email, (message) => /\/api\/subscribe\/autorenew\/pay\?token=/.test(message.text ?? ''));
    const link = /https?:\/\/\S+\/api\/subscribe\/autorenew\/pay\?token=[\w%.-]+/.exec(mail.text)![0];
    const token = decodeURIComponent(new URL(link).searchParams.get('token')!);
    // The charge that needed authentication gave its credit back (none was there yet); now the buyer has some.
    await giveCredit(buyer, 150);
    const started = await api(shop.app).post('/api/subscribe/autorenew/pay').type('form').send({ token }).expect(303);
    const session = [...stripe.sessions.values()].find((candidate) => started.headers.location === candidate.url)!;
    expect(session.amount_total).to.equal(349);
    stripe.pay(session.id);
    expect((await webhook(stripe.webhook(session.id, 'checkout.session.completed', signedNow()))).status).to.equal(200);
    await waitFor(async () => (await knex()('subscriptions').where({ id: subscription.id }).first()).ends_at.getTime() > subscription.ends_at.getTime(), {
      what: 'the subscription extended',
    });
    expect(await available(buyer)).to.equal(0);
  });

  it('a refund of an order paid partly with credit gives credit back first, money for the rest, and ends access; a second refund is refused', async () => {
    admin = await loginAs('admin', { app: shop.app });
    const { buyer, orderId } = await newBuyerWithOrder();
    await giveCredit(buyer, 200);
    await checkout(buyer, { orderId }).expect(200);
    await payAtStripe(orderId);
    const quote = (await api(shop.app).get('/api/order/refundquote').set(admin.auth).query({ orderId }).expect(200)).body;
    const refundMinor = Math.round(quote.refund * 100);
    expect(refundMinor).to.be.greaterThan(200);
    expect(quote).to.include({ refundAsCredit: 2, provider: 'stripe', manual: false });
    const { body } = await api(shop.app).post('/api/order/refund').set(admin.auth).send({ orderId, reason: 'asked within a day' }).expect(200);
    expect(body).to.include({ orderId, state: 5 });
    expect(body.refund).to.include({ status: 'succeeded', amount: refundMinor / 100, credit: 2 });
    // Stripe was asked for the money part only.
    expect(Number(stripe.lastRefund!.params.amount)).to.equal(refundMinor - 200);
    // The buyer's credit is back (a new lot), and the ledger has both parts.
    expect(await available(buyer)).to.equal(200);
    const refunds = await knex()('money_events').where({ order_id: orderId, kind: 'refund' }).orderBy('id');
    expect(
      refunds.map((row: { provider: string; status: string; amount_minor: string }) => [row.provider, row.status, Number(row.amount_minor)]),
    ).to.deep.equal([
      ['credit', 'succeeded', 200],
      ['stripe', 'succeeded', refundMinor - 200],
    ]);
    // Access ended as the policy says: the order refunded, the panel empty of it.
    const panel = await api(shop.app).get('/api/user/getuserpanel').query({ id: buyer.id, languageId: 1 }).set(buyer.auth).expect(200);
    expect(panel.body.subscribers).to.have.length(0);
    await api(shop.app).post('/api/order/refund').set(admin.auth).send({ orderId, reason: 'again' }).expect(409);
    expect(await available(buyer)).to.equal(200);
    expect((await creditRows(buyer)).map((row: { kind: string }) => row.kind)).to.deep.equal(['earned', 'spent', 'returned']);
  });

  it('the dashboard counts money taken, not credit spent or given back, and shows the credit the shop owes', async () => {
    admin = await loginAs('admin', { app: shop.app });
    const dashboard = async () => (await api(shop.app).get('/api/admin/dashboard').set(admin.auth).expect(200)).body;
    const today = (body: { revenueEur: Array<{ totalEur: number }> }) => Math.round(body.revenueEur.at(-1)!.totalEur * 100);
    const owed = async () => {
      const rows = await knex()('credit_entries')
        .select('currency')
        .sum({ owed: knex().raw("case when kind in ('earned', 'returned', 'released') then amount_minor else -amount_minor end") })
        .groupBy('currency');
      return Object.fromEntries((rows as Array<{ currency: string; owed: string }>).map((row) => [row.currency, Number(row.owed) / 100]));
    };
    const before = await dashboard();

    // Wholly paid by credit: no money taken.
    const covered = await newBuyerWithOrder();
    await giveCredit(covered.buyer, 600);
    await checkout(covered.buyer, { orderId: covered.orderId }).expect(200);
    await waitFor(async () => (await orderRow(covered.orderId)).state === 2, { what: 'the credit-paid order activated' });
    const afterCovered = await dashboard();
    expect(today(afterCovered)).to.equal(today(before));

    // Partly: the €2.99 Stripe took.
    const partly = await newBuyerWithOrder();
    await giveCredit(partly.buyer, 200);
    await checkout(partly.buyer, { orderId: partly.orderId }).expect(200);
    await payAtStripe(partly.orderId);
    const afterPartly = await dashboard();
    expect(today(afterPartly)).to.equal(today(before) + 299);

    // Its refund takes back only the money Stripe gave back, not the credit returned.
    await api(shop.app).post('/api/order/refund').set(admin.auth).send({ orderId: partly.orderId, reason: 'asked within a day' }).expect(200);
    const moneyBack = Number(stripe.lastRefund!.params.amount);
    const afterRefund = await dashboard();
    expect(today(afterRefund)).to.equal(today(before) + 299 - moneyBack);
    const outstanding = Object.fromEntries(
      afterRefund.outstandingCredit.map((entry: { currencyCode: string; amount: number }) => [entry.currencyCode, entry.amount]),
    );
    expect(outstanding).to.deep.equal(await owed());
    expect(outstanding.EUR).to.be.greaterThan(0);
  });

  it('a refund smaller than the credit used is all credit: Stripe is not asked', async () => {
    admin = await loginAs('admin', { app: shop.app });
    // In KRW: a euro card part is at least Stripe's €0.50, more than the 5 % fee on €4.99, so a
    // full refund of a euro order always reaches the card. ₩6,700 of credit on ₩6,900 leaves ₩200
    // to the card; the refund (₩6,900 less the 5 % fee: ₩6,555) is less than the credit used.
    const { buyer, orderId } = await newBuyerWithOrder('KRW');
    await giveCredit(buyer, 6700, 'KRW');
    await checkout(buyer, { orderId }).expect(200);
    expect(unitAmount(stripe.lastCreate!.params)).to.equal(200);
    const refundsBefore = stripe.log.filter((entry) => entry.path === '/v1/refunds' && entry.method === 'POST').length;
    await payAtStripe(orderId);
    const quote = (await api(shop.app).get('/api/order/refundquote').set(admin.auth).query({ orderId }).expect(200)).body;
    // KRW has no minor unit: the quote's won are the ledger's.
    const refundMinor = Math.round(quote.refund);
    expect(refundMinor).to.be.at.most(6700);
    expect(quote.refundAsCredit).to.equal(quote.refund);
    await api(shop.app).post('/api/order/refund').set(admin.auth).send({ orderId, reason: 'asked within a day' }).expect(200);
    expect(stripe.log.filter((entry) => entry.path === '/v1/refunds' && entry.method === 'POST')).to.have.length(refundsBefore);
    expect(await available(buyer, 'KRW')).to.equal(refundMinor);
    expect((await orderRow(orderId)).state).to.equal(5);
  });
});

/**
 * A CoinPal page left open (CoinPal has no call that closes it) while the buyer pays by card: the
 * card checkout takes the credit back from the CoinPal payment and spends it, so when the CoinPal
 * page is paid as well, that second payment holds no credit, and its refund gives none back.
 */
describe('spending credit with a checkout left open (one order, one payment)', function () {
  this.timeout(60_000);
  const stripe = new FakeStripe();
  const coinpal = new FakeCoinPal();
  const stops: Array<() => Promise<void>> = [];
  let app: Express;
  let base: string;
  before(async () => {
    stops.push((await stripe.start()).stop);
    stops.push((await coinpal.start()).stop);
    const world = harness().appWith({ ...stripe.env, ...coinpal.env });
    app = world.app;
    const server = await listen(app, 0, '127.0.0.1');
    base = server.url;
    stops.push(server.close);
    const platform = await createPlatform({ slotsCount: 2 });
    await createAccount(platform.id, 2);
    world.container.get(CatalogService).invalidate();
    shopPlatform = platform;
  });
  after(async () => {
    for (const stop of stops.reverse()) await stop();
  });
  let shopPlatform: TestPlatform;

  it('the second payment gives back only the credit it still holds: none, and its money waits for staff', async () => {
    const knex = harness().knex;
    const credit = harness().container.get(CreditService);
    const buyer = await loginAs('user', { app });
    await knex.transaction((trx) => credit.earn(buyer.id, money(200, 'EUR'), { key: `test:open:${buyer.id}` }, trx));
    const { body: order } = await api(app)
      .post('/api/order/insert')
      .set(buyer.auth)
      .send({ platformId: shopPlatform.id, typeId: shopPlatform.typeId, durationId: shopPlatform.durationId, languageId: 1, currency: 'EUR' })
      .expect(200);
    await api(app).post('/api/payment/createcheckoutsessioncoinpal').set(buyer.auth).send({ orderId: order.id }).expect(200);
    await api(app).post('/api/payment/createcheckoutsession').set(buyer.auth).send({ orderId: order.id }).expect(200);
    const [crypto, card] = await knex('payments').where({ order_id: order.id }).orderBy('id');
    expect([crypto.provider, crypto.status, Number(crypto.credit_minor)]).to.deep.equal(['coinpal', 'pending', 200]);
    expect([card.provider, Number(card.credit_minor)]).to.deep.equal(['stripe', 200]);
    expect(stripe.session(card.provider_reference).amount_total).to.equal(299);
    expect((await credit.available(buyer.id, 'EUR')).amount).to.equal(0);

    const session = stripe.pay(card.provider_reference);
    expect(
      (
        await stripe.deliver(
          `${base}/api/webhook/stripe`,
          stripe.webhook(session.id, 'checkout.session.completed', { timestamp: Math.floor(harness().clock.now().getTime() / 1000) }),
        )
      ).status,
    ).to.equal(200);
    await waitFor(async () => (await knex('orders').where({ id: order.id }).first()).state === 2, { what: 'the order activated' });
    coinpal.setStatus(crypto.provider_reference, 'paid');
    const notification = coinpal.notification(crypto.provider_reference);
    for (const delivery of [notification, notification]) {
      const answer = await coinpal.deliver(`${base}/api/webhook/coinpal`, delivery);
      expect(answer.status, answer.body).to.equal(200);
    }

    const [refund] = await knex('refunds').where({ order_id: order.id, source: 'double_payment' });
    expect([Number(refund.payment_id), Number(refund.amount_minor), Number(refund.credit_minor), refund.status]).to.deep.equal([
      crypto.id,
      499,
      200,
      'pending',
    ]);
    // The buyer spent the credit once (on the card payment, which stands): nothing more comes back.
    expect((await credit.available(buyer.id, 'EUR')).amount).to.equal(0);
    const kinds = (await knex('credit_entries').where({ user_id: buyer.id }).orderBy('id')).map((row: { kind: string; amount_minor: string }) => [
      row.kind,
      Number(row.amount_minor),
    ]);
    expect(kinds).to.deep.equal([
      ['earned', 200],
      ['spent', 200],
      ['released', 200],
      ['spent', 200],
    ]);
    expect((await knex('orders').where({ id: order.id }).first()).state).to.equal(2);
  });
});
