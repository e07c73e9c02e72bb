import { expect } from 'chai';
import type { Express } from 'express';
import type { Container } from 'inversify';
import { CheckoutFlow, PaymentNotificationFlow } from '@subshare/core';
import { listen } from '@subshare/http';
import { api, createUser, loginAs, type TestUser } from '../support/agent.js';
import { FakeCoinPal } from '../support/fake-coinpal.js';
import { FakePayssion } from '../support/fake-payssion.js';
import { FakeStripe } from '../support/fake-stripe.js';
import { harness, useWorker } from '../support/harness.js';
import { waitFor } from '../support/wait.js';

useWorker();

/**
 * Money moves only on a verified provider signal, exactly once: each method end to end against
 * local servers that speak Stripe's, CoinPal's and Payssion's protocols, then replayed, raced,
 * reordered, forged and mismatched notifications.
 */
describe('orders and payments (API against local provider servers)', function () {
  this.timeout(60_000);
  const stripe = new FakeStripe();
  const coinpal = new FakeCoinPal({ currencies: ['EUR', 'KRW'] } as ConstructorParameters<typeof FakeCoinPal>[0]);
  const payssion = new FakePayssion();
  let app: Express;
  let container: Container;
  let base: string;
  const stops: Array<() => Promise<void>> = [];
  let buyer: TestUser;

  const nowSeconds = () => Math.floor(harness().clock.now().getTime() / 1000);
  const knex = () => harness().knex;
  const order = (id: number) => knex()('orders').where({ id }).first();
  const paymentsOf = (orderId: number) => knex()('payments').where({ order_id: orderId }).orderBy('id');

  before(async () => {
    for (const fake of [stripe, coinpal, payssion]) stops.push((await fake.start()).stop);
    const world = harness().appWith({
      ...stripe.env,
      ...coinpal.env,
      ...payssion.env,
    });
    app = world.app;
    container = world.container;
    const server = await listen(app, 0, '127.0.0.1');
    base = server.url;
    stops.push(server.close);
    buyer = await loginAs('user', { app });
  });
  after(async () => {
    for (const stop of stops.reverse()) await stop();
  });

  async function newOrder(payload: Record<string, unknown> = {}, who: TestUser = buyer) {
    const res = await api(app)
      .post('/api/order/insert')
      .set(who.auth)
      .send({ platformId: 1, typeId: 1, durationId: 1, quantity: 1, userId: who.id, languageId: 1, currency: 'EUR', ...payload })
      .expect(200);
    return res.body;
  }

  async function checkout(path: string, body: Record<string, unknown>, who: TestUser = buyer) {
    const res = await api(app).post(`/api/payment/${path}`).set(who.auth).send(body).expect(200);
    const [payment] = (await paymentsOf(body.orderId as number)).slice(-1);
    return { url: res.body.url as string, payment };
  }

  const stripeEvent = (sessionId: string, type = 'checkout.session.completed', options: Parameters<FakeStripe['webhook']>[2] = {}) =>
    stripe.webhook(sessionId, type, { timestamp: nowSeconds(), ...options });

  describe('orders', () => {
    it('are priced on the server from the catalog, whatever price or user the client sends', async () => {
      const other = await createUser();
      const body = await newOrder({ price: 0.01, total: 0.01, userId: other.id, currency: 'KRW' });
      const [{ sale_price_minor }] = await knex()('platform_prices').where({ platform_id: 1, duration_id: 1, plan_type_id: 1, currency: 'KRW' });
      expect(body.total).to.equal(sale_price_minor);
      expect(body.currencyId).to.equal(2);
      expect(body.userId).to.equal(buyer.id);
      expect(body.paymentMethod).to.equal(2);
      expect(body.paymentMethods[0]).to.equal(2);
      expect(body.paymentMethods).to.include.members([1, 2, 3, 4, 5, 6]);
      expect(body.items[0]).to.include.keys(
        'platformName',
        'platformColorOne',
        'platformLogoBase',
        'typeName',
        'durationName',
        'haveInvitation',
        'invitationEmail',
      );
      const eur = await newOrder();
      expect(eur.paymentMethods).to.deep.equal([2, 1]);
      expect(Number.isInteger(eur.total * 100)).to.equal(true);
    });

    it('refuse unverified buyers, disabled options and unknown platforms', async () => {
      const unverified = await loginAs('user', { app, verified: false });
      const refused = await api(app).post('/api/order/insert').set(unverified.auth).send({ platformId: 1, typeId: 1, durationId: 1 }).expect(403);
      expect(refused.body.code).to.equal('email_not_verified');
      await api(app).post('/api/order/insert').send({ platformId: 1, typeId: 1, durationId: 1 }).expect(401);
      // Reelnest (2) sells no 12-month plan and no Premium.
      const disabled = await api(app).post('/api/order/insert').set(buyer.auth).send({ platformId: 2, typeId: 2, durationId: 4 }).expect(400);
      expect(disabled.body.errors).to.have.keys('durationId', 'typeId');
      await api(app).post('/api/order/insert').set(buyer.auth).send({ platformId: 99999, typeId: 1, durationId: 1 }).expect(404);
      const bad = await api(app).post('/api/order/insert').set(buyer.auth).send({ platformId: 'one', quantity: 0 }).expect(400);
      expect(bad.body.errors).to.include.keys('platformId', 'quantity', 'typeId', 'durationId');
    });

    it('are invisible to other buyers, and cannot be paid by them', async () => {
      const mine = await newOrder();
      const stranger = await loginAs('user', { app });
      await api(app).get('/api/order/getorder').set(stranger.auth).query({ id: mine.id }).expect(404);
      await api(app).post('/api/payment/createcheckoutsession').set(stranger.auth).send({ orderId: mine.id }).expect(404);
      await api(app).get('/api/order/getorder').set(buyer.auth).query({ id: mine.id }).expect(200);
      await api(app)
        .get('/api/order/getorder')
        .set((await loginAs('moderator', { app })).auth)
        .query({ id: mine.id })
        .expect(200);
    });
  });

  describe('card (Stripe)', () => {
    it('pays end to end: checkout session, signed webhook, state 6, activation, one e-mail', async () => {
      const created = await newOrder();
      const { url, payment } = await checkout('createcheckoutsession', { orderId: created.id });
      expect(url.startsWith(stripe.baseUrl)).to.equal(true);
      const sent = new URLSearchParams(stripe.lastCreate!.rawBody);
      expect(sent.get('line_items[0][price_data][currency]')).to.equal('eur');
      expect(Number(sent.get('line_items[0][price_data][unit_amount]'))).to.equal(Math.round(created.total * 100));
      expect(sent.get('client_reference_id')).to.equal(payment.reference);
      expect((await order(created.id)).state).to.equal(1);

      // The buyer comes back before any notification: nothing is paid yet.
      const early = await api(app).post('/api/payment/process').set(buyer.auth).send({ orderId: created.id }).expect(200);
      expect(early.body.state).to.equal(1);

      stripe.pay(payment.provider_reference);
      const answer = await stripe.deliver(`${base}/api/webhook/stripe`, stripeEvent(payment.provider_reference));
      expect(answer.status).to.equal(200);
      expect((await order(created.id)).state).to.be.oneOf([2, 6]); // paid: waiting, or already activated by the worker
      expect((await paymentsOf(created.id))[0].status).to.equal('paid');
      const mail = await harness().mailTo(buyer.email, (m) => m.text.includes(String(created.id)));
      expect(mail.subject).to.not.equal('');
    });

    it('applies 5 sequential and 20 concurrent copies of one event once', async () => {
      const created = await newOrder();
      const { payment } = await checkout('createcheckoutsession', { orderId: created.id });
      stripe.pay(payment.provider_reference);
      const delivery = stripeEvent(payment.provider_reference);
      for (let copy = 0; copy < 5; copy++) expect((await stripe.deliver(`${base}/api/webhook/stripe`, delivery)).status).to.equal(200);
      const raced = await Promise.all(Array.from({ length: 20 }, () => stripe.deliver(`${base}/api/webhook/stripe`, delivery)));
      expect(raced.map((r) => r.status)).to.deep.equal(Array(20).fill(200));

      expect(await knex()('payment_events').where({ provider: 'stripe', event_id: delivery.event.id })).to.have.length(1);
      expect((await paymentsOf(created.id)).filter((p: { status: string }) => p.status === 'paid')).to.have.length(1);
      expect(await harness().boss.findJobs('order-activate', { data: { orderId: created.id } })).to.have.length(1);
      // One purchase e-mail: "activated" when a slot was free, otherwise "purchased" (waiting).
      const keys = [`order:${created.id}:purchased`, `order:${created.id}:activated`];
      const sent = await waitFor(async () => knex()('email_outbox').whereIn('idempotency_key', keys).where({ status: 'sent' }).first(), {
        what: 'the purchase e-mail to be sent',
      });
      expect(await knex()('email_outbox').whereIn('idempotency_key', keys)).to.have.length(1);
      expect(harness().smtp.messages.filter((m) => m.messageId === sent.message_id)).to.have.length(1);
    });

    it('answers every one of 12 checkouts of one order clicked at once (no deadlock, no timeout), all with one session', async () => {
      const created = await newOrder();
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => api(app).post('/api/payment/createcheckoutsession').set(buyer.auth).send({ orderId: created.id })),
      );
      expect(answers.map((answer) => answer.status)).to.deep.equal(Array(12).fill(200));
      // One order, one payment (issue 34): they take turns, and the first one's open session is everyone's.
      expect(new Set(answers.map((answer) => JSON.stringify(answer.body))).size).to.equal(1);
      const payments = await paymentsOf(created.id);
      expect(payments).to.have.length(1);
      expect((await order(created.id)).state).to.equal(1);
    });

    it('refuses forged, tampered and stale notifications with 400 and changes nothing', async () => {
      const created = await newOrder();
      const { payment } = await checkout('createcheckoutsession', { orderId: created.id });
      stripe.pay(payment.provider_reference);
      for (const options of [{ secret: 'whsec_not_ours' }, { tamper: true }, { timestamp: nowSeconds() - 600 }]) {
        const res = await stripe.deliver(`${base}/api/webhook/stripe`, stripeEvent(payment.provider_reference, 'checkout.session.completed', options));
        expect(res.status).to.equal(400);
      }
      const unsigned = await api(app)
        .post('/api/webhook/stripe')
        .set('Content-Type', 'application/json')
        .send('{"type":"checkout.session.completed"}')
        .expect(400);
      expect(unsigned.body.code).to.equal('invalid_signature');
      expect((await order(created.id)).state).to.equal(1);
      expect((await paymentsOf(created.id))[0].status).to.equal('pending');
    });

    it('ignores a late failure or expiry after the payment, whatever the order of arrival', async () => {
      const created = await newOrder();
      const { payment } = await checkout('createcheckoutsession', { orderId: created.id });
      stripe.pay(payment.provider_reference);
      await stripe.deliver(`${base}/api/webhook/stripe`, stripeEvent(payment.provider_reference));
      await stripe.deliver(`${base}/api/webhook/stripe`, stripeEvent(payment.provider_reference, 'checkout.session.async_payment_failed'));
      await stripe.deliver(`${base}/api/webhook/stripe`, stripeEvent(payment.provider_reference, 'checkout.session.expired'));
      expect((await order(created.id)).state).to.be.oneOf([2, 6]); // paid: waiting, or already activated by the worker
      expect((await paymentsOf(created.id))[0].status).to.equal('paid');
    });

    it('answers 503 and keeps the order payable when Stripe fails or times out', async () => {
      const created = await newOrder();
      stripe.failNext(500);
      const failed = await api(app).post('/api/payment/createcheckoutsession').set(buyer.auth).send({ orderId: created.id }).expect(503);
      expect(failed.body).to.have.keys('message', 'code');
      expect((await paymentsOf(created.id))[0].status).to.equal('failed');
      const retried = await checkout('createcheckoutsession', { orderId: created.id });
      expect(retried.url).to.contain(stripe.baseUrl);
    });

    it('settles a payment whose notification was lost, by asking Stripe (reconciliation)', async () => {
      const created = await newOrder();
      const { payment } = await checkout('createcheckoutsession', { orderId: created.id });
      stripe.pay(payment.provider_reference);
      harness().clock.advance(11 * 60_000);
      await container.get(PaymentNotificationFlow).reconcile();
      expect((await order(created.id)).state).to.be.oneOf([2, 6]); // paid: waiting, or already activated by the worker
    });
  });

  describe('crypto (CoinPal)', () => {
    it('confirms with CoinPal before believing a notification, whose signature does not cover the status', async () => {
      const created = await newOrder();
      const { url, payment } = await checkout('createcheckoutsessioncoinpal', { orderId: created.id });
      expect(url.startsWith(coinpal.baseUrl)).to.equal(true);
      // A genuine-looking "paid" notification while CoinPal says the payment is unpaid.
      const lie = await coinpal.deliver(`${base}/api/webhook/coinpal`, coinpal.notification(payment.provider_reference, { status: 'paid' }));
      expect(lie.status).to.equal(200);
      expect((await order(created.id)).state).to.equal(1);

      coinpal.setStatus(payment.provider_reference, 'paid');
      const truth = await coinpal.deliver(`${base}/api/webhook/coinpal`, coinpal.notification(payment.provider_reference));
      expect(truth.status).to.equal(200);
      expect(truth.body).to.equal('success');
      expect((await order(created.id)).state).to.be.oneOf([2, 6]); // paid: waiting, or already activated by the worker
    });

    it('refuses a forged sign, and answers 503 (to be retried) when CoinPal cannot confirm', async () => {
      const created = await newOrder();
      const { payment } = await checkout('createcheckoutsessioncoinpal', { orderId: created.id });
      expect((await coinpal.deliver(`${base}/api/webhook/coinpal`, coinpal.notification(payment.provider_reference, { forgeSign: true }))).status).to.equal(
        400,
      );
      coinpal.setStatus(payment.provider_reference, 'paid');
      coinpal.failNext(500);
      expect((await coinpal.deliver(`${base}/api/webhook/coinpal`, coinpal.notification(payment.provider_reference))).status).to.equal(503);
      expect((await order(created.id)).state).to.equal(1);
      expect((await coinpal.deliver(`${base}/api/webhook/coinpal`, coinpal.notification(payment.provider_reference))).status).to.equal(200);
      expect((await order(created.id)).state).to.be.oneOf([2, 6]); // paid: waiting, or already activated by the worker
    });
  });

  describe('Korean methods (Payssion)', () => {
    it('pays a KRW order with KakaoPay end to end and answers checksessionpayssion', async () => {
      const created = await newOrder({ currency: 'KRW' });
      const { url, payment } = await checkout('createcheckoutsessionpayssion', { orderId: created.id, pmId: 3 });
      expect(url.startsWith(payssion.baseUrl)).to.equal(true);
      expect(payssion.lastCreate!.params.pm_id).to.equal('kakaopay_kr');
      expect(payssion.lastCreate!.params.amount).to.equal(String(created.total));
      const check = () =>
        api(app).post('/api/payment/checksessionpayssion').set(buyer.auth).send({ orderId: created.id, transactionId: payment.provider_reference }).expect(200);
      expect((await check()).body).to.equal(false);
      // The return URL's order_id is our payment reference; it is accepted as the order id.
      const byReference = await api(app)
        .post('/api/payment/checksessionpayssion')
        .set(buyer.auth)
        .send({ orderId: payment.reference, transactionId: payment.provider_reference })
        .expect(200);
      expect(byReference.body).to.equal(false);

      payssion.setState(payment.provider_reference, 'completed');
      const answer = await payssion.deliver(`${base}/api/webhook/payssion`, payssion.notification(payment.provider_reference));
      expect(answer.status).to.equal(200);
      expect((await check()).body).to.equal(true);
      expect((await order(created.id)).state).to.be.oneOf([2, 6]); // paid: waiting, or already activated by the worker
    });

    it('marks paid from checksessionpayssion alone when the notification never comes, once', async () => {
      const created = await newOrder({ currency: 'KRW' });
      const { payment } = await checkout('createcheckoutsessionpayssion', { orderId: created.id, pmId: 5 });
      payssion.setState(payment.provider_reference, 'completed');
      const checks = await Promise.all(
        Array.from({ length: 5 }, () =>
          api(app).post('/api/payment/checksessionpayssion').set(buyer.auth).send({ orderId: created.id, transactionId: payment.provider_reference }),
        ),
      );
      expect(checks.map((c) => c.body)).to.include(true);
      // The later notification of the same transaction and state is a duplicate.
      await payssion.deliver(`${base}/api/webhook/payssion`, payssion.notification(payment.provider_reference));
      expect((await paymentsOf(created.id)).filter((p: { status: string }) => p.status === 'paid')).to.have.length(1);
      expect(await harness().boss.findJobs('order-activate', { data: { orderId: created.id } })).to.have.length(1);
    });

    it('refuses an amount that does not match the order, and Korean methods for EUR orders', async () => {
      const created = await newOrder({ currency: 'KRW' });
      const { payment } = await checkout('createcheckoutsessionpayssion', { orderId: created.id, pmId: 4 });
      payssion.setState(payment.provider_reference, 'completed');
      const cheap = await payssion.deliver(`${base}/api/webhook/payssion`, payssion.notification(payment.provider_reference, { amount: '100' }));
      expect(cheap.status).to.equal(200);
      expect((await order(created.id)).state).to.equal(1);
      const event = await knex()('payment_events').where({ provider: 'payssion', order_id: created.id }).first();
      expect(event.outcome).to.equal('amount_mismatch');
      expect((await payssion.deliver(`${base}/api/webhook/payssion`, payssion.notification(payment.provider_reference, { forgeSig: true }))).status).to.equal(
        400,
      );

      const eur = await newOrder();
      const refused = await api(app).post('/api/payment/createcheckoutsessionpayssion').set(buyer.auth).send({ orderId: eur.id, pmId: 3 }).expect(400);
      expect(refused.body.code).to.equal('method_unavailable');
      await api(app).post('/api/payment/createcheckoutsessionpayssion').set(buyer.auth).send({ orderId: eur.id, pmId: 9 }).expect(400);
    });
  });

  // Each provider signs only some fields. A genuine notification for order X whose other
  // fields are changed to point at order Y must neither pay Y nor be booked under Y.
  describe('a notification pays only the order its signature names', () => {
    const eventsOf = (orderId: number) => knex()('payment_events').where({ order_id: orderId });

    async function unpaidAfter(victim: { id: number }) {
      expect((await order(victim.id)).state).to.equal(1);
      expect((await paymentsOf(victim.id)).map((p: { status: string }) => p.status)).to.deep.equal(['pending']);
      expect(await eventsOf(victim.id)).to.have.length(0);
    }

    it("Payssion: X's signed 'completed' re-posted with Y's transaction_id (unsigned) is refused, before and after the real one", async () => {
      const victim = await newOrder({ currency: 'KRW' });
      const { payment: y } = await checkout('createcheckoutsessionpayssion', { orderId: victim.id, pmId: 3 });
      const paid = await newOrder({ currency: 'KRW' });
      const { payment: x } = await checkout('createcheckoutsessionpayssion', { orderId: paid.id, pmId: 3 });
      expect(x.amount_minor).to.equal(y.amount_minor); // the amount check alone cannot tell them apart
      payssion.setState(x.provider_reference, 'completed');
      const readdressed = payssion.notification(x.provider_reference, { tamper: { transaction_id: y.provider_reference } });

      const early = await payssion.deliver(`${base}/api/webhook/payssion`, readdressed);
      await unpaidAfter(victim);
      expect(early.status).to.equal(400);
      expect(JSON.parse(early.body).code).to.equal('notification_mismatch');
      expect((await order(paid.id)).state).to.equal(1); // not booked as X's event either: the real one still pays X

      expect((await payssion.deliver(`${base}/api/webhook/payssion`, payssion.notification(x.provider_reference))).status).to.equal(200);
      expect((await order(paid.id)).state).to.be.oneOf([2, 6]);
      const late = await payssion.deliver(`${base}/api/webhook/payssion`, readdressed);
      await unpaidAfter(victim);
      expect(late.status).to.equal(400);
      expect(await knex()('payment_events').where({ provider: 'payssion', payment_id: x.id })).to.have.length(1);
    });

    it('Payssion: the same notification with a made-up transaction_id or none at all is deduplicated by what is signed', async () => {
      const created = await newOrder({ currency: 'KRW' });
      const { payment } = await checkout('createcheckoutsessionpayssion', { orderId: created.id, pmId: 5 });
      payssion.setState(payment.provider_reference, 'completed');
      const variants = [
        payssion.notification(payment.provider_reference),
        payssion.notification(payment.provider_reference, { tamper: { transaction_id: '' } }),
        payssion.notification(payment.provider_reference, { json: true }),
      ];
      for (const variant of variants) expect((await payssion.deliver(`${base}/api/webhook/payssion`, variant)).status).to.equal(200);
      const invented = await payssion.deliver(
        `${base}/api/webhook/payssion`,
        payssion.notification(payment.provider_reference, { tamper: { transaction_id: 'T-someone-else' } }),
      );
      expect(invented.status).to.equal(400);
      const events = await knex()('payment_events').where({ provider: 'payssion', order_id: created.id });
      expect(events.map((e: { outcome: string }) => e.outcome)).to.deep.equal(['paid']);
      expect((await paymentsOf(created.id)).filter((p: { status: string }) => p.status === 'paid')).to.have.length(1);
    });

    it("CoinPal: X's signed notification with Y's CoinPal reference (unsigned) is refused, and so is one whose signed amount is not the payment's", async () => {
      const victim = await newOrder();
      const { payment: y } = await checkout('createcheckoutsessioncoinpal', { orderId: victim.id });
      const paid = await newOrder();
      const { payment: x } = await checkout('createcheckoutsessioncoinpal', { orderId: paid.id });
      coinpal.setStatus(x.provider_reference, 'paid');

      const readdressed = await coinpal.deliver(
        `${base}/api/webhook/coinpal`,
        coinpal.notification(x.provider_reference, { tamper: { reference: y.provider_reference } }),
      );
      await unpaidAfter(victim);
      expect(readdressed.status).to.equal(400);
      // A notification signed for another amount names another order, whatever CoinPal says of ours.
      const otherAmount = await coinpal.deliver(`${base}/api/webhook/coinpal`, coinpal.notification(x.provider_reference, { amount: '0.01' }));
      expect(otherAmount.status).to.equal(400);
      expect((await order(paid.id)).state).to.equal(1);
      expect(await eventsOf(paid.id)).to.have.length(0);

      expect((await coinpal.deliver(`${base}/api/webhook/coinpal`, coinpal.notification(x.provider_reference))).status).to.equal(200);
      expect((await order(paid.id)).state).to.be.oneOf([2, 6]);
      await unpaidAfter(victim);
    });

    it("Stripe: an event whose session is X's but whose client_reference_id is Y's, or another session naming Y, is refused", async () => {
      const victim = await newOrder();
      const { payment: y } = await checkout('createcheckoutsession', { orderId: victim.id });
      const paid = await newOrder();
      const { payment: x } = await checkout('createcheckoutsession', { orderId: paid.id });
      stripe.pay(x.provider_reference);
      const namingY = { client_reference_id: y.reference, metadata: { reference: y.reference, orderId: String(victim.id) } };

      // X's paid session, its reference fields naming Y (the whole event is signed: only a
      // session made elsewhere on the account, e.g. a payment link with ?client_reference_id=, carries them).
      const crossed = await stripe.deliver(`${base}/api/webhook/stripe`, stripeEvent(x.provider_reference, 'checkout.session.completed', { session: namingY }));
      await unpaidAfter(victim);
      expect(crossed.status).to.equal(400);
      const elsewhere = await stripe.deliver(
        `${base}/api/webhook/stripe`,
        stripeEvent(x.provider_reference, 'checkout.session.completed', { session: { ...namingY, id: 'cs_test_payment_link_session' } }),
      );
      await unpaidAfter(victim);
      expect(elsewhere.status).to.equal(400);
      expect((await order(paid.id)).state).to.equal(1);

      expect((await stripe.deliver(`${base}/api/webhook/stripe`, stripeEvent(x.provider_reference))).status).to.equal(200);
      expect((await order(paid.id)).state).to.be.oneOf([2, 6]);
    });
  });

  describe('unpaid orders', () => {
    it('expire after 24 hours', async () => {
      const created = await newOrder();
      await checkout('createcheckoutsession', { orderId: created.id });
      harness().clock.advance(25 * 3600_000);
      await container.get(CheckoutFlow).expireUnpaid();
      expect((await order(created.id)).state).to.equal(4);
      const late = await api(app).post('/api/payment/createcheckoutsession').set(buyer.auth).send({ orderId: created.id }).expect(409);
      expect(late.body.code).to.equal('order_not_payable');
    });
  });
});

describe('the demo provider (no keys configured)', () => {
  it('sells end to end through its own checkout page and the same fulfilment path', async () => {
    const buyer = await loginAs('user');
    const created = (await api().post('/api/order/insert').set(buyer.auth).send({ platformId: 1, typeId: 1, durationId: 1, currency: 'EUR' }).expect(200)).body;
    const { body } = await api().post('/api/payment/createcheckoutsession').set(buyer.auth).send({ orderId: created.id }).expect(200);
    const path = new URL(body.url).pathname;
    expect(path).to.match(/^\/demo-checkout\//);
    const page = await api().get(path).expect(200);
    expect(page.text).to.contain('DEMO PROVIDER: no real money is charged');
    const token = decodeURIComponent(path.split('/').pop()!);

    const forged = await api()
      .post('/api/webhook/demo')
      .type('form')
      .send({ token: token.slice(0, -3) + 'abc', outcome: 'paid' })
      .expect(400);
    expect(forged.body.code).to.equal('invalid_signature');
    const paid = await api().post('/api/webhook/demo').type('form').send({ token, outcome: 'paid' }).expect(303);
    expect(paid.headers.location).to.equal(`/paymentresult/${created.id}/1`);
    expect((await harness().knex('orders').where({ id: created.id }).first()).state).to.be.oneOf([2, 6]); // paid: waiting, or already activated by the worker
    // Pressing Pay twice changes nothing.
    await api().post('/api/webhook/demo').type('form').send({ token, outcome: 'paid' }).expect(303);
    expect(await harness().knex('payments').where({ order_id: created.id, status: 'paid' })).to.have.length(1);
  });

  it('stops paying a token it issued the moment the method has a real provider or demo payments are off', async () => {
    const buyer = await loginAs('user');
    const created = (await api().post('/api/order/insert').set(buyer.auth).send({ platformId: 1, typeId: 1, durationId: 1, currency: 'EUR' }).expect(200)).body;
    const { body } = await api().post('/api/payment/createcheckoutsession').set(buyer.auth).send({ orderId: created.id }).expect(200);
    const path = new URL(body.url).pathname;
    const token = decodeURIComponent(path.split('/').pop()!);
    const state = async () => (await harness().knex('orders').where({ id: created.id }).first()).state;

    // The same database and secrets, configured for production: card (1) now goes to Stripe …
    const withStripe = harness().appWith({ ALLOW_DEMO_PAYMENTS: 'true', STRIPE_SECRET_KEY: 'sk_test_configured', STRIPE_WEBHOOK_SECRET: 'whsec_configured' });
    // … or card still has no provider, but demo payments are not allowed any more.
    const demoOff = harness().appWith({ ALLOW_DEMO_PAYMENTS: 'false', PAYSSION_API_KEY: 'live_key', PAYSSION_SECRET_KEY: 'live_secret' });
    for (const { app } of [withStripe, demoOff]) {
      const refused = await api(app).post('/api/webhook/demo').type('form').send({ token, outcome: 'paid' });
      expect(await state()).to.equal(1);
      expect(refused.status).to.equal(409);
      expect(refused.body.code).to.equal('demo_payments_off');
      await api(app).get(path).expect(404);
    }
    expect(await harness().knex('payment_events').where({ provider: 'demo', order_id: created.id })).to.have.length(0);
    // Where the demo still serves card, the same token pays.
    await api().post('/api/webhook/demo').type('form').send({ token, outcome: 'paid' }).expect(303);
    expect(await state()).to.be.oneOf([2, 6]);
  });
});
