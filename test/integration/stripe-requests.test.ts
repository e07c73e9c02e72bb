/**
 * Every request the shop sends to Stripe is one Stripe documents (issue 34): each is checked
 * against the parameters of the API reference for the version the stripe SDK pins
 * (test/support/stripe-reference.ts), and the local Stripe server refuses what Stripe refuses.
 */
import { expect } from 'chai';
import { money } from '../../packages/core/src/shared/money.js';
import { StripeProvider } from '../../packages/core/src/modules/payments/providers/stripe.js';
import { FakeStripe, type FakeStripeRequest } from '../support/fake-stripe.js';
import { deriveStripeParameters, stripeEndpointOf, stripeParameters, unknownParameters } from '../support/stripe-reference.js';
import { checkoutRequest } from './adapter-requests.js';

/** A request sent as the SDK sends it (form body, Bearer key), answered as JSON with its status. */
async function send(fake: FakeStripe, path: string, form: Record<string, string>, idempotencyKey?: string) {
  const response = await fetch(`${fake.baseUrl}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${fake.secretKey}`,
      'content-type': 'application/x-www-form-urlencoded',
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, body: (await response.json()) as { error?: { type: string; code?: string; param?: string; message: string } } };
}

/** Each request in the log that names a parameter the reference does not have, with those parameters. */
function offReference(log: FakeStripeRequest[]): Array<{ request: string; unknown: string[] }> {
  return log
    .map((entry) => {
      const endpoint = stripeEndpointOf(entry.method, entry.path);
      return {
        request: `${entry.method} ${entry.path}`,
        unknown: endpoint ? unknownParameters(endpoint, entry.params) : ['(an endpoint the shop has no business with)'],
      };
    })
    .filter((entry) => entry.unknown.length > 0);
}

describe('Stripe requests as Stripe documents them', function () {
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
      timeoutMs: 1000,
      installationId: async () => 'test-installation',
    });
  });

  /** A buyer's customer with a card saved by a paid opt-in checkout. */
  async function customerWithCard(userId: number) {
    const customerId = await stripe.savedCards.createCustomer({
      userId,
      email: `buyer${userId}@example.com`,
      idempotencyKey: `customer-${userId}-${Date.now()}`,
    });
    const { providerReference } = await stripe.createCheckout(checkoutRequest({ saveCardFor: { customerId } }));
    const session = fake.pay(providerReference, { card: { last4: '4444' } });
    const card = (await stripe.savedCards.cardOfPayment(session.payment_intent!))!;
    return { customerId, card };
  }

  it('keeps the parameter sets of the API version the stripe SDK pins (read again from its types)', async function () {
    // The TypeScript compiler over all of the SDK's types: slow on a busy machine, and only here.
    this.timeout(240_000);
    const kept = stripeParameters();
    const derived = deriveStripeParameters();
    expect(kept.apiVersion, 'stripe-parameters.json is of another SDK: run `npx tsx test/support/stripe-reference.ts --write`').to.equal(derived.apiVersion);
    expect(kept).to.deep.equal(derived);
  });

  it('every request of every money path names only parameters the reference has for its endpoint', async function () {
    const start = fake.log.length;
    const { customerId, card } = await customerWithCard(1);
    const paid = await stripe.createCheckout(checkoutRequest());
    fake.pay(paid.providerReference);
    await stripe.fetchStatus({ reference: 'r', providerReference: paid.providerReference, amount: money(15000, 'KRW') });
    const charge = await stripe.savedCards.chargeOffSession({
      reference: 'renewal-1',
      orderId: 1,
      amount: money(499, 'EUR'),
      description: 'Netflix renewal',
      card,
      idempotencyKey: `renewal-${Date.now()}`,
    });
    expect(charge.status).to.equal('succeeded');
    await stripe.fetchStatus({ reference: 'renewal-1', providerReference: charge.paymentIntentId!, amount: money(499, 'EUR') });
    const update = await stripe.savedCards.cardUpdateCheckout({
      customerId,
      currency: 'EUR',
      successUrl: 'http://shop.test/user/1',
      cancelUrl: 'http://shop.test/user/1',
      idempotencyKey: `update-${Date.now()}`,
    });
    fake.pay(update.sessionId, { card: { last4: '1881' } });
    expect((await stripe.savedCards.cardOfUpdate(update.sessionId))?.last4).to.equal('1881');
    const intent = fake.session(paid.providerReference).payment_intent!;
    await stripe.refund({
      refundId: 1,
      reference: 'r',
      providerReference: paid.providerReference,
      providerPaymentId: intent,
      amount: money(5000, 'KRW'),
      paid: money(15000, 'KRW'),
      reason: 'test',
    });
    await stripe.completeFacts({ eventId: 'e', eventType: 'charge.refunded', providerPaymentId: intent, status: 'refunded', needsConfirmation: false });

    const sent = fake.log.slice(start);
    const kinds = new Set(sent.map((entry) => stripeEndpointOf(entry.method, entry.path)));
    expect([...kinds]).to.include.members([
      'POST /v1/customers',
      'POST /v1/checkout/sessions',
      'GET /v1/checkout/sessions/:id',
      'POST /v1/payment_intents',
      'GET /v1/payment_intents/:id',
      'POST /v1/refunds',
      'GET /v1/refunds',
    ]);
    expect(offReference(sent)).to.deep.equal([]);
  });

  it('the off-session charge names its method: automatic payment methods without redirects', async function () {
    const { card } = await customerWithCard(2);
    await stripe.savedCards.chargeOffSession({
      reference: 'renewal-2',
      orderId: 2,
      amount: money(6900, 'KRW'),
      description: 'renewal',
      card,
      idempotencyKey: `k-${Date.now()}`,
    });
    const raw = new URLSearchParams(fake.chargeRequests.at(-1)!.rawBody);
    expect(raw.get('confirm')).to.equal('true');
    expect(raw.get('off_session')).to.equal('true');
    expect(raw.get('automatic_payment_methods[enabled]')).to.equal('true');
    expect(raw.get('automatic_payment_methods[allow_redirects]')).to.equal('never');
  });

  it('the check fails on a parameter the reference does not have for that endpoint, and the server refuses it', async function () {
    // `payment_method_types` is not a PaymentIntent parameter in the pinned version (it names them `allowed_payment_method_types`).
    expect(unknownParameters('POST /v1/payment_intents', { amount: '100', payment_method_types: ['card'] })).to.deep.equal(['payment_method_types']);
    expect(unknownParameters('POST /v1/checkout/sessions', { line_items: [{ price_data: { product_data: { name: 'x', colour: 'red' } } }] })).to.deep.equal([
      'line_items[0][price_data][product_data][colour]',
    ]);
    expect(unknownParameters('POST /v1/refunds', { payment_intent: 'pi_1', metadata: { anything: 'goes' } })).to.deep.equal([]);
    const refused = await send(fake, '/v1/customers', { email: 'a@example.com', nickname: 'x' });
    expect(refused.status).to.equal(400);
    expect(refused.body.error).to.include({ type: 'invalid_request_error', code: 'parameter_unknown', param: 'nickname' });
    expect(offReference([fake.log.at(-1)!])).to.deep.equal([{ request: 'POST /v1/customers', unknown: ['nickname'] }]);
  });

  it('refuses to confirm with automatic payment methods without return_url or allow_redirects=never', async function () {
    const { customerId, card } = await customerWithCard(3);
    const base = { amount: '499', currency: 'eur', customer: customerId, payment_method: card.paymentMethodId, confirm: 'true', off_session: 'true' };
    const refused = await send(fake, '/v1/payment_intents', base);
    expect(refused.status).to.equal(400);
    expect(refused.body.error).to.include({ type: 'invalid_request_error', param: 'return_url' });
    expect(refused.body.error!.message).to.include('You must provide a return_url');
    expect((await send(fake, '/v1/payment_intents', { ...base, return_url: 'https://shop.test/back' })).status).to.equal(200);
    expect(
      (
        await send(fake, '/v1/payment_intents', {
          ...base,
          'automatic_payment_methods[enabled]': 'true',
          'automatic_payment_methods[allow_redirects]': 'never',
        })
      ).status,
    ).to.equal(200);
    expect((await send(fake, '/v1/payment_intents', { ...base, 'allowed_payment_method_types[0]': 'card' })).status).to.equal(200);
  });

  it('refuses an idempotency key used again with other parameters (400 idempotency_error), and replays the same request', async function () {
    const key = `idem-${Date.now()}`;
    const first = await send(fake, '/v1/customers', { email: 'one@example.com' }, key);
    const again = await send(fake, '/v1/customers', { email: 'one@example.com' }, key);
    expect(again.body).to.deep.equal(first.body);
    const other = await send(fake, '/v1/customers', { email: 'two@example.com' }, key);
    expect(other.status).to.equal(400);
    expect(other.body.error!.type).to.equal('idempotency_error');
  });

  it('refuses a payment method that belongs to another customer', async function () {
    const one = await customerWithCard(4);
    const other = await customerWithCard(5);
    const refused = await send(fake, '/v1/payment_intents', {
      amount: '499',
      currency: 'eur',
      customer: other.customerId,
      payment_method: one.card.paymentMethodId,
      confirm: 'true',
      off_session: 'true',
      'automatic_payment_methods[enabled]': 'true',
      'automatic_payment_methods[allow_redirects]': 'never',
    });
    expect(refused.status).to.equal(400);
    expect(refused.body.error).to.include({ type: 'invalid_request_error', param: 'payment_method' });
  });

  it('a charge Stripe fails without the card being at fault is a provider error with its message and request id, not a decline', async function () {
    const { card } = await customerWithCard(6);
    const charge = (key: string) =>
      stripe.savedCards.chargeOffSession({
        reference: `renewal-${key}`,
        orderId: 6,
        amount: money(499, 'EUR'),
        description: 'renewal',
        card,
        idempotencyKey: `${key}-${Date.now()}`,
      });
    for (const [how, status, type] of [
      ['invalid_request', 400, 'invalid_request_error'],
      ['api_error', 500, 'api_error'],
      ['rate_limit', 429, 'invalid_request_error'],
      ['timeout', 0, 'connection'],
    ] as const) {
      fake.failNextCharge(how, { timeoutMs: 2500 });
      const result = await charge(how);
      expect(result.status, how).to.equal('provider_error');
      expect(result.declineCode, how).to.equal(undefined);
      expect(result.providerError, how).to.include({ httpStatus: status, type });
      if (status > 0) expect(result.providerError!.requestId, how).to.equal(fake.chargeRequests.at(-1)!.requestId);
      expect(result.providerError!.message, how).to.be.a('string').and.not.equal('');
    }
    expect((await charge('after')).status).to.equal('succeeded');
  });
});
