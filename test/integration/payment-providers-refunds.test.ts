/**
 * Money going back, at the adapters: the refund calls of Stripe, Payssion and the demo provider
 * against the local servers that speak Stripe's and Payssion's protocols (test/support/fake-*.ts),
 * and the provider-side refund, dispute and chargeback notifications read into reports, signatures
 * included. What the shop does with a report (the order, the slot, the e-mails) is tested end to end
 * elsewhere; here: the exact requests, the receipts, the errors, and the report fields.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { ConflictError, NotFoundError, UnavailableError } from '../../packages/core/src/shared/errors.js';
import { type Money, money } from '../../packages/core/src/shared/money.js';
import { CoinPalProvider } from '../../packages/core/src/modules/payments/providers/coinpal.js';
import { DemoProvider } from '../../packages/core/src/modules/payments/providers/demo.js';
import { PayssionProvider, payssionRefundSig } from '../../packages/core/src/modules/payments/providers/payssion.js';
import {
  type CheckoutRequest,
  type PaymentMethodId,
  type PaymentProvider,
  type RefundRequest,
  SignatureError,
} from '../../packages/core/src/modules/payments/providers/provider.js';
import { StripeProvider } from '../../packages/core/src/modules/payments/providers/stripe.js';
import { FakePayssion } from '../support/fake-payssion.js';
import { FakeStripe } from '../support/fake-stripe.js';
import { checkoutRequest, incoming, rejected } from './adapter-requests.js';

function refused(verify: () => unknown): void {
  expect(verify).to.throw(SignatureError);
}

/** A checkout request of `method` for `amount` (Korean for KRW). */
function checkout(method: PaymentMethodId, amount: Money): CheckoutRequest {
  return checkoutRequest({ method, amount, languageId: amount.currency === 'KRW' ? 2 : 1, notifyUrl: 'http://shop.test/api/webhook/x' });
}

let refundIds = 500;
function refundOf(
  paid: { reference: string; providerReference: string | null; providerPaymentId?: string | null; amount: Money },
  amount: number,
  refundId = ++refundIds,
): RefundRequest {
  return {
    refundId,
    reference: paid.reference,
    providerReference: paid.providerReference,
    providerPaymentId: paid.providerPaymentId ?? null,
    paid: paid.amount,
    amount: money(amount, paid.amount.currency),
    reason: 'asked within 24 hours',
  };
}

describe('payment provider adapters: refunds, disputes and chargebacks', function () {
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
      fake.refundStatus = 'succeeded';
      stripe = new StripeProvider({
        secretKey: fake.secretKey,
        webhookSecret: fake.webhookSecret,
        apiBase: fake.baseUrl,
        timeoutMs: 500,
        installationId: async () => 'test-installation',
      });
    });

    /** A card payment made through the adapter and paid at the fake; its PaymentIntent as the paid event reports it. */
    async function paidCard(amount: Money) {
      const request = checkout(1, amount);
      const { providerReference } = await stripe.createCheckout(request);
      fake.pay(providerReference);
      const report = stripe.verifyNotification(incoming(fake.webhook(providerReference, 'checkout.session.completed')));
      expect(report.status).to.equal('paid');
      expect(report.providerPaymentId).to.match(/^pi_/);
      return { reference: request.reference, providerReference, providerPaymentId: report.providerPaymentId!, amount };
    }

    it('refunds part of a EUR payment in cents on its PaymentIntent, with our refund as the Idempotency-Key', async function () {
      const paid = await paidCard(money(1050, 'EUR'));
      const request = refundOf(paid, 945);
      const receipt = await stripe.refund(request);
      expect(receipt.status).to.equal('succeeded');
      expect(receipt.providerRefundId).to.match(/^re_/);

      const sent = fake.lastRefund!;
      expect(sent.headers['idempotency-key']).to.equal(`subshare-test-installation-refund-${request.refundId}`);
      expect(sent.headers.authorization).to.equal(`Bearer ${fake.secretKey}`);
      expect(sent.params).to.deep.equal({
        payment_intent: paid.providerPaymentId,
        amount: '945',
        reason: 'requested_by_customer',
        metadata: { reference: paid.reference, refundId: String(request.refundId) },
      });
      const atStripe = fake.payment(paid.providerPaymentId);
      expect(atStripe.amountRefunded).to.equal(945);
      expect(atStripe.refunds.map((refund) => refund.id)).to.deep.equal([receipt.providerRefundId]);
      // The PaymentIntent carries our reference too, for people in Stripe's dashboard.
      expect(atStripe.metadata).to.deep.equal({ reference: paid.reference, orderId: paid.reference.split('-')[0] });
    });

    it('refunds KRW in whole won (zero-decimal)', async function () {
      const paid = await paidCard(money(15000, 'KRW'));
      await stripe.refund(refundOf(paid, 13500));
      expect(fake.lastRefund!.params).to.include({ amount: '13500' });
      expect(fake.payment(paid.providerPaymentId)).to.include({ amountRefunded: 13500, currency: 'krw' });
    });

    it('the same refund asked twice (double click, retry) is one refund at Stripe; other details under its key are refused', async function () {
      const paid = await paidCard(money(2000, 'EUR'));
      const request = refundOf(paid, 1800);
      const before = fake.requests.refund;
      const first = await stripe.refund(request);
      const again = await stripe.refund(request);
      expect(again).to.deep.equal(first);
      expect(fake.requests.refund - before).to.equal(2);
      expect(fake.payment(paid.providerPaymentId).refunds).to.have.length(1);
      expect(fake.payment(paid.providerPaymentId).amountRefunded).to.equal(1800);

      await rejected(stripe.refund({ ...request, amount: money(100, 'EUR') }), ConflictError, 'stripe_idempotency');
      expect(fake.payment(paid.providerPaymentId).refunds).to.have.length(1);
    });

    it('a refund Stripe refuses (already refunded, more than is left, unknown payment) is an error, and nothing moves', async function () {
      const paid = await paidCard(money(1000, 'EUR'));
      const tooMuch = await rejected(
        stripe.refund(refundOf(paid, 1000)).then(() => stripe.refund(refundOf(paid, 1))),
        ConflictError,
        'refund_refused',
      );
      expect(tooMuch.message).to.include('has already been refunded');

      const other = await paidCard(money(1000, 'EUR'));
      await stripe.refund(refundOf(other, 600));
      const more = await rejected(stripe.refund(refundOf(other, 500)), ConflictError, 'refund_refused');
      expect(more.message).to.include('greater than unrefunded amount');
      expect(fake.payment(other.providerPaymentId).amountRefunded).to.equal(600);

      await rejected(stripe.refund(refundOf({ ...other, providerPaymentId: 'pi_unknown' }, 100)), NotFoundError, 'stripe_payment_not_found');

      // Stripe's words reach staff, but never anything that looks like a key.
      fake.failNext(400, { error: { type: 'invalid_request_error', message: 'Refunds are disabled for sk_test_abcdef0123 on this account' } });
      const scrubbed = await rejected(stripe.refund(refundOf(other, 100)), ConflictError, 'refund_refused');
      expect(scrubbed.message).to.include('Refunds are disabled').and.not.include('sk_test');
    });

    it('without the PaymentIntent it is read from the Checkout Session (and answered); with neither, refused before asking Stripe', async function () {
      const paid = await paidCard(money(1000, 'EUR'));
      const before = fake.requests.refund;
      const error = await rejected(
        stripe.refund(refundOf({ ...paid, providerPaymentId: null, providerReference: null }, 500)),
        ConflictError,
        'refund_not_possible',
      );
      expect(error.message).to.include('payment id');
      expect(fake.requests.refund).to.equal(before);

      const receipt = await stripe.refund(refundOf({ ...paid, providerPaymentId: null }, 500));
      expect(receipt).to.include({ status: 'succeeded', providerPaymentId: paid.providerPaymentId });
      expect(fake.payment(paid.providerPaymentId).amountRefunded).to.equal(500);
    });

    it('a 500 or a timeout is UnavailableError; a timeout after Stripe made the refund is safe to retry: the same refund comes back', async function () {
      const paid = await paidCard(money(15000, 'KRW'));
      const request = refundOf(paid, 15000);
      fake.failNext(500);
      await rejected(stripe.refund(request), UnavailableError, 'stripe_unavailable');
      expect(fake.payment(paid.providerPaymentId).refunds).to.have.length(0);
      fake.delayNext(2000);
      await rejected(stripe.refund(request), UnavailableError, 'stripe_unavailable');

      fake.delayAnswerNext(2000);
      await rejected(stripe.refund(request), UnavailableError, 'stripe_unavailable');
      const made = fake.payment(paid.providerPaymentId).refunds;
      expect(made).to.have.length(1); // the money went back, and we do not know it yet

      const retry = await stripe.refund(request);
      expect(retry).to.deep.equal({ providerRefundId: made[0].id, status: 'succeeded' });
      expect(fake.payment(paid.providerPaymentId).refunds).to.have.length(1);
      expect(fake.payment(paid.providerPaymentId).amountRefunded).to.equal(15000);
    });

    it("maps the refund's status: pending and requires_action are on their way, failed and canceled are refused", async function () {
      const paid = await paidCard(money(3000, 'EUR'));
      fake.refundStatus = 'pending';
      expect((await stripe.refund(refundOf(paid, 1000))).status).to.equal('pending');

      const answer = (status: string) => ({
        id: 're_answered',
        object: 'refund',
        amount: 100,
        currency: 'eur',
        payment_intent: paid.providerPaymentId,
        status,
        failure_reason: 'expired_or_canceled_card',
      });
      fake.failNext(200, answer('requires_action'));
      expect(await stripe.refund(refundOf(paid, 100))).to.deep.equal({ providerRefundId: 're_answered', status: 'pending' });
      fake.failNext(200, answer('failed'));
      const failed = await rejected(stripe.refund(refundOf(paid, 100)), ConflictError, 'refund_refused');
      expect(failed.message).to.include('expired_or_canceled_card');
      fake.failNext(200, answer('canceled'));
      await rejected(stripe.refund(refundOf(paid, 100)), ConflictError, 'refund_refused');
    });

    it('refuses to ask for more than was paid, or in another currency (a bug in the caller, not a provider question)', async function () {
      const paid = await paidCard(money(1000, 'EUR'));
      const before = fake.requests.refund;
      await rejected(stripe.refund(refundOf(paid, 1001)), RangeError);
      await rejected(stripe.refund(refundOf(paid, 0)), RangeError);
      await rejected(stripe.refund({ ...refundOf(paid, 500), amount: money(500, 'KRW') }), RangeError);
      expect(fake.requests.refund).to.equal(before);
    });

    describe('charge.refunded', function () {
      it("reads a refund (ours or the dashboard's) by its PaymentIntent, with all that has gone back so far", async function () {
        const paid = await paidCard(money(1050, 'EUR'));
        await stripe.refund(refundOf(paid, 500));
        const delivery = fake.chargeRefundedWebhook(paid.providerPaymentId);
        expect(stripe.verifyNotification(incoming(delivery))).to.deep.equal({
          eventId: delivery.event.id,
          eventType: 'charge.refunded',
          providerPaymentId: paid.providerPaymentId,
          status: 'refunded',
          amount: money(1050, 'EUR'),
          moneyBack: { total: money(500, 'EUR') },
          // The running total as a ledger fact; the refunds themselves are listed by completeFacts.
          facts: [{ kind: 'refund_total', subject: fake.payment(paid.providerPaymentId).chargeId, status: 'succeeded', amount: 500, currency: 'EUR' }],
          needsConfirmation: false,
        });
        const completed = await stripe.completeFacts(stripe.verifyNotification(incoming(delivery)));
        expect(completed.facts!.map((fact) => [fact.kind, fact.subject, fact.status, fact.amount])).to.deep.equal([
          ['refund', fake.payment(paid.providerPaymentId).refunds[0].id, 'succeeded', 500],
          ['refund_total', fake.payment(paid.providerPaymentId).chargeId, 'succeeded', 500],
        ]);

        fake.dashboardRefund(paid.providerPaymentId, 300);
        const cumulative = stripe.verifyNotification(incoming(fake.chargeRefundedWebhook(paid.providerPaymentId)));
        expect(cumulative.moneyBack).to.deep.equal({ total: money(800, 'EUR') });
        expect(cumulative.reference).to.equal(undefined); // the charge does not carry our session's reference
      });

      it('KRW in whole won; an expanded PaymentIntent is read by its id; an explicit total is taken as given', async function () {
        const paid = await paidCard(money(15000, 'KRW'));
        fake.dashboardRefund(paid.providerPaymentId);
        const whole = stripe.verifyNotification(incoming(fake.chargeRefundedWebhook(paid.providerPaymentId)));
        expect(whole).to.deep.include({ status: 'refunded', providerPaymentId: paid.providerPaymentId, moneyBack: { total: money(15000, 'KRW') } });

        const expanded = stripe.verifyNotification(
          incoming(
            fake.chargeRefundedWebhook(paid.providerPaymentId, {
              amountRefunded: 6900,
              charge: { payment_intent: { id: paid.providerPaymentId, object: 'payment_intent' } },
            }),
          ),
        );
        expect(expanded).to.deep.include({ providerPaymentId: paid.providerPaymentId, moneyBack: { total: money(6900, 'KRW') } });
      });

      it('a pending refund that fails later counts as not refunded again (as Stripe reverses amount_refunded)', async function () {
        const paid = await paidCard(money(2000, 'EUR'));
        fake.refundStatus = 'pending';
        const pending = await stripe.refund(refundOf(paid, 1500));
        expect(stripe.verifyNotification(incoming(fake.chargeRefundedWebhook(paid.providerPaymentId))).moneyBack).to.deep.equal({ total: money(1500, 'EUR') });
        fake.settleRefund(pending.providerRefundId, 'failed');
        expect(fake.payment(paid.providerPaymentId).amountRefunded).to.equal(0);
        expect(stripe.verifyNotification(incoming(fake.chargeRefundedWebhook(paid.providerPaymentId))).moneyBack).to.deep.equal({ total: money(0, 'EUR') });
      });

      it('refuses a tampered or wrongly signed one', async function () {
        const paid = await paidCard(money(1000, 'EUR'));
        fake.dashboardRefund(paid.providerPaymentId, 400);
        refused(() => stripe.verifyNotification(incoming(fake.chargeRefundedWebhook(paid.providerPaymentId, { tamper: true }))));
        refused(() => stripe.verifyNotification(incoming(fake.chargeRefundedWebhook(paid.providerPaymentId, { secret: 'whsec_someone_else' }))));
        refused(() =>
          stripe.verifyNotification(incoming(fake.chargeRefundedWebhook(paid.providerPaymentId, { timestamp: Math.floor(Date.now() / 1000) - 301 }))),
        );
      });
    });

    describe('charge.dispute.*', function () {
      it('created: the money is held (disputed), with the dispute, its amount and the PaymentIntent', async function () {
        const paid = await paidCard(money(15000, 'KRW'));
        const delivery = fake.disputeWebhook(paid.providerPaymentId, 'charge.dispute.created');
        const disputeId = fake.payment(paid.providerPaymentId).dispute!.id;
        expect(disputeId).to.match(/^du_/);
        expect(stripe.verifyNotification(incoming(delivery))).to.deep.equal({
          eventId: delivery.event.id,
          eventType: 'charge.dispute.created',
          providerPaymentId: paid.providerPaymentId,
          disputeId,
          status: 'disputed',
          amount: money(15000, 'KRW'),
          facts: [{ kind: 'dispute', subject: disputeId, status: 'open', amount: 15000, currency: 'KRW' }],
          needsConfirmation: false,
        });
      });

      it('closed: won and warning_closed keep the money; lost takes the disputed amount back; anything else is unknown', async function () {
        const status = (paymentIntent: string, closed: Parameters<FakeStripe['disputeWebhook']>[2]) =>
          stripe.verifyNotification(incoming(fake.disputeWebhook(paymentIntent, 'charge.dispute.closed', closed)));

        const won = await paidCard(money(1050, 'EUR'));
        fake.disputeWebhook(won.providerPaymentId, 'charge.dispute.created');
        expect(status(won.providerPaymentId, { status: 'won' })).to.deep.include({
          status: 'dispute_won',
          disputeId: fake.payment(won.providerPaymentId).dispute!.id,
        });
        expect(status(won.providerPaymentId, { status: 'warning_closed' }).status).to.equal('dispute_won');
        expect(status(won.providerPaymentId, { status: 'won' }).moneyBack).to.equal(undefined);

        const lost = await paidCard(money(1050, 'EUR'));
        const lostReport = status(lost.providerPaymentId, { status: 'lost', amount: 1000, disputeId: 'du_lost_1' });
        expect(lostReport).to.deep.include({
          status: 'charged_back',
          disputeId: 'du_lost_1',
          providerPaymentId: lost.providerPaymentId,
          amount: money(1000, 'EUR'),
          moneyBack: { amount: money(1000, 'EUR'), providerRefundId: 'du_lost_1' },
        });

        expect(status(lost.providerPaymentId, { status: 'under_review' }).status).to.equal('unknown');
      });

      it('funds withdrawn or reinstated are noted (unknown), still naming the dispute', async function () {
        const paid = await paidCard(money(1000, 'EUR'));
        for (const type of ['charge.dispute.funds_withdrawn', 'charge.dispute.funds_reinstated'] as const) {
          const report = stripe.verifyNotification(incoming(fake.disputeWebhook(paid.providerPaymentId, type)));
          expect(report).to.deep.include({ status: 'unknown', eventType: type, providerPaymentId: paid.providerPaymentId });
          expect(report.disputeId).to.match(/^du_/);
        }
      });

      it('refuses a tampered or wrongly signed one', async function () {
        const paid = await paidCard(money(1000, 'EUR'));
        refused(() => stripe.verifyNotification(incoming(fake.disputeWebhook(paid.providerPaymentId, 'charge.dispute.created', { tamper: true }))));
        refused(() =>
          stripe.verifyNotification(incoming(fake.disputeWebhook(paid.providerPaymentId, 'charge.dispute.closed', { status: 'lost', secret: 'whsec_x' }))),
        );
      });
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
      fake.refundState = 'refunded';
      payssion = new PayssionProvider({ apiKey: fake.apiKey, secretKey: fake.secretKey, apiBase: fake.apiBase, timeoutMs: 500 });
    });

    async function paidKorean(amount: Money, method: PaymentMethodId = 3) {
      const request = checkout(method, amount);
      const { providerReference } = await payssion.createCheckout(request);
      fake.setState(providerReference, 'completed');
      return { reference: request.reference, providerReference, amount };
    }

    it('refunds signature: md5(api_key|transaction_id|amount|currency|secret_key) (computed example)', function () {
      expect(payssionRefundSig('sandbox_key', 'T123', '10000', 'KRW', 'sandbox_secret')).to.equal('3fbf08ed70dfb7b00f3663c4a625d417');
    });

    it('posts a signed refund in whole won to /refunds; the fake checks the signature and records it', async function () {
      const paid = await paidKorean(money(15000, 'KRW'));
      const receipt = await payssion.refund(refundOf(paid, 13500));
      const sent = fake.lastRefund!;
      expect(sent.contentType).to.match(/^application\/x-www-form-urlencoded/);
      const expectedSig = createHash('md5').update(`${fake.apiKey}|${paid.providerReference}|13500|KRW|${fake.secretKey}`).digest('hex');
      expect(sent.params).to.deep.equal({
        api_key: fake.apiKey,
        transaction_id: paid.providerReference,
        amount: '13500',
        currency: 'KRW',
        api_sig: expectedSig,
      });
      const atPayssion = fake.transaction(paid.providerReference).refunds;
      expect(atPayssion.map((refund) => [refund.transaction_id, refund.amount])).to.deep.equal([[receipt.providerRefundId, '13500']]);
      expect(receipt.status).to.equal('succeeded');
      expect(receipt.providerRefundId).to.match(/^R\d+/);
    });

    it('sends EUR with two decimals', async function () {
      const paid = await paidKorean(money(1050, 'EUR'), 5);
      await payssion.refund(refundOf(paid, 1000));
      expect(fake.lastRefund!.params).to.include({ amount: '10.00', currency: 'EUR' });
    });

    it('a refund signed with the wrong secret is refused by Payssion (402): our keys are wrong, and nothing moves', async function () {
      const paid = await paidKorean(money(15000, 'KRW'));
      const wrongSecret = new PayssionProvider({ apiKey: fake.apiKey, secretKey: 'not-the-secret', apiBase: fake.apiBase });
      await rejected(wrongSecret.refund(refundOf(paid, 1000)), UnavailableError, 'payssion_misconfigured');
      expect(fake.transaction(paid.providerReference).refunds).to.have.length(0);
    });

    it('more than is left, an unpaid payment, an unknown transaction: refused; without a transaction id: not possible', async function () {
      const paid = await paidKorean(money(15000, 'KRW'));
      await payssion.refund(refundOf(paid, 10000));
      const more = await rejected(payssion.refund(refundOf(paid, 5001)), ConflictError, 'payssion_refund_refused');
      expect(more.message).to.include('5000 KRW left');
      expect(fake.transaction(paid.providerReference).refunds).to.have.length(1);
      await payssion.refund(refundOf(paid, 5000));
      expect(fake.transaction(paid.providerReference).state).to.equal('refunded');
      await rejected(payssion.refund(refundOf(paid, 1)), ConflictError, 'payssion_refund_refused');

      const request = checkout(4, money(15000, 'KRW'));
      const unpaid = await payssion.createCheckout(request);
      await rejected(
        payssion.refund(refundOf({ reference: request.reference, providerReference: unpaid.providerReference, amount: request.amount }, 100)),
        ConflictError,
        'payssion_refund_refused',
      );
      await rejected(payssion.refund(refundOf({ ...paid, providerReference: 'T-unknown' }, 100)), ConflictError, 'payssion_refund_refused');

      const before = fake.requests.refund;
      await rejected(payssion.refund(refundOf({ ...paid, providerReference: null }, 100)), ConflictError, 'refund_not_possible');
      expect(fake.requests.refund).to.equal(before);
    });

    it("a refund still at the bank is pending; without Payssion's refund id the receipt names the transaction", async function () {
      const paid = await paidKorean(money(15000, 'KRW'));
      fake.refundState = 'refund_pending';
      expect((await payssion.refund(refundOf(paid, 1000))).status).to.equal('pending');

      fake.failNext(200, JSON.stringify({ result_code: 200, refund: { amount: '1000', currency: 'KRW', state: 'completed' } }));
      expect(await payssion.refund(refundOf(paid, 1000))).to.deep.equal({ providerRefundId: `${paid.providerReference}:refund`, status: 'succeeded' });
    });

    it('500s, busy answers and timeouts are UnavailableError; the first two refund nothing', async function () {
      const paid = await paidKorean(money(15000, 'KRW'));
      fake.failNext(500);
      await rejected(payssion.refund(refundOf(paid, 1000)), UnavailableError, 'payssion_unavailable');
      fake.failNext(200, JSON.stringify({ result_code: 501, description: 'server busy' }));
      await rejected(payssion.refund(refundOf(paid, 1000)), UnavailableError, 'payssion_unavailable');
      expect(fake.transaction(paid.providerReference).refunds).to.have.length(0);
      fake.delayNext(2000);
      await rejected(payssion.refund(refundOf(paid, 1000)), UnavailableError, 'payssion_unavailable');
    });

    it('a timeout after Payssion made the refund is UnavailableError, yet the refund exists there (no key to ask again with)', async function () {
      const paid = await paidKorean(money(15000, 'KRW'));
      fake.delayAnswerNext(2000);
      await rejected(payssion.refund(refundOf(paid, 15000)), UnavailableError, 'payssion_unavailable');
      expect(fake.transaction(paid.providerReference).refunds.map((refund) => refund.amount)).to.deep.equal(['15000']);
      // Its `refunded` notification is what tells the shop.
      expect(payssion.verifyNotification(incoming(fake.refundedNotification(paid.providerReference)))).to.deep.include({
        status: 'refunded',
        moneyBack: { amount: money(15000, 'KRW') },
      });
    });

    it('reads the signed refunded and chargeback notifications as money back, by the signed order_id', async function () {
      const paid = await paidKorean(money(15000, 'KRW'));
      await payssion.refund(refundOf(paid, 13500));
      // A refund is a transaction of its own at Payssion: its id tells a second refund of the same amount from a repeat of the first.
      const refundId = fake.transaction(paid.providerReference).refunds.at(-1)!.transaction_id;
      for (const json of [false, true]) {
        expect(payssion.verifyNotification(incoming(fake.refundedNotification(paid.providerReference, { json })))).to.deep.equal({
          eventId: `${paid.reference}:refunded:13500:${refundId}`,
          eventType: 'payssion.refunded',
          reference: paid.reference,
          // The notification's transaction_id is the refund's: the payment is found by the signed order_id.
          providerReference: undefined,
          status: 'refunded',
          amount: money(13500, 'KRW'),
          moneyBack: { amount: money(13500, 'KRW') },
          facts: [{ kind: 'refund', subject: refundId, status: 'succeeded', amount: 13500, currency: 'KRW' }],
          needsConfirmation: false,
        });
      }

      const other = await paidKorean(money(1050, 'EUR'), 6);
      const chargeback = payssion.verifyNotification(incoming(fake.chargebackNotification(other.providerReference)));
      expect(chargeback).to.deep.include({
        eventId: `${other.reference}:chargeback:10.50`,
        reference: other.reference,
        status: 'charged_back',
        moneyBack: { amount: money(1050, 'EUR') },
      });

      const pending = payssion.verifyNotification(incoming(fake.notification(paid.providerReference, { state: 'refund_pending' })));
      // A refund on its way: the payment's status is unchanged; the ledger gets a pending refund. This
      // one carries the payment's own transaction_id, which the notification flow names by its amount.
      expect(pending).to.deep.include({
        status: 'unknown',
        eventId: `${paid.reference}:refund_pending:${fake.transaction(paid.providerReference).amount}:${paid.providerReference}`,
      });
      expect(pending.moneyBack).to.equal(undefined);
      expect(pending.facts!.map((fact) => [fact.kind, fact.status, fact.amount])).to.deep.equal([['refund', 'pending', 15000]]);
    });

    it('refuses forged and tampered money-back notifications', async function () {
      const paid = await paidKorean(money(15000, 'KRW'));
      refused(() => payssion.verifyNotification(incoming(fake.refundedNotification(paid.providerReference, { forgeSig: true }))));
      refused(() => payssion.verifyNotification(incoming(fake.chargebackNotification(paid.providerReference, { tamper: { amount: '1' } }))));
      refused(() => payssion.verifyNotification(incoming(fake.notification(paid.providerReference, { state: 'completed', tamper: { state: 'chargeback' } }))));
    });

    it('fetchStatus after the money went back: refunded, charged_back; a refund still pending says nothing new', async function () {
      const ask = (paid: { reference: string; providerReference: string; amount: Money }) => payssion.fetchStatus(paid);
      const refunded = await paidKorean(money(15000, 'KRW'));
      await payssion.refund(refundOf(refunded, 15000));
      expect((await ask(refunded)).status).to.equal('refunded');

      const pending = await paidKorean(money(15000, 'KRW'));
      fake.refundState = 'refund_pending';
      await payssion.refund(refundOf(pending, 15000));
      expect((await ask(pending)).status).to.equal('unknown');

      const chargedBack = await paidKorean(money(15000, 'KRW'));
      fake.chargebackNotification(chargedBack.providerReference);
      expect((await ask(chargedBack)).status).to.equal('charged_back');
    });
  });

  describe('demo provider and CoinPal', function () {
    it('the demo refunds at once: no money moved', async function () {
      const demo = new DemoProvider({ publicUrl: 'http://shop.test', secret: 'a-test-secret-that-is-long-enough' });
      const paid = { reference: '9-9', providerReference: 'demo-9-9', amount: money(6900, 'KRW') };
      expect(await demo.refund(refundOf(paid, 6200, 77))).to.deep.equal({ providerRefundId: 'demo-refund-77', status: 'succeeded' });
      await rejected(demo.refund(refundOf(paid, 6901)), RangeError);
    });

    it('CoinPal has no refund call (staff send the crypto back and record it)', function () {
      const coinpal: PaymentProvider = new CoinPalProvider({ merchantNo: '100001', secretKey: 's', apiBase: 'http://127.0.0.1:1' });
      expect(coinpal.refund).to.equal(undefined);
      expect('refund' in coinpal).to.equal(false);
    });
  });
});
