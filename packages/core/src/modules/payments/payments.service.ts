/**
 * Taking money: the payments module's own part. It opens payments and their provider checkout,
 * verifies what providers say, and records each provider event once. It never touches an order:
 * what a payment's change means for its order is the money path's flows
 * (`core/src/flows/checkout.flow.ts`, `core/src/flows/payment-notification.flow.ts`), which call
 * this service and the orders service inside one transaction.
 *
 *   verifyNotification: signature ─(demo: still served?)─(CoinPal: ask status)─▶ report
 *   applyReport (in the flow's transaction): lock the payment named by the signed reference ─▶
 *       unsigned fields agree? ─▶ insert payment_events (unique) ─▶ check amount ─▶ settle the
 *       payment ─▶ answer what the order must do (paid, failed, refunded) or that it is done
 *
 * A signature covers only some fields (Payssion's not the transaction_id, CoinPal's not the
 * status or its reference). So a message finds its payment only by what is signed (our
 * reference), is named (payment_events) only by what is signed, and anything else it says about
 * which payment it is must agree with what we stored, or it is refused and changes nothing.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { AppConfig } from '../../shared/config.js';
import type { Clock } from '../../shared/clock.js';
import { NotFoundError, fail } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { money, type CurrencyCode, type Money } from '../../shared/money.js';
import { TOKENS } from '../../shared/tokens.js';
import type { AuthenticatedUser, RequestContext } from '../identity/index.js';
import { PaymentRepository, type PaymentRow } from './payment.repository.js';
import { chargedOf } from './charged.js';
import { LedgerService } from './ledger.service.js';
import { RefundsService } from './refunds.service.js';
import { accessEnded, type LedgerEffect, type MoneyFact } from './money-ledger.js';
import { SavedCardsService } from './saved-cards.service.js';
import { CheckoutClaimLost, CheckoutClaims, type CheckoutClaim } from './checkout-claims.js';
import { readDemoToken, type DemoTokenData } from './providers/demo.js';
import { payssionRefundSubject } from './providers/payssion.js';
import { type createPaymentProviders } from './providers/index.js';
import { PAYMENT_PROVIDERS } from './tokens.js';
import {
  SignatureError,
  type IncomingNotification,
  type PaymentMethodId,
  type PaymentProvider,
  type PaymentReport,
  type ProviderName,
} from './providers/provider.js';
import { pagePath } from '../../pages/index.js';

export type PaymentProviders = ReturnType<typeof createPaymentProviders>;

/**
 * A checkout at a provider that cannot be asked whether it is still open (CoinPal, Payssion, the
 * demo) is reused for this long after it was made; later the buyer gets a new one (theirs may have
 * timed out at the provider, whose lifetimes are not documented: protocols.md section 8).
 */
const REUSE_UNASKED_MS = 30 * 60_000;

/** What applying one provider event came to (stored on its payment_events row). */
export type ApplyOutcome =
  | 'duplicate'
  | 'unknown_payment'
  | 'paid'
  | 'paid_twice'
  | 'already_paid'
  | 'amount_mismatch'
  | 'failed'
  | 'expired'
  | 'refunded'
  | 'charged_back'
  | 'suspended'
  | 'reinstated'
  | 'waiting'
  | 'partial_refund'
  | 'refund_pending'
  | 'refund_failed'
  | 'noted';

/** A payment as the rest of core sees it. */
export interface PaymentView {
  id: number;
  orderId: number;
  provider: ProviderName;
  method: PaymentMethodId;
  /** Our reference sent to the provider (`<order>-<payment>`). */
  reference: string;
  /** The provider's id for it, once its checkout started. */
  providerReference: string | null;
  status: PaymentRow['status'];
  /** The payment's whole amount (the order's total): what the money ledger's standing and the refund policy read. */
  amount: Money;
  /** The part of `amount` paid from the buyer's credit (issue 37). */
  credit: Money;
  /** amount − credit: what the provider is asked for (its checkout, status answers, the paid-amount check, a charge, a refund's cap). */
  charged: Money;
  /** The buyer asked for the card to be saved for automatic renewal. */
  saveCard: boolean;
}

/** A payment that was paid: when, and with which card (Stripe's fingerprint; null for other methods). */
export interface PaidPayment extends PaymentView {
  paidAt: Date;
  cardFingerprint: string | null;
}

/** A provider's statement that passed verification (signature, demo still served, CoinPal's status confirmed). */
export interface VerifiedReport {
  provider: ProviderName;
  report: PaymentReport;
  /** What is stored with the event: the raw notification or our status query's answer. */
  payload: string;
}

/**
 * What a payment's change asks of its order; the flow does it in the same transaction. `paid`: the
 * order is paid (and then follows its ledger: events that waited for the payment apply now);
 * `ledger`: a money event changed the payment's standing, the order's access follows the ledger
 * (order-access.ts `follow`).
 */
export type OrderEffect = 'paid' | 'failed' | 'ledger';

/** A recorded event whose payment changed in a way its order must follow; finished with `finishEvent`. */
export interface PendingEvent {
  eventRowId: number;
  effect: OrderEffect;
  paymentId: number;
  orderId: number;
  method: PaymentMethodId;
  /** With `ledger`: what the event did (the outcome stored on its payment_events row). */
  outcome?: ApplyOutcome;
}

/** `applyReport`'s answer: the event is done (or was seen before), or its order must follow first. */
export type AppliedReport = { done: ApplyOutcome } | { pending: PendingEvent };

/** What the checkout page needs to know about the order being paid. */
export interface CheckoutOrder {
  id: number;
  description: string;
  languageId: 1 | 2;
}

@injectable()
export class PaymentsService {
  private readonly logger: Logger;

  constructor(
    @inject(TOKENS.Config) private readonly config: AppConfig,
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) logger: Logger,
    @inject(PaymentRepository) private readonly payments: PaymentRepository,
    @inject(PAYMENT_PROVIDERS) private readonly providers: PaymentProviders,
    @inject(LedgerService) private readonly ledger: LedgerService,
    @inject(RefundsService) private readonly refunds: RefundsService,
    @inject(SavedCardsService) private readonly savedCards: SavedCardsService,
    @inject(CheckoutClaims) private readonly claims: CheckoutClaims,
  ) {
    this.logger = logger.child({ module: 'payments' });
  }

  /** The methods this installation can take (unconfigured ones are served by the demo provider only where allowed). */
  availableMethods(candidates: readonly number[]): PaymentMethodId[] {
    // The order's candidates are method ids (orders keep them as numbers, not knowing this module).
    return (candidates as readonly PaymentMethodId[]).filter((method) => this.config.allowDemoPayments || !this.providers.isDemo(method));
  }

  /** A new pending payment of `amount` for the order through the method's provider, inside the caller's transaction. */
  async open(payment: { orderId: number; method: PaymentMethodId; amount: Money; saveCard?: boolean }, trx: Knex.Transaction): Promise<PaymentView> {
    const provider = this.providers.forMethod(payment.method);
    const row = await this.payments.create(
      {
        order_id: payment.orderId,
        provider: provider.name,
        method: payment.method,
        amount_minor: payment.amount.amount,
        currency: payment.amount.currency,
        created_at: this.clock.now(),
        save_card: payment.saveCard === true,
      },
      trx,
    );
    return toView(row);
  }

  /**
   * Records the part of an opened payment paid from credit (the caller spent it, in this
   * transaction). Wholly covered, the payment's provider becomes `credit`: no provider is asked.
   */
  /** The smallest amount the provider serving `method` charges in `currency`, in minor units (0 when it declares none). */
  minimumCharge(method: PaymentMethodId, currency: CurrencyCode): number {
    return this.providers.forMethod(method).minimumCharge?.[currency] ?? 0;
  }

  async takeCredit(payment: PaymentView, credit: Money, trx: Knex.Transaction): Promise<PaymentView> {
    if (credit.amount <= 0) return payment;
    const row = await this.payments.takeCredit(payment.id, credit.amount, credit.amount >= payment.amount.amount, trx);
    return toView(row);
  }

  /**
   * Claims the order's checkout (checkout-claims.ts): checkouts of one order take turns, and none
   * holds a database connection while a provider answers. The caller releases it.
   */
  claimCheckout(orderId: number): Promise<CheckoutClaim> {
    return this.claims.claim(orderId);
  }

  /**
   * Starts the provider's checkout for an opened payment, holding the order's checkout claim, and
   * answers its page URL. No transaction is open meanwhile: the payment row is committed first, so
   * a notification of the session finds it. When the provider refuses (or the claim was lost before
   * the call), the payment is abandoned (failed) and the error goes on.
   */
  async startProviderCheckout(
    payment: PaymentView,
    order: CheckoutOrder,
    buyer: AuthenticatedUser,
    context: RequestContext,
    claim: CheckoutClaim,
  ): Promise<{ url: string }> {
    const provider = this.providers.byName(payment.provider)!;
    const base = this.config.publicUrl;
    try {
      await claim.keep();
      const saveCardFor = payment.saveCard ? { customerId: await this.savedCards.customerOf(buyer) } : undefined;
      if (saveCardFor) await claim.keep();
      const session = await provider.createCheckout({
        reference: payment.reference,
        orderId: order.id,
        method: payment.method,
        amount: payment.charged,
        description: order.description,
        buyerEmail: buyer.email,
        buyerIp: context.ip,
        languageId: order.languageId,
        successUrl:
          provider.name === 'payssion'
            ? `${base}${pagePath.payssionResult()}` // Payssion appends transaction_id and order_id (our reference)
            : `${base}${pagePath.paymentResult(order.id, true)}${provider.name === 'stripe' ? '?session_id={CHECKOUT_SESSION_ID}' : ''}`,
        cancelUrl: `${base}${pagePath.paymentResult(order.id, false)}`,
        notifyUrl: `${base}/api/webhook/${provider.name}`,
        ...(saveCardFor ? { saveCardFor } : {}),
      });
      await this.payments.attachCheckout(payment.id, session.providerReference, session.url);
      return { url: session.url };
    } catch (error) {
      await this.payments.markAbandoned(payment.id, this.clock.now());
      if (!(error instanceof CheckoutClaimLost)) this.logger.warn({ err: error, provider: provider.name, orderId: order.id }, 'could not start a checkout');
      throw error;
    }
  }

  /**
   * One order, one open checkout (issue 34). Before a checkout of the order is opened, holding the
   * order's checkout claim (so checkouts of one order take turns), its earlier checkouts still
   * pending are looked at, newest first:
   * - one of the same method, card choice and amount (the order's current total: a promotion code
   *   applied since makes an open checkout for the old amount one not to reuse) that can still be
   *   paid is the one to reuse: its URL
   *   is answered and no new payment is made (a second tab, a back button, 8 clicks on a pay link).
   *   Stripe is asked (the session must be `open`); a provider that cannot be asked (CoinPal,
   *   Payssion, the demo) is trusted for `REUSE_UNASKED_MS` after the checkout was made;
   * - any other Stripe session still open is expired (`POST /v1/checkout/sessions/:id/expire`), so
   *   it can no longer be paid, and its payment becomes `expired`; one Stripe says `expired` too;
   * - a Stripe session found `complete` is answered as `completed`: the caller applies it (the
   *   order is paid, or being paid) and opens nothing.
   * Each provider call is made with no transaction open. Payssion and CoinPal have no call that
   * closes a checkout: theirs stay payable until they time out at the provider, and a second
   * payment through them is refunded (payment-notification.flow.ts). Without `wanted` (a code is
   * being applied to the order), nothing is reused: every open Stripe session is expired.
   */
  async settleEarlierCheckouts(
    claim: CheckoutClaim,
    wanted?: { method: PaymentMethodId; saveCard: boolean; amount: Money; credit?: number },
  ): Promise<{ reuse?: { payment: PaymentView; url: string }; completed?: PaymentView }> {
    let reuse: { payment: PaymentView; url: string } | undefined;
    const now = this.clock.now();
    for (const row of await this.payments.findForOrder(claim.orderId)) {
      if (row.status !== 'pending' || !row.provider_reference || !row.checkout_url) continue;
      const provider = this.providers.byName(row.provider);
      if (!provider) continue;
      // Reused only for the same method and card choice, the order's current total (a code applied
      // since changed it) and the same part taken from credit (another part asks the provider for
      // another amount).
      const same =
        !reuse &&
        wanted !== undefined &&
        row.method === wanted.method &&
        row.save_card === wanted.saveCard &&
        row.amount_minor === wanted.amount.amount &&
        row.currency === wanted.amount.currency &&
        (wanted.credit === undefined || Number(row.credit_minor) === wanted.credit);
      if (!provider.checkoutState || !provider.expireCheckout) {
        if (same && now.getTime() - row.created_at.getTime() < REUSE_UNASKED_MS) reuse = { payment: toView(row), url: row.checkout_url };
        continue;
      }
      let state: 'open' | 'complete' | 'expired';
      await claim.keep();
      try {
        state = await provider.checkoutState(row.provider_reference);
        if (state === 'open' && same) {
          reuse = { payment: toView(row), url: row.checkout_url };
          continue;
        }
        if (state === 'open') {
          await claim.keep();
          state = await provider.expireCheckout(row.provider_reference);
        }
      } catch (error) {
        if (error instanceof CheckoutClaimLost) throw error;
        throw fail('provider_unavailable', undefined, { cause: error });
      }
      if (state === 'complete') return { completed: toView(row) };
      await this.payments.expireIfPending(row.id, now);
      this.logger.info(
        { paymentId: row.id, orderId: claim.orderId, provider: provider.name },
        'closed an earlier checkout of the order before opening another',
      );
    }
    return reuse ? { reuse } : {};
  }

  /** A provider's notification, verified and confirmed where the signature does not cover the status; the provider's expected answer with it. */
  async verifyNotification(
    providerName: ProviderName,
    notification: IncomingNotification,
  ): Promise<VerifiedReport & { acknowledgement: PaymentProvider['acknowledgement'] }> {
    const provider = this.providers.byName(providerName);
    if (!provider) throw new NotFoundError('This payment provider is not configured.', 'provider_disabled');
    let report: PaymentReport;
    try {
      report = await provider.verifyNotification(notification);
    } catch (error) {
      if (error instanceof SignatureError) {
        this.logger.warn({ provider: providerName, reason: error.message }, 'refused a payment notification');
        throw fail('invalid_signature');
      }
      throw error;
    }
    if (provider.name === 'demo' && !this.demoServes(report.method)) {
      this.logger.warn({ method: report.method, reference: report.reference }, 'refused a demo payment: the demo provider no longer serves this method');
      throw fail('demo_payments_off');
    }
    if (report.needsConfirmation) report = await this.confirm(provider, report);
    if (provider.completeFacts) {
      try {
        report = await provider.completeFacts(report);
      } catch (error) {
        throw fail('provider_unavailable', undefined, { cause: error });
      }
    }
    return { provider: provider.name, report, payload: notification.rawBody.toString('utf8'), acknowledgement: provider.acknowledgement };
  }

  /** What the demo checkout page shows for a token, or null when the token is not one or the demo no longer serves its method. */
  demoCheckout(token: string): DemoTokenData | null {
    const details = readDemoToken(token);
    return details && this.demoServes(details.method) ? details : null;
  }

  /**
   * A demo token was signed while the demo served its method; it may pay only while it still
   * does (demo payments allowed, and no real provider configured for the method since).
   */
  private demoServes(method: PaymentMethodId | undefined): boolean {
    return method !== undefined && this.config.allowDemoPayments && this.providers.isDemo(method);
  }

  /** Credit that paid for orders, per UTC day its payment was paid in [from, to) (the dashboard: credit spent is no money taken). */
  async creditPaidByDay(from: Date, to: Date): Promise<Array<{ orderId: number; day: string; credit: Money }>> {
    return (await this.payments.paidWithCreditIn(from, to)).map((row) => ({
      orderId: row.order_id,
      day: row.settled_at.toISOString().slice(0, 10),
      credit: money(row.credit_minor, row.currency as CurrencyCode),
    }));
  }

  /** The Order answer's `creditApplied` (minor units) of each order: the credit of its paid payment, else of its open one; 0 otherwise. */
  async creditApplied(orderIds: number[]): Promise<Map<number, number>> {
    return this.payments.creditOfOrders(orderIds);
  }

  /** One payment by id (undefined when there is none). */
  async byId(paymentId: number, trx?: Knex.Transaction): Promise<PaymentView | undefined> {
    const row = await this.payments.findById(paymentId, trx);
    return row && toView(row);
  }

  /** The order's payments, newest first. */
  async ofOrder(orderId: number, trx?: Knex.Transaction): Promise<PaymentView[]> {
    return (await this.payments.findForOrder(orderId, trx)).map(toView);
  }

  /**
   * The first payment that was paid among these orders (by when it was paid), refunded since or
   * not, with the fingerprint of the card that paid it: what a referral's reward is computed from.
   */
  async firstPaidAmong(orderIds: number[]): Promise<PaidPayment | undefined> {
    if (orderIds.length === 0) return undefined;
    const row = await this.payments.firstPaidAmong(orderIds);
    return row ? { ...toView(row), paidAt: row.settled_at as Date, cardFingerprint: row.card_fingerprint } : undefined;
  }

  /** The fingerprints of the cards that paid these orders' payments (the referral guard's "same card"). */
  cardFingerprintsAmong(orderIds: number[]): Promise<string[]> {
    return orderIds.length === 0 ? Promise.resolve([]) : this.payments.cardFingerprintsAmong(orderIds);
  }

  /** Which of these orders have a payment whose money arrived (paid, or refunded since). */
  async ordersWithMoney(orderIds: number[], trx?: Knex.Transaction): Promise<Set<number>> {
    return new Set(await this.payments.orderIdsWithMoney(orderIds, trx));
  }

  /** Pending payments with a provider id, older than `before` (at most `limit`): the ones to ask about. */
  async pendingBefore(before: Date, limit: number): Promise<PaymentView[]> {
    return (await this.payments.pendingBefore(before, limit)).map(toView);
  }

  /**
   * Asks the payment's provider where it stands (never the demo provider, which has no API).
   * Undefined when there is nobody to ask or the provider answered about another payment.
   */
  async askProvider(payment: PaymentView): Promise<VerifiedReport | undefined> {
    const provider = this.providers.byName(payment.provider);
    if (!provider || provider.name === 'demo') return undefined;
    let report = await provider.fetchStatus({ reference: payment.reference, providerReference: payment.providerReference, amount: payment.charged });
    // A payment found paid by asking keeps the same facts as one announced (the card's fingerprint).
    if (report.status === 'paid' && provider.completeFacts) report = await provider.completeFacts(report);
    if (report.reference !== undefined && report.reference !== payment.reference) {
      this.logger.warn({ provider: provider.name, paymentId: payment.id, reported: report.reference }, 'the provider answered about another payment: ignored');
      return undefined;
    }
    return { provider: provider.name, report: { ...report, reference: payment.reference }, payload: JSON.stringify({ source: 'status-query', report }) };
  }

  /** The order's payments still pending become expired (its order expired unpaid), inside the caller's transaction. */
  async expirePending(orderId: number, trx: Knex.Transaction): Promise<void> {
    for (const payment of await this.payments.findForOrder(orderId, trx)) {
      if (payment.status === 'pending') await this.payments.settle(payment.id, 'expired', this.clock.now(), trx);
    }
  }

  /**
   * CoinPal's signature does not cover the status: believe only what its API says about the
   * payment the signed reference names, asked by the provider id we stored (never the posted one).
   */
  private async confirm(provider: PaymentProvider, report: PaymentReport): Promise<PaymentReport> {
    const payment = await this.payments.findByReference(provider.name, report.reference);
    if (!payment) return { ...report, status: 'unknown', needsConfirmation: false };
    this.bind(provider.name, payment, report);
    let confirmed: PaymentReport;
    try {
      confirmed = await provider.fetchStatus({
        reference: payment.reference ?? '',
        providerReference: payment.provider_reference,
        amount: chargedOf(payment),
      });
    } catch (error) {
      throw fail('provider_unavailable', undefined, { cause: error });
    }
    // The event is what the provider confirmed for this reference: a "paid" claim that CoinPal
    // denies must not use up the id of the real "paid" notification that follows, and unsigned
    // fields cannot make one confirmed status count twice.
    return {
      ...report,
      eventId: `${payment.reference}:${confirmed.status}`,
      providerReference: confirmed.providerReference ?? report.providerReference,
      status: confirmed.status,
      amount: confirmed.amount,
      needsConfirmation: false,
    };
  }

  /**
   * Refuses (400, nothing recorded) a message whose other fields name another payment than its
   * signed reference: a provider id that is not the stored one, another order, method, or a
   * signed order amount that is not the payment's.
   */
  private bind(providerName: ProviderName, payment: PaymentRow | undefined, report: PaymentReport): void {
    if (!payment) return;
    const differs: string[] = [];
    if (report.providerReference !== undefined && payment.provider_reference !== null && report.providerReference !== payment.provider_reference) {
      differs.push('provider reference');
    }
    if (report.providerPaymentId !== undefined && payment.provider_payment_id !== null && report.providerPaymentId !== payment.provider_payment_id) {
      differs.push('provider payment id');
    }
    if (report.orderId !== undefined && report.orderId !== payment.order_id) differs.push('order');
    if (report.method !== undefined && report.method !== payment.method) differs.push('method');
    const signed = report.signedOrderAmount;
    // The provider was asked for the charged part only (the rest was paid from credit).
    if (signed && (signed.amount !== chargedOf(payment).amount || signed.currency !== payment.currency)) differs.push('amount');
    if (differs.length === 0) return;
    this.logger.warn(
      { provider: providerName, paymentId: payment.id, orderId: payment.order_id, eventType: report.eventType, differs },
      'refused a payment notification whose unsigned fields name another payment',
    );
    throw fail('notification_mismatch');
  }

  /**
   * Applies one verified report to the payment its signed reference names, inside the caller's
   * transaction, exactly once: the event is recorded first (unique by provider event id), so a
   * copy answers `duplicate` and changes nothing. When the payment was paid, failed or refunded,
   * the answer is `pending` and the caller moves the order, then calls `finishEvent` with the outcome.
   */
  async applyReport({ provider: providerName, report, payload }: VerifiedReport, trx: Knex.Transaction): Promise<AppliedReport> {
    const now = this.clock.now();
    // An event named by the provider's id of the money (Stripe's charge, refund and dispute events)
    // may come before the payment that id belongs to is paid: it takes that name's lock first, as
    // the paid event does, so it either finds the payment paid or waits where the payment finds it.
    if (report.reference === undefined && report.providerPaymentId) await this.ledger.lockNames(providerName, [report.providerPaymentId], trx);
    // Locked first: copies of one event wait here, then find their event already recorded. Found
    // by our signed reference, or (Stripe's charge and dispute events) by the signed id of the money.
    const payment =
      report.reference !== undefined
        ? await this.payments.findByReference(providerName, report.reference, trx)
        : await this.payments.findByProviderPaymentId(providerName, report.providerPaymentId, trx);
    this.bind(providerName, payment, report);
    const eventRow = await this.payments.recordEvent(
      { provider: providerName, event_id: report.eventId, event_type: report.eventType, payload: { raw: payload }, received_at: now },
      trx,
    );
    if (eventRow === undefined) return { done: 'duplicate' };
    const finish = async (outcome: ApplyOutcome): Promise<AppliedReport> => {
      await this.payments.finishEvent(eventRow, outcome, { payment_id: payment?.id, order_id: payment?.order_id }, now, trx);
      return { done: outcome };
    };

    const facts = refundsNamedApart(moneyFacts(report, payment), payment);
    if (facts.length > 0) {
      // Our reference names only payments we opened: one we never opened will never be paid. The
      // provider's id of the money may be a payment not yet paid here: the event waits for it.
      if (!payment && (report.reference !== undefined || !report.providerPaymentId)) return finish('unknown_payment');
      const recorded = await this.ledger.recordFacts(
        { provider: providerName, eventKey: report.eventId, eventType: report.eventType, waitingFor: report.providerPaymentId },
        payment,
        facts,
        trx,
      );
      if (payment) await this.refunds.followLedger(payment, facts, trx);
      if (recorded.waiting) {
        this.logger.warn(
          { provider: providerName, eventType: report.eventType, paymentId: payment?.id },
          'a money event arrived before its payment: it waits and applies when the payment does',
        );
        return finish('waiting');
      }
      const outcome = outcomeOf(recorded.effects, recorded.after?.access);
      if (!payment || recorded.before?.access === recorded.after?.access) return finish(outcome);
      if (recorded.after && accessEnded(recorded.after.access) && payment.status !== 'refunded') await this.payments.settle(payment.id, 'refunded', now, trx);
      return {
        pending: {
          eventRowId: eventRow,
          effect: 'ledger',
          paymentId: payment.id,
          orderId: payment.order_id,
          method: payment.method as PaymentMethodId,
          outcome,
        },
      };
    }

    if (!payment) return finish('unknown_payment');
    const pending = (effect: OrderEffect): AppliedReport => ({
      pending: { eventRowId: eventRow, effect, paymentId: payment.id, orderId: payment.order_id, method: payment.method as PaymentMethodId },
    });

    switch (report.status) {
      case 'paid': {
        if (payment.status === 'paid' || payment.status === 'refunded') return finish('already_paid');
        // What the provider was asked for: the payment's amount less the credit it used.
        const expected = chargedOf(payment);
        if (!report.amount || report.amount.amount !== expected.amount || report.amount.currency !== expected.currency) {
          this.logger.error(
            { paymentId: payment.id, expected, reported: report.amount },
            'paid amount does not match the order: not fulfilled, staff must look',
          );
          return finish('amount_mismatch');
        }
        await this.payments.settle(payment.id, 'paid', now, trx, report.providerPaymentId, report.cardFingerprint);
        const paid = { ...payment, status: 'paid' as const, provider_payment_id: report.providerPaymentId ?? payment.provider_payment_id };
        await this.ledger.recordPayment(providerName, report.eventId, report.eventType, paid, trx);
        return pending('paid');
      }
      case 'failed':
        if (payment.status !== 'pending') return finish('noted');
        await this.payments.settle(payment.id, 'failed', now, trx);
        return pending('failed');
      case 'expired':
        if (payment.status !== 'pending') return finish('noted');
        await this.payments.settle(payment.id, 'expired', now, trx);
        return finish('expired');
      default:
        return finish('noted');
    }
  }

  /** Stores what a pending event came to, once its order followed (same transaction). */
  async finishEvent(event: PendingEvent, outcome: ApplyOutcome, trx: Knex.Transaction): Promise<void> {
    await this.payments.finishEvent(event.eventRowId, outcome, { payment_id: event.paymentId, order_id: event.orderId }, this.clock.now(), trx);
  }
}

/**
 * The ledger facts of a report: what the adapter stated, or, for a provider that states none
 * (CoinPal's `refunded`), the money back it reported as one refund named by the event.
 */
function moneyFacts(report: PaymentReport, payment: PaymentRow | undefined): MoneyFact[] {
  if (report.facts) return report.facts;
  if (report.status !== 'refunded' && report.status !== 'charged_back') return [];
  const told = report.moneyBack?.total ?? report.moneyBack?.amount ?? report.amount;
  const amount = told?.amount ?? Number(payment?.amount_minor ?? 0);
  const kind = report.status === 'charged_back' ? 'chargeback' : report.moneyBack?.total ? 'refund_total' : 'refund';
  return [{ kind, subject: report.moneyBack?.providerRefundId ?? report.eventId, status: 'succeeded', amount }];
}

/**
 * A refund is named by its own id. Should a provider post the payment's id where the refund's was
 * expected (Payssion's refund notifications carry a `transaction_id` whose meaning is not in its
 * public material), that is no name of the refund: it falls back to its signed amount, as before
 * refunds had ids, rather than making every refund of the payment one.
 */
function refundsNamedApart(facts: MoneyFact[], payment: PaymentRow | undefined): MoneyFact[] {
  if (!payment?.provider_reference || payment.provider !== 'payssion') return facts;
  return facts.map((fact) =>
    fact.kind === 'refund' && fact.subject === payment.provider_reference
      ? { ...fact, subject: payssionRefundSubject(money(fact.amount, (fact.currency ?? payment.currency) as CurrencyCode)) }
      : fact,
  );
}

/** The outcome stored on an applied money event: what it did to access, or to the money. */
function outcomeOf(effects: LedgerEffect[], access: string | undefined): ApplyOutcome {
  if (effects.includes('access_ended')) return access === 'charged_back' ? 'charged_back' : 'refunded';
  if (effects.includes('suspended')) return 'suspended';
  if (effects.includes('dispute_won') || effects.includes('reinstated')) return 'reinstated';
  if (effects.includes('partial_refund')) return 'partial_refund';
  if (effects.includes('refund_failed')) return 'refund_failed';
  if (effects.includes('refund_pending')) return 'refund_pending';
  return 'noted';
}

function toView(row: PaymentRow): PaymentView {
  return {
    id: row.id,
    orderId: row.order_id,
    provider: row.provider as ProviderName,
    method: row.method as PaymentMethodId,
    reference: row.reference ?? '',
    providerReference: row.provider_reference,
    status: row.status,
    amount: money(Number(row.amount_minor), row.currency as CurrencyCode),
    credit: money(Number(row.credit_minor ?? 0), row.currency as CurrencyCode),
    charged: chargedOf(row),
    saveCard: row.save_card === true,
  };
}
