/**
 * The payment provider adapters against local servers that speak Stripe's, CoinPal's and
 * Payssion's protocols (test/support/fake-*.ts): the exact requests they send, the notifications
 * they accept, and every way a forged, tampered, stale or unavailable one is refused.
 */
import { expect } from 'chai';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { ConflictError, NotFoundError, UnavailableError, ValidationError } from '../../packages/core/src/shared/errors.js';
import { ManualClock } from '../../packages/core/src/shared/clock.js';
import { money } from '../../packages/core/src/shared/money.js';
import { CoinPalProvider, coinpalSign, coinpalStatus } from '../../packages/core/src/modules/payments/providers/coinpal.js';
import { DemoProvider, readDemoToken } from '../../packages/core/src/modules/payments/providers/demo.js';
import { createPaymentProviders, type PaymentProvidersConfig } from '../../packages/core/src/modules/payments/providers/index.js';
import {
  PayssionProvider,
  payssionCreateSig,
  payssionDetailsSig,
  payssionNotifySig,
  payssionStatus,
} from '../../packages/core/src/modules/payments/providers/payssion.js';
import {
  type CheckoutRequest,
  type IncomingNotification,
  type PaymentMethodId,
  SignatureError,
} from '../../packages/core/src/modules/payments/providers/provider.js';
import { StripeProvider, stripeSignature } from '../../packages/core/src/modules/payments/providers/stripe.js';
import { FakeCoinPal } from '../support/fake-coinpal.js';
import { FakePayssion } from '../support/fake-payssion.js';
import { FakeStripe } from '../support/fake-stripe.js';
import { checkoutRequest, incoming, rejected } from './adapter-requests.js';

function refused(verify: () => unknown): SignatureError {
  try {
    verify();
  } catch (error) {
    expect(error).to.be.instanceOf(SignatureError);
    return error as SignatureError;
  }
  expect.fail('expected a SignatureError');
}

/** refused, for a check that answers a promise (the demo's JWT). */
async function refusedAsync(verify: () => Promise<unknown>): Promise<SignatureError> {
  try {
    await verify();
  } catch (error) {
    expect(error).to.be.instanceOf(SignatureError);
    return error as SignatureError;
  }
  return expect.fail('expected a SignatureError');
}

/** A stand-in for our webhook endpoint: keeps what the providers' pages post to it. */
async function startReceiver(): Promise<{ url: string; received: IncomingNotification[]; stop: () => Promise<void> }> {
  const received: IncomingNotification[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers as IncomingHttpHeaders).map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : value]),
      );
      received.push({ rawBody: Buffer.concat(chunks), contentType: req.headers['content-type'] ?? '', headers });
      res.end('');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The buyer presses a button on a provider's hosted page; answers where the browser is sent. */
async function press(pageUrl: string, action: string): Promise<string> {
  const response = await fetch(pageUrl, { method: 'POST', body: new URLSearchParams({ action }), redirect: 'manual' });
  expect(response.status).to.equal(303);
  return response.headers.get('location') ?? '';
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('payment provider adapters', function () {
  describe('signature helpers (the worked examples of protocols.md)', function () {
    it('Stripe v1 = HMAC-SHA256(whsec secret, "t.body")', function () {
      const body = '{"id":"evt_test_1","object":"event","type":"checkout.session.completed"}';
      const expected = 'ca796b857b81e24d595a4c37abf88d2fafb533a32ede6ce4cfc9b0e892a35b08';
      expect(stripeSignature(body, 'whsec_test_secret', 1700000000)).to.equal(expected);
      expect(Stripe.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_test_secret', timestamp: 1700000000 })).to.equal(
        `t=1700000000,v1=${expected}`,
      );
      // …and the adapter accepts exactly that delivery at that time.
      const provider = new StripeProvider({ secretKey: 'sk_test_x', webhookSecret: 'whsec_test_secret', clock: new ManualClock(1700000000_000 + 60_000) });
      const report = provider.verifyNotification({
        rawBody: Buffer.from(body),
        contentType: 'application/json',
        headers: { 'stripe-signature': `t=1700000000,v1=${expected}` },
      });
      expect(report).to.include({ eventId: 'evt_test_1', eventType: 'checkout.session.completed', status: 'unknown', needsConfirmation: false });
    });

    it('CoinPal sign = sha256(secretKey + requestId + merchantNo + orderNo + orderAmount + orderCurrency)', function () {
      expect(coinpalSign('testsecret', { requestId: 'REQ123', merchantNo: '100001', orderNo: 'ORD-1', orderAmount: '10000', orderCurrency: 'KRW' })).to.equal(
        'f28ce550de31658fa81e66ca4e083666cb79241397ca2609f6e8d3e6fe052e78',
      );
    });

    it('Payssion api_sig (create, details) and notify_sig', function () {
      expect(payssionCreateSig('sandbox_key', 'kakaopay_kr', '10000', 'KRW', 'ORD-1', 'sandbox_secret')).to.equal('767edf8f5600e0ee2736803cf6d9c601');
      expect(payssionDetailsSig('sandbox_key', '', 'ORD-1', 'sandbox_secret')).to.equal('aef85a020f0d32d4b36fc250bb4b5a8e');
      expect(payssionDetailsSig('sandbox_key', 'T123', 'ORD-1', 'sandbox_secret')).to.equal('3651bd5a9c8679b1cfc14fceae4d0899');
      expect(payssionNotifySig('sandbox_key', 'kakaopay_kr', '10000', 'KRW', 'ORD-1', 'completed', 'sandbox_secret')).to.equal(
        '92d3fe3e2929f664d5f031f040b5cd3c',
      );
    });

    it('status tables', function () {
      expect(
        ['paid', 'failed', 'cancelled', 'expired', 'refunded', 'unpaid', 'partial_paid', 'paid_confirming', 'refunding', 'created'].map(coinpalStatus),
      ).to.deep.equal(['paid', 'failed', 'failed', 'expired', 'refunded', 'pending', 'pending', 'pending', 'pending', 'pending']);
      const states = [
        'completed',
        'failed',
        'cancelled',
        'cancelled_by_user',
        'rejected_by_bank',
        'error',
        'expired',
        'refunded',
        'chargeback',
        'refund_pending',
        'refund_failed',
        'pending',
        'paid_partial',
        'awaiting_confirm',
      ];
      expect(states.map(payssionStatus)).to.deep.equal([
        'paid',
        'failed',
        'failed',
        'failed',
        'failed',
        'failed',
        'expired',
        'refunded',
        'charged_back',
        'unknown', // a refund on its way or one that failed: the payment is still paid
        'unknown',
        'pending',
        'pending',
        'pending',
      ]);
    });
  });

  describe('Stripe', function () {
    const fake = new FakeStripe();
    let stripe: StripeProvider;

    before(async function () {
      await fake.start();
    });
    after(async function () {
      await fake.stop();
    });
    beforeEach(function () {
      stripe = new StripeProvider({
        secretKey: fake.secretKey,
        webhookSecret: fake.webhookSecret,
        apiBase: fake.baseUrl,
        timeoutMs: 500,
        installationId: async () => 'test-installation',
      });
    });

    it('creates a Checkout Session with the amount in minor units (KRW zero-decimal) and the reference', async function () {
      const request = checkoutRequest();
      const session = await stripe.createCheckout(request);
      expect(session.providerReference).to.match(/^cs_test_/);
      expect(session.url).to.equal(`${fake.baseUrl}/pay/${session.providerReference}`);

      const sent = fake.lastCreate!;
      expect(sent.headers.authorization).to.equal(`Bearer ${fake.secretKey}`);
      expect(sent.headers['idempotency-key']).to.equal(`subshare-test-installation-checkout-${request.reference}`);
      expect(sent.headers['content-type']).to.match(/^application\/x-www-form-urlencoded/);
      expect(sent.rawBody).to.include('line_items[0][price_data][unit_amount]=15000');
      expect(sent.params).to.deep.equal({
        mode: 'payment',
        line_items: [{ quantity: '1', price_data: { currency: 'krw', unit_amount: '15000', product_data: { name: 'Netflix Premium 1 month' } } }],
        client_reference_id: request.reference,
        metadata: { reference: request.reference, orderId: String(request.orderId) },
        payment_intent_data: { metadata: { reference: request.reference, orderId: String(request.orderId) } },
        locale: 'ko',
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        customer_email: 'buyer@example.com',
      });
      expect(fake.session(session.providerReference).expires_at - nowSeconds()).to.be.closeTo(24 * 3600, 5);
    });

    it('sends EUR in cents with the English page', async function () {
      await stripe.createCheckout(checkoutRequest({ amount: money(1050, 'EUR'), languageId: 1 }));
      const params = fake.lastCreate!.params as { line_items: Array<{ price_data: { currency: string; unit_amount: string } }>; locale: string };
      expect(params.line_items[0].price_data).to.include({ currency: 'eur', unit_amount: '1050' });
      expect(params.locale).to.equal('en');
    });

    it('a retry of the same attempt gets the same session (Idempotency-Key), not a second one', async function () {
      const request = checkoutRequest();
      const before = fake.requests.create;
      const first = await stripe.createCheckout(request);
      const again = await stripe.createCheckout(request);
      expect(again).to.deep.equal(first);
      expect(fake.requests.create - before).to.equal(2);
      expect([...fake.sessions.values()].filter((s) => s.client_reference_id === request.reference)).to.have.length(1);
    });

    it('reads no reference from a session whose client_reference_id and metadata disagree (not one of ours)', async function () {
      const request = checkoutRequest();
      const { providerReference } = await stripe.createCheckout(request);
      fake.pay(providerReference);
      const crossed = stripe.verifyNotification(
        incoming(fake.webhook(providerReference, 'checkout.session.completed', { session: { client_reference_id: '999-999' } })),
      );
      expect(crossed).to.deep.include({ reference: undefined, providerReference, orderId: request.orderId });
    });

    it('reads a genuine checkout.session.completed (paid) as paid, with amount and reference', async function () {
      const request = checkoutRequest();
      const { providerReference } = await stripe.createCheckout(request);
      fake.pay(providerReference);
      const delivery = fake.webhook(providerReference, 'checkout.session.completed');
      expect(stripe.verifyNotification(incoming(delivery))).to.deep.equal({
        eventId: delivery.event.id,
        eventType: 'checkout.session.completed',
        reference: request.reference,
        providerReference,
        orderId: request.orderId,
        providerPaymentId: fake.session(providerReference).payment_intent,
        status: 'paid',
        amount: money(15000, 'KRW'),
        needsConfirmation: false,
      });
      expect(stripe.verifyNotification(incoming(delivery)).providerPaymentId).to.match(/^pi_/);
      expect(stripe.acknowledgement).to.deep.equal({ contentType: 'application/json', body: '{"received":true}' });
    });

    it('maps the other checkout events, and leaves other event types unknown', async function () {
      const { providerReference: delayed } = await stripe.createCheckout(checkoutRequest({ amount: money(2500, 'EUR') }));
      fake.pay(delayed, { paymentStatus: 'unpaid' });
      const status = (type: string, id = delayed) => stripe.verifyNotification(incoming(fake.webhook(id, type))).status;
      expect(status('checkout.session.completed')).to.equal('pending');
      expect(status('checkout.session.async_payment_failed')).to.equal('failed');
      fake.settle(delayed);
      const succeeded = stripe.verifyNotification(incoming(fake.webhook(delayed, 'checkout.session.async_payment_succeeded')));
      expect(succeeded).to.include({ status: 'paid' });
      expect(succeeded.amount).to.deep.equal(money(2500, 'EUR'));

      const { providerReference: abandoned } = await stripe.createCheckout(checkoutRequest());
      fake.expire(abandoned);
      expect(status('checkout.session.expired', abandoned)).to.equal('expired');
      expect(status('customer.updated', abandoned)).to.equal('unknown');
    });

    it('leaves the amount out when the currency is not one of ours', async function () {
      const { providerReference } = await stripe.createCheckout(checkoutRequest());
      fake.pay(providerReference);
      const report = stripe.verifyNotification(incoming(fake.webhook(providerReference, 'checkout.session.completed', { session: { currency: 'usd' } })));
      expect(report.status).to.equal('paid');
      expect(report.amount).to.equal(undefined);
    });

    it('refuses tampered, wrongly signed, stale, unsigned and garbled notifications', async function () {
      const { providerReference } = await stripe.createCheckout(checkoutRequest());
      fake.pay(providerReference);
      const type = 'checkout.session.completed';
      refused(() => stripe.verifyNotification(incoming(fake.webhook(providerReference, type, { tamper: true }))));
      refused(() => stripe.verifyNotification(incoming(fake.webhook(providerReference, type, { secret: 'whsec_someone_else' }))));
      refused(() => stripe.verifyNotification(incoming(fake.webhook(providerReference, type, { timestamp: nowSeconds() - 301 }))));
      const genuine = fake.webhook(providerReference, type);
      refused(() => stripe.verifyNotification(incoming({ body: genuine.body, headers: { 'content-type': 'application/json' } })));
      refused(() => stripe.verifyNotification(incoming({ body: genuine.body, headers: { ...genuine.headers, 'stripe-signature': 'garbage' } })));
      // Re-serialised JSON is not the signed body.
      refused(() => stripe.verifyNotification(incoming({ body: JSON.stringify(JSON.parse(genuine.body)), headers: genuine.headers })));
      // A signature still within 300 s is fine.
      expect(stripe.verifyNotification(incoming(fake.webhook(providerReference, type, { timestamp: nowSeconds() - 290 }))).status).to.equal('paid');
    });

    it('counts the signature age on its clock: the same delivery is stale five minutes later', async function () {
      const { providerReference } = await stripe.createCheckout(checkoutRequest());
      fake.pay(providerReference);
      const delivery = fake.webhook(providerReference, 'checkout.session.completed');
      const clock = new ManualClock();
      const later = new StripeProvider({
        secretKey: fake.secretKey,
        webhookSecret: fake.webhookSecret,
        apiBase: fake.baseUrl,
        clock,
        installationId: async () => 'test-installation',
      });
      expect(later.verifyNotification(incoming(delivery)).status).to.equal('paid');
      clock.advance(301_000);
      refused(() => later.verifyNotification(incoming(delivery)));
    });

    it('fetchStatus retrieves the session: open → pending, complete+paid → paid, expired → expired', async function () {
      const request = checkoutRequest({ amount: money(990, 'EUR') });
      const { providerReference } = await stripe.createCheckout(request);
      const ask = () => stripe.fetchStatus({ reference: request.reference, providerReference, amount: request.amount });
      expect(await ask()).to.deep.include({
        status: 'pending',
        eventId: `query:${providerReference}:pending`,
        reference: request.reference,
        needsConfirmation: false,
      });
      fake.pay(providerReference);
      const paid = await ask();
      expect(paid).to.deep.include({
        status: 'paid',
        eventId: `query:${providerReference}:paid`,
        providerReference,
        providerPaymentId: fake.session(providerReference).payment_intent,
      });
      expect(paid.amount).to.deep.equal(money(990, 'EUR'));
      expect(fake.log.at(-1)).to.include({ method: 'GET', path: `/v1/checkout/sessions/${providerReference}` });

      const other = await stripe.createCheckout(checkoutRequest());
      fake.expire(other.providerReference);
      expect((await stripe.fetchStatus({ reference: 'x', providerReference: other.providerReference, amount: money(15000, 'KRW') })).status).to.equal(
        'expired',
      );
      expect((await stripe.fetchStatus({ reference: 'never-started', providerReference: null, amount: money(1, 'EUR') })).status).to.equal('unknown');
      await rejected(
        stripe.fetchStatus({ reference: 'x', providerReference: 'cs_test_missing', amount: money(1, 'EUR') }),
        NotFoundError,
        'stripe_session_not_found',
      );
    });

    it('a 500 or a timeout is UnavailableError; a bad key is a misconfiguration; a refusal is a validation error', async function () {
      fake.failNext(500);
      await rejected(stripe.createCheckout(checkoutRequest()), UnavailableError, 'stripe_unavailable');
      fake.delayNext(2000);
      await rejected(stripe.createCheckout(checkoutRequest()), UnavailableError, 'stripe_unavailable');
      fake.failNext(503);
      await rejected(stripe.fetchStatus({ reference: 'x', providerReference: 'cs_test_x', amount: money(1, 'EUR') }), UnavailableError, 'stripe_unavailable');

      const wrongKey = new StripeProvider({
        secretKey: 'sk_test_wrong',
        webhookSecret: fake.webhookSecret,
        apiBase: fake.baseUrl,
        installationId: async () => 'test-installation',
      });
      const error = await rejected(wrongKey.createCheckout(checkoutRequest()), UnavailableError, 'stripe_misconfigured');
      expect(error.message).not.to.include('sk_test');

      const tooSmall = await rejected(stripe.createCheckout(checkoutRequest({ amount: money(50, 'KRW') })), ValidationError, 'stripe_rejected');
      expect(tooSmall.message).to.include('at least ₩100');
    });
  });

  describe('CoinPal', function () {
    const fake = new FakeCoinPal();
    let coinpal: CoinPalProvider;

    before(async function () {
      await fake.start();
    });
    after(async function () {
      await fake.stop();
    });
    beforeEach(function () {
      coinpal = new CoinPalProvider({ merchantNo: fake.merchantNo, secretKey: fake.secretKey, apiBase: fake.baseUrl, timeoutMs: 500 });
    });

    const coinpalCheckout = (overrides: Partial<CheckoutRequest> = {}) =>
      checkoutRequest({ method: 2, amount: money(1050, 'EUR'), languageId: 1, notifyUrl: 'http://shop.test/api/webhook/coinpal', ...overrides });

    it('posts a signed form with the amount as a two-decimal string and answers the cashier URL', async function () {
      const request = coinpalCheckout();
      const session = await coinpal.createCheckout(request);
      const sent = fake.lastCheckout!;
      expect(sent.contentType).to.match(/^application\/x-www-form-urlencoded/);
      const { requestId, sign, ...rest } = sent.params;
      expect(rest).to.deep.equal({
        version: '2',
        merchantNo: fake.merchantNo,
        orderNo: request.reference,
        orderCurrencyType: 'fiat',
        orderCurrency: 'EUR',
        orderAmount: '10.50',
        notifyURL: 'http://shop.test/api/webhook/coinpal',
        redirectURL: request.successUrl,
        payerIP: '203.0.113.7',
        payerEmail: 'buyer@example.com',
        orderDescription: 'Netflix Premium 1 month',
      });
      expect(requestId.startsWith(`${request.reference}-`)).to.equal(true);
      expect(sign).to.equal(
        coinpalSign(fake.secretKey, { requestId, merchantNo: fake.merchantNo, orderNo: request.reference, orderAmount: '10.50', orderCurrency: 'EUR' }),
      );
      expect(session.providerReference).to.match(/^CWS/);
      expect(session.url).to.equal(`${fake.baseUrl}/cashier/${session.providerReference}`);
      expect(fake.payment(session.providerReference).orderNo).to.equal(request.reference);
    });

    it('sends KRW as whole won, and a fresh requestId for every request', async function () {
      const request = coinpalCheckout({ amount: money(10000, 'KRW') });
      await coinpal.createCheckout(request);
      const first = fake.lastCheckout!.params;
      await coinpal.createCheckout(request);
      const second = fake.lastCheckout!.params;
      expect(first.orderAmount).to.equal('10000');
      expect(first.requestId).not.to.equal(second.requestId);
    });

    it('reads a genuine notification (form or JSON) but asks for confirmation: the sign does not cover the status', async function () {
      const request = coinpalCheckout();
      const { providerReference } = await coinpal.createCheckout(request);
      fake.setStatus(providerReference, 'paid');
      for (const json of [false, true]) {
        expect(coinpal.verifyNotification(incoming(fake.notification(providerReference, { json })))).to.deep.equal({
          eventId: `${request.reference}:paid`, // what is signed (orderNo), and the status to be confirmed
          eventType: 'coinpal.paid',
          reference: request.reference,
          providerReference,
          status: 'paid',
          amount: money(1050, 'EUR'),
          signedOrderAmount: money(1050, 'EUR'),
          needsConfirmation: true,
        });
      }
      expect(coinpal.acknowledgement).to.deep.equal({ contentType: 'text/plain', body: 'success' });
    });

    it('a notification claiming "paid" is validly signed even when CoinPal says unpaid: fetchStatus tells the truth', async function () {
      const request = coinpalCheckout();
      const { providerReference } = await coinpal.createCheckout(request);
      const claim = coinpal.verifyNotification(incoming(fake.notification(providerReference, { status: 'paid' })));
      expect(claim).to.include({ status: 'paid', needsConfirmation: true });

      const ask = () => coinpal.fetchStatus({ reference: request.reference, providerReference, amount: request.amount });
      expect(await ask()).to.deep.include({ status: 'pending', eventId: `query:${providerReference}:pending`, needsConfirmation: false });
      expect(fake.log.at(-1)!.params).to.deep.equal({ gcid: providerReference });

      fake.setStatus(providerReference, 'partial_paid', { paidOrderAmount: '5.00' });
      const partial = await ask();
      expect(partial.status).to.equal('pending');
      expect(partial.amount).to.deep.equal(money(500, 'EUR'));

      fake.setStatus(providerReference, 'paid');
      const paid = await ask();
      expect(paid).to.deep.include({ status: 'paid', reference: request.reference, providerReference, needsConfirmation: false });
      expect(paid.amount).to.deep.equal(money(1050, 'EUR'));

      fake.setStatus(providerReference, 'refunded');
      expect((await ask()).status).to.equal('refunded');
    });

    it('names a notification only by what the sign covers, and refuses a signed amount it could never have asked for', async function () {
      const request = coinpalCheckout();
      const { providerReference } = await coinpal.createCheckout(request);
      const genuine = coinpal.verifyNotification(incoming(fake.notification(providerReference)));
      const readdressed = coinpal.verifyNotification(incoming(fake.notification(providerReference, { tamper: { reference: 'CWS-another-order' } })));
      expect(readdressed).to.deep.include({ eventId: genuine.eventId, reference: request.reference, providerReference: 'CWS-another-order' });
      expect(coinpal.verifyNotification(incoming(fake.notification(providerReference, { amount: '0.01' }))).signedOrderAmount).to.deep.equal(money(1, 'EUR'));
      refused(() => coinpal.verifyNotification(incoming(fake.notification(providerReference, { amount: 'ten' }))));
    });

    it('refuses forged and tampered notifications', async function () {
      const { providerReference } = await coinpal.createCheckout(coinpalCheckout());
      fake.setStatus(providerReference, 'paid');
      refused(() => coinpal.verifyNotification(incoming(fake.notification(providerReference, { forgeSign: true }))));
      refused(() => coinpal.verifyNotification(incoming(fake.notification(providerReference, { tamper: { orderAmount: '0.01' } }))));
      refused(() => coinpal.verifyNotification(incoming(fake.notification(providerReference, { tamper: { orderNo: 'someone-else' } }))));
      refused(() => coinpal.verifyNotification(incoming(fake.notification(providerReference, { tamper: { sign: '' } }))));
      refused(() => coinpal.verifyNotification({ rawBody: Buffer.from('{not json'), contentType: 'application/json', headers: {} }));
      const otherMerchant = new CoinPalProvider({ merchantNo: fake.merchantNo, secretKey: 'another-secret', apiBase: fake.baseUrl });
      refused(() => otherMerchant.verifyNotification(incoming(fake.notification(providerReference))));
      // A genuinely signed notification for another amount verifies, and says so (the service compares).
      const other = coinpal.verifyNotification(incoming(fake.notification(providerReference, { amount: '1.00' })));
      expect(other.amount).to.deep.equal(money(100, 'EUR'));
      // Upper-case hex is the same signature (the Magento plugin compares case-insensitively).
      const upper = fake.notification(providerReference);
      expect(coinpal.verifyNotification(incoming(fake.notification(providerReference, { tamper: { sign: upper.fields.sign.toUpperCase() } }))).status).to.equal(
        'paid',
      );
    });

    it("refusals are validation errors with CoinPal's message; 500s, timeouts and unknown payments are typed", async function () {
      const picky = new FakeCoinPal({ merchantNo: fake.merchantNo, secretKey: fake.secretKey, currencies: ['USD', 'EUR'] });
      await picky.start();
      try {
        const strict = new CoinPalProvider({ merchantNo: picky.merchantNo, secretKey: picky.secretKey, apiBase: picky.baseUrl });
        const error = await rejected(strict.createCheckout(coinpalCheckout({ amount: money(10000, 'KRW') })), ValidationError, 'coinpal_rejected');
        expect(error.message).to.include('payment in this currency is not supported');
      } finally {
        await picky.stop();
      }
      const wrongSecret = new CoinPalProvider({ merchantNo: fake.merchantNo, secretKey: 'wrong', apiBase: fake.baseUrl });
      expect((await rejected(wrongSecret.createCheckout(coinpalCheckout()), ValidationError, 'coinpal_rejected')).message).to.include(
        'signature verification failed',
      );

      fake.failNext(500);
      await rejected(coinpal.createCheckout(coinpalCheckout()), UnavailableError, 'coinpal_unavailable');
      fake.delayNext(2000);
      await rejected(coinpal.createCheckout(coinpalCheckout()), UnavailableError, 'coinpal_unavailable');
      fake.failNext(502);
      await rejected(coinpal.fetchStatus({ reference: 'x', providerReference: 'CWS1', amount: money(1, 'EUR') }), UnavailableError, 'coinpal_unavailable');
      await rejected(
        coinpal.fetchStatus({ reference: 'x', providerReference: 'CWS-unknown', amount: money(1, 'EUR') }),
        NotFoundError,
        'coinpal_payment_not_found',
      );
      const { providerReference } = await coinpal.createCheckout(coinpalCheckout());
      await rejected(coinpal.fetchStatus({ reference: 'another-order', providerReference, amount: money(1, 'EUR') }), UnavailableError, 'coinpal_mismatch');
    });
  });

  describe('Payssion', function () {
    const fake = new FakePayssion();
    let payssion: PayssionProvider;

    before(async function () {
      await fake.start();
    });
    after(async function () {
      await fake.stop();
    });
    beforeEach(function () {
      payssion = new PayssionProvider({ apiKey: fake.apiKey, secretKey: fake.secretKey, apiBase: fake.apiBase, timeoutMs: 500 });
    });

    const payssionCheckout = (method: PaymentMethodId = 3, overrides: Partial<CheckoutRequest> = {}) =>
      checkoutRequest({
        method,
        notifyUrl: 'http://shop.test/api/webhook/payssion',
        successUrl: 'http://shop.test/payssionpaymentresult?order_id=1',
        ...overrides,
      });

    it('creates a payment with pm_id, whole won and api_sig, and answers the transaction id and redirect URL', async function () {
      const request = payssionCheckout(3);
      const session = await payssion.createCheckout(request);
      const sent = fake.lastCreate!;
      expect(sent.contentType).to.match(/^application\/x-www-form-urlencoded/);
      expect(sent.params).to.deep.equal({
        api_key: fake.apiKey,
        pm_id: 'kakaopay_kr',
        amount: '15000',
        currency: 'KRW',
        order_id: request.reference,
        description: 'Netflix Premium 1 month',
        return_url: 'http://shop.test/payssionpaymentresult?order_id=1',
        notify_url: 'http://shop.test/api/webhook/payssion',
        payer_email: 'buyer@example.com',
        api_sig: payssionCreateSig(fake.apiKey, 'kakaopay_kr', '15000', 'KRW', request.reference, fake.secretKey),
      });
      expect(session.providerReference).to.match(/^T\d+/);
      expect(session.url).to.equal(`${fake.baseUrl}/pay/${session.providerReference}`);
    });

    it('maps methods 4, 5, 6 to Samsung Pay, Korean card and internet banking; EUR goes as 10.50', async function () {
      for (const [method, pmId] of [
        [4, 'samsungpay_kr'],
        [5, 'creditcard_kr'],
        [6, 'ebanking_kr'],
      ] as const) {
        await payssion.createCheckout(payssionCheckout(method));
        expect(fake.lastCreate!.params.pm_id).to.equal(pmId);
      }
      await payssion.createCheckout(payssionCheckout(5, { amount: money(1050, 'EUR') }));
      expect(fake.lastCreate!.params).to.include({ amount: '10.50', currency: 'EUR' });
      await rejected(payssion.createCheckout(payssionCheckout(1)), ValidationError);
    });

    it('a second payment for the same order_id is a conflict (413 Repeated order)', async function () {
      const request = payssionCheckout(3);
      await payssion.createCheckout(request);
      await rejected(payssion.createCheckout(request), ConflictError, 'payssion_repeated_order');
    });

    it('reads a genuine notification (form or JSON) and compares amounts numerically', async function () {
      const request = payssionCheckout(3);
      const { providerReference } = await payssion.createCheckout(request);
      fake.setState(providerReference, 'completed');
      for (const json of [false, true]) {
        expect(payssion.verifyNotification(incoming(fake.notification(providerReference, { json })))).to.deep.equal({
          eventId: `${request.reference}:completed`, // signed order_id and state, not the unsigned transaction_id
          eventType: 'payssion.completed',
          reference: request.reference,
          providerReference,
          status: 'paid',
          amount: money(15000, 'KRW'),
          needsConfirmation: false,
        });
      }
      // Payssion may echo "15000.00": signed as posted, the same won.
      expect(payssion.verifyNotification(incoming(fake.notification(providerReference, { amount: '15000.00' }))).amount).to.deep.equal(money(15000, 'KRW'));
      expect(payssion.verifyNotification(incoming(fake.notification(providerReference, { state: 'cancelled_by_user' })))).to.include({
        status: 'failed',
        eventId: `${request.reference}:cancelled_by_user`,
      });
      expect(payssion.acknowledgement).to.deep.equal({ contentType: 'text/plain', body: '' });
    });

    it('names a notification only by what notify_sig covers: an unsigned transaction_id changes neither its reference nor its event', async function () {
      const request = payssionCheckout(3);
      const { providerReference } = await payssion.createCheckout(request);
      fake.setState(providerReference, 'completed');
      const genuine = payssion.verifyNotification(incoming(fake.notification(providerReference)));
      const readdressed = payssion.verifyNotification(incoming(fake.notification(providerReference, { tamper: { transaction_id: 'T-another-order' } })));
      expect(readdressed).to.deep.include({ eventId: genuine.eventId, reference: request.reference, providerReference: 'T-another-order' });
      const without = payssion.verifyNotification(incoming(fake.notification(providerReference, { tamper: { transaction_id: '' } })));
      expect(without).to.deep.include({ eventId: genuine.eventId, reference: request.reference, providerReference: undefined });
    });

    it('refuses forged and tampered notifications', async function () {
      const { providerReference } = await payssion.createCheckout(payssionCheckout(4));
      refused(() => payssion.verifyNotification(incoming(fake.notification(providerReference, { state: 'completed', forgeSig: true }))));
      refused(() => payssion.verifyNotification(incoming(fake.notification(providerReference, { tamper: { state: 'completed' } }))));
      refused(() => payssion.verifyNotification(incoming(fake.notification(providerReference, { state: 'completed', tamper: { amount: '1' } }))));
      refused(() => payssion.verifyNotification(incoming(fake.notification(providerReference, { state: 'completed', tamper: { order_id: 'other' } }))));
      refused(() => payssion.verifyNotification(incoming(fake.notification(providerReference, { state: 'completed', tamper: { notify_sig: '' } }))));
      const wrongSecret = new PayssionProvider({ apiKey: fake.apiKey, secretKey: 'not-the-secret', apiBase: fake.apiBase });
      refused(() => wrongSecret.verifyNotification(incoming(fake.notification(providerReference, { state: 'completed' }))));
    });

    it('fetchStatus asks payment/details with the SDK signature, also without a transaction id', async function () {
      const request = payssionCheckout(6);
      const { providerReference } = await payssion.createCheckout(request);
      const pending = await payssion.fetchStatus({ reference: request.reference, providerReference, amount: request.amount });
      expect(pending).to.deep.include({ status: 'pending', eventId: `query:${providerReference}:pending`, reference: request.reference, providerReference });
      expect(fake.log.at(-1)!.params).to.deep.equal({
        api_key: fake.apiKey,
        transaction_id: providerReference,
        order_id: request.reference,
        api_sig: payssionDetailsSig(fake.apiKey, providerReference, request.reference, fake.secretKey),
      });

      fake.setState(providerReference, 'completed');
      const paid = await payssion.fetchStatus({ reference: request.reference, providerReference: null, amount: request.amount });
      expect(paid).to.deep.include({ status: 'paid', providerReference, needsConfirmation: false });
      expect(paid.amount).to.deep.equal(money(15000, 'KRW'));
      expect(fake.log.at(-1)!.params).to.include({ transaction_id: '', api_sig: payssionDetailsSig(fake.apiKey, '', request.reference, fake.secretKey) });

      await rejected(
        payssion.fetchStatus({ reference: 'no-such-order', providerReference: null, amount: request.amount }),
        NotFoundError,
        'payssion_payment_not_found',
      );
    });

    it('500s and timeouts are UnavailableError; wrong keys are a misconfiguration', async function () {
      fake.failNext(500);
      await rejected(payssion.createCheckout(payssionCheckout(3)), UnavailableError, 'payssion_unavailable');
      fake.delayNext(2000);
      await rejected(payssion.createCheckout(payssionCheckout(3)), UnavailableError, 'payssion_unavailable');
      fake.failNext(500);
      await rejected(payssion.fetchStatus({ reference: 'x', providerReference: 'T1', amount: money(1, 'KRW') }), UnavailableError, 'payssion_unavailable');
      const wrongSecret = new PayssionProvider({ apiKey: fake.apiKey, secretKey: 'not-the-secret', apiBase: fake.apiBase });
      await rejected(wrongSecret.createCheckout(payssionCheckout(3)), UnavailableError, 'payssion_misconfigured');
      const wrongKey = new PayssionProvider({ apiKey: 'unknown', secretKey: fake.secretKey, apiBase: fake.apiBase });
      await rejected(wrongKey.fetchStatus({ reference: 'x', providerReference: 'T1', amount: money(1, 'KRW') }), UnavailableError, 'payssion_misconfigured');
    });
  });

  describe('demo provider', function () {
    const secret = Buffer.from('a-test-secret-that-is-long-enough-0123456789', 'utf8');
    const clock = new ManualClock('2026-05-01T10:00:00Z');
    const demo = new DemoProvider({ publicUrl: 'http://shop.test/', secret, clock });

    const post = (token: string, outcome: string): IncomingNotification => ({
      rawBody: Buffer.from(new URLSearchParams({ token, outcome }).toString()),
      contentType: 'application/x-www-form-urlencoded',
      headers: {},
    });
    const tokenOf = (url: string) => decodeURIComponent(url.slice('http://shop.test/demo-checkout/'.length));

    it('hands out a signed demo checkout URL whose token carries the payment', async function () {
      const request = checkoutRequest({ method: 2, amount: money(1050, 'EUR'), notifyUrl: 'http://shop.test/api/webhook/demo' });
      const session = await demo.createCheckout(request);
      expect(session.providerReference).to.equal(`demo-${request.reference}`);
      expect(session.url.startsWith('http://shop.test/demo-checkout/')).to.equal(true);
      const data = readDemoToken(tokenOf(session.url))!;
      expect(data).to.deep.include({
        reference: request.reference,
        orderId: request.orderId,
        method: 2,
        amountLabel: '€10.50',
        description: request.description,
        successUrl: request.successUrl,
        cancelUrl: request.cancelUrl,
        notifyUrl: 'http://shop.test/api/webhook/demo',
      });
      expect(data.amount).to.deep.equal(money(1050, 'EUR'));
      expect(data.expiresAt.toISOString()).to.equal('2026-05-02T10:00:00.000Z');
      expect(readDemoToken('nonsense')).to.equal(null);
    });

    it("accepts the page's post with a genuine token: paid → paid, cancelled → failed", async function () {
      const request = checkoutRequest({ amount: money(6900, 'KRW') });
      const token = tokenOf((await demo.createCheckout(request)).url);
      expect(await demo.verifyNotification(post(token, 'paid'))).to.deep.equal({
        eventId: `demo:${request.reference}:paid`,
        eventType: 'demo.paid',
        reference: request.reference,
        providerReference: `demo-${request.reference}`,
        orderId: request.orderId,
        method: request.method,
        status: 'paid',
        amount: money(6900, 'KRW'),
        needsConfirmation: false,
      });
      expect(await demo.verifyNotification(post(token, 'cancelled'))).to.include({ status: 'failed', eventId: `demo:${request.reference}:cancelled` });
      const json = await demo.verifyNotification({
        rawBody: Buffer.from(JSON.stringify({ token, outcome: 'paid' })),
        contentType: 'application/json',
        headers: {},
      });
      expect(json.status).to.equal('paid');
      const status = await demo.fetchStatus({ reference: request.reference, providerReference: `demo-${request.reference}`, amount: request.amount });
      expect(status).to.include({ status: 'pending', needsConfirmation: false });
    });

    it('refuses tampered, foreign, expired tokens and unknown outcomes', async function () {
      const request = checkoutRequest({ amount: money(6900, 'KRW') });
      const token = tokenOf((await demo.createCheckout(request)).url);
      const [header, payload, signature] = token.split('.');
      const changed = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, unknown>;
      changed.a = 1;
      await refusedAsync(() => demo.verifyNotification(post(`${header}.${Buffer.from(JSON.stringify(changed)).toString('base64url')}.${signature}`, 'paid')));
      await refusedAsync(() => demo.verifyNotification(post(`${header}.${payload}.${signature![0] === 'A' ? 'B' : 'A'}${signature!.slice(1)}`, 'paid')));
      await refusedAsync(() => demo.verifyNotification(post(token, 'refunded')));
      await refusedAsync(() => demo.verifyNotification(post('', 'paid')));
      const other = new DemoProvider({ publicUrl: 'http://shop.test', secret: Buffer.from('another-secret-that-is-long-enough-000000', 'utf8'), clock });
      await refusedAsync(() => other.verifyNotification(post(token, 'paid')));

      const later = new ManualClock(clock.now());
      const sameKeyLater = new DemoProvider({ publicUrl: 'http://shop.test', secret, clock: later });
      expect((await sameKeyLater.verifyNotification(post(token, 'paid'))).status).to.equal('paid');
      later.advance(24 * 3600_000);
      await refusedAsync(() => sameKeyLater.verifyNotification(post(token, 'paid')));
    });
  });

  describe("the fakes' hosted pages", function () {
    it("a buyer paying on each page sends the browser back and the provider's notification to us, which the adapters verify", async function () {
      const receiver = await startReceiver();
      const stripeFake = new FakeStripe({ webhookUrl: receiver.url });
      const coinpalFake = new FakeCoinPal();
      const payssionFake = new FakePayssion();
      await Promise.all([stripeFake.start(), coinpalFake.start(), payssionFake.start()]);
      try {
        const stripe = new StripeProvider({
          secretKey: stripeFake.secretKey,
          webhookSecret: stripeFake.webhookSecret,
          apiBase: stripeFake.baseUrl,
          installationId: async () => 'test-installation',
        });
        const card = await stripe.createCheckout(checkoutRequest());
        expect((await fetch(card.url)).status).to.equal(200);
        expect(await press(card.url, 'pay')).to.include(`session_id=${card.providerReference}`);
        expect(stripe.verifyNotification(receiver.received.at(-1)!)).to.include({ status: 'paid', providerReference: card.providerReference });

        const coinpal = new CoinPalProvider({ merchantNo: coinpalFake.merchantNo, secretKey: coinpalFake.secretKey, apiBase: coinpalFake.baseUrl });
        const crypto = await coinpal.createCheckout(
          checkoutRequest({ method: 2, amount: money(1050, 'EUR'), notifyUrl: receiver.url, successUrl: 'http://shop.test/paymentresult/1/1' }),
        );
        expect(await press(crypto.url, 'pay')).to.equal('http://shop.test/paymentresult/1/1');
        expect(coinpal.verifyNotification(receiver.received.at(-1)!)).to.include({ status: 'paid', needsConfirmation: true });

        const payssion = new PayssionProvider({ apiKey: payssionFake.apiKey, secretKey: payssionFake.secretKey, apiBase: payssionFake.apiBase });
        const request = checkoutRequest({ method: 3, notifyUrl: receiver.url, successUrl: 'http://shop.test/payssionpaymentresult?order_id=1' });
        const korean = await payssion.createCheckout(request);
        const back = new URL(await press(korean.url, 'pay'));
        expect(back.searchParams.get('transaction_id')).to.equal(korean.providerReference);
        expect(back.searchParams.getAll('order_id')).to.deep.equal(['1', request.reference]);
        expect(payssion.verifyNotification(receiver.received.at(-1)!)).to.include({ status: 'paid', providerReference: korean.providerReference });
        expect(receiver.received).to.have.length(3);
      } finally {
        await Promise.all([stripeFake.stop(), coinpalFake.stop(), payssionFake.stop(), receiver.stop()]);
      }
    });
  });

  describe('createPaymentProviders', function () {
    const base: PaymentProvidersConfig = {
      publicUrl: 'http://shop.test',
      tokenSecret: Buffer.from('x'.repeat(32)),
      stripe: {},
      coinpal: {},
      payssion: {},
    };
    const methods: PaymentMethodId[] = [1, 2, 3, 4, 5, 6];

    it('serves every method with the demo provider when no keys are set', function () {
      const providers = createPaymentProviders(base);
      expect(methods.map((method) => providers.forMethod(method).name)).to.deep.equal(['demo', 'demo', 'demo', 'demo', 'demo', 'demo']);
      expect(methods.every((method) => providers.isDemo(method))).to.equal(true);
      expect(providers.byName('stripe')).to.equal(undefined);
      expect(providers.byName('demo')?.name).to.equal('demo');
      expect(providers.byName('__proto__')).to.equal(undefined);
      expect(() => providers.forMethod(7 as PaymentMethodId)).to.throw(RangeError);
    });

    it('serves 1 with Stripe, 2 with CoinPal, 3–6 with Payssion when their keys are set', function () {
      const providers = createPaymentProviders({
        ...base,
        stripe: { secretKey: 'sk_test_1', webhookSecret: 'whsec_1', apiBase: 'http://127.0.0.1:1' },
        coinpal: { merchantNo: '100001', secretKey: 's' },
        payssion: { apiKey: 'k', secretKey: 's' },
      });
      expect(methods.map((method) => providers.forMethod(method).name)).to.deep.equal(['stripe', 'coinpal', 'payssion', 'payssion', 'payssion', 'payssion']);
      expect(methods.some((method) => providers.isDemo(method))).to.equal(false);
      expect(['stripe', 'coinpal', 'payssion', 'demo'].map((name) => providers.byName(name)?.name)).to.deep.equal(['stripe', 'coinpal', 'payssion', 'demo']);
    });

    it('mixes: only the unconfigured methods are demo', function () {
      const providers = createPaymentProviders({ ...base, coinpal: { merchantNo: '100001', secretKey: 's' } });
      expect(methods.map((method) => providers.isDemo(method))).to.deep.equal([true, false, true, true, true, true]);
      expect(providers.forMethod(2)).to.equal(providers.byName('coinpal'));
    });
  });
});
