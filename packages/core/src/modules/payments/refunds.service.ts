/**
 * Money going back: the payments module's refund part. It records every refund once (by staff
 * through the provider, on the provider's side, or a chargeback), asks the provider to give the
 * money back, and keeps the disputes. What a refund means for the order and its access is the
 * flows' business (`flows/refund.flow.ts`, `flows/payment-notification.flow.ts`, both through
 * `flows/order-access.ts`), in the same transaction.
 *
 *   staff: claim (a `pending` row: at most one per payment, so a double click or a second
 *     admin gets 409) ─▶ send (the provider's refund call, outside any transaction, keyed by the
 *     refund's id so a retry cannot refund twice) ─▶ complete (same transaction as the access) or
 *     fail (nothing changed; staff may try again)
 *   the provider's answer goes into the money ledger (ledger.service.ts) as a refund fact under
 *     the provider's refund id: `succeeded` counts, `pending` does not (yet); the provider's own
 *     notifications about the same refund are the same fact (`followLedger` completes or fails the
 *     staff refund they settle).
 * What went back, what is left to refund and what access remains are the ledger's to say.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { Clock } from '../../shared/clock.js';
import { ConflictError, DomainError, UnavailableError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { money, type CurrencyCode, type Money } from '../../shared/money.js';
import { TOKENS } from '../../shared/tokens.js';
import { PaymentRepository, type PaymentRow } from './payment.repository.js';
import type { ProviderName, RefundReceipt } from './providers/provider.js';
import { RefundRepository, type RefundRow, type RefundSource, type RefundStatus } from './refund.repository.js';
import { LedgerService } from './ledger.service.js';
import { accessEnded, creditRefundSubject, type MoneyFact, type PaymentStanding } from './money-ledger.js';
import { payssionRefundSubject } from './providers/payssion.js';
import { PAYMENT_PROVIDERS } from './tokens.js';
import type { PaymentProviders } from './payments.service.js';
import { REFUND_RESEND_MINUTES } from '../../promises/index.js';
import { chargedOf } from './charged.js';

const PROVIDER_LABELS: Record<ProviderName, string> = {
  stripe: 'Stripe',
  payssion: 'Payssion',
  coinpal: 'CoinPal',
  demo: 'The demo provider',
  credit: 'Credit',
};

/** A pending staff refund last tried longer ago than this may be sent again (same refund, same idempotency key): its try was cut short or got no answer. */
const RESEND_PENDING_AFTER_MS = REFUND_RESEND_MINUTES * 60_000;

export interface RefundView {
  id: number;
  orderId: number;
  paymentId: number;
  source: RefundSource;
  status: RefundStatus;
  provider: ProviderName;
  amount: Money;
  /** The part of `amount` given back as credit (issue 37); the provider gave back the rest. */
  credit: Money;
  fee: Money;
  providerRefundId: string | null;
  manualReference: string | null;
  reason: string | null;
  overrideWindow: boolean;
  createdAt: Date;
  /** When it was last tried (a pending one may be sent again 5 minutes after). */
  updatedAt: Date;
  completedAt: Date | null;
}

/** The payment a staff refund gives back: the order's newest paid one whose access is still on. */
export interface RefundablePayment {
  id: number;
  orderId: number;
  provider: ProviderName;
  amount: Money;
  /** What the ledger says is left to give back under the policy (paid − fee − refunded − pending). */
  refundable: Money;
  /** What has gone back already (succeeded refunds). */
  refunded: Money;
  paidAt: Date | null;
  /** CoinPal has no refund call: staff transfer the money themselves and record the reference (unless credit covers the refund). */
  manual: boolean;
  /** The credit the payment used that no refund has given back yet: a refund gives this back first, as credit (issue 37). */
  creditLeft: Money;
}

/** What went back of an order, for the buyer's e-mail: the amount, and whether the bank took it (a chargeback). */
export interface MoneyBack {
  amount: Money;
  chargeback: boolean;
}

/** Second payments of orders the shop refunded (issue 34), for the dashboard. */
export interface DoublePaymentTotals {
  /** Refunds that succeeded. */
  refunded: number;
  /** Still pending: the provider did not answer yet, or CoinPal's, which staff send back by hand. */
  waiting: number;
  /** The provider refused: staff must give the money back another way. */
  failed: number;
  /** What went back, per currency. */
  refundedAmounts: Money[];
}

export interface StaffRefundClaim {
  payment: RefundablePayment;
  /** The whole refund: `credit` of it given back as credit, the rest as money through the provider. */
  amount: Money;
  credit: Money;
  fee: Money;
  reason: string;
  overrideWindow: boolean;
  manualReference?: string;
  actor: { userId?: number; label: string };
}

@injectable()
export class RefundsService {
  private readonly logger: Logger;

  constructor(
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) logger: Logger,
    @inject(PaymentRepository) private readonly payments: PaymentRepository,
    @inject(RefundRepository) private readonly refunds: RefundRepository,
    @inject(PAYMENT_PROVIDERS) private readonly providers: PaymentProviders,
    @inject(LedgerService) private readonly ledger: LedgerService,
  ) {
    this.logger = logger.child({ module: 'payments', part: 'refunds' });
  }

  /** The order's refunds, oldest first. */
  async ofOrder(orderId: number, trx?: Knex.Transaction): Promise<RefundView[]> {
    return (await this.refunds.ofOrderWithPayments(orderId, trx)).map((row) => toView(row, row.payment));
  }

  /** One refund (undefined when there is none). */
  async byId(refundId: number, trx?: Knex.Transaction): Promise<RefundView | undefined> {
    const row = await this.refunds.findById(refundId, trx);
    return row && toView(row, await this.payments.findById(row.payment_id, trx));
  }

  /**
   * The payment a refund of the order would give back: its newest paid payment whose access the
   * ledger still grants, with what is left to refund. Never a second payment (the shop refunds
   * it in full by itself). Locked when inside a transaction.
   */
  async refundablePayment(orderId: number, trx?: Knex.Transaction): Promise<RefundablePayment | undefined> {
    const standing = await this.ledger.standingOfOrder(orderId, trx);
    const found = standing.payments.find((entry) => !entry.second && entry.standing.access === 'active');
    if (!found) return undefined;
    const row = trx ? await this.payments.findById(found.payment.id, trx) : found.payment;
    if (!row) return undefined;
    const currency = row.currency as CurrencyCode;
    const current = trx ? await this.ledger.standingOfPayment(row, trx) : found.standing;
    if (current.access !== 'active') return undefined;
    const creditReturned = (await this.refunds.ofPaymentAnyway(row.id, trx)).reduce((sum, refund) => sum + Number(refund.credit_minor), 0);
    return {
      id: row.id,
      orderId: row.order_id,
      provider: row.provider as ProviderName,
      amount: money(Number(row.amount_minor), currency),
      refundable: money(current.refundable, currency),
      refunded: money(current.refunded, currency),
      paidAt: row.settled_at,
      manual: row.provider !== 'credit' && !this.providers.byName(row.provider)?.refund,
      creditLeft: money(Math.max(0, Number(row.credit_minor) - creditReturned), currency),
    };
  }

  /**
   * A staff refund, recorded before anything is asked of the provider: `pending` (or, when there
   * is no provider call, i.e. CoinPal's manual refund, recorded as made). One pending refund per
   * payment: a second is 409 `refund_in_progress`, unless the first was cut short long ago, which
   * is then the one sent again.
   */
  async claim(claim: StaffRefundClaim, trx: Knex.Transaction): Promise<RefundRow> {
    const now = this.clock.now();
    const stale = (await this.refunds.ofPayment(claim.payment.id, trx)).find(
      (row) => row.status === 'pending' && row.source === 'staff' && this.mayResend({ updatedAt: row.updated_at }),
    );
    if (stale) return stale;
    return this.refunds.insert(
      {
        order_id: claim.payment.orderId,
        payment_id: claim.payment.id,
        source: 'staff',
        status: 'pending',
        amount_minor: claim.amount.amount,
        credit_minor: claim.credit.amount,
        fee_minor: claim.fee.amount,
        currency: claim.amount.currency,
        provider_refund_id: null,
        manual_reference: claim.manualReference ?? null,
        reason: claim.reason,
        override_window: claim.overrideWindow,
        actor_user_id: claim.actor.userId ?? null,
        actor_label: claim.actor.label,
        created_at: now,
        completed_at: null,
      },
      trx,
    );
  }

  /**
   * One order, one payment (issue 34): the shop's refund of a second successful payment of an
   * order, the whole amount and no fee (the buyer paid twice through no fault of theirs), recorded
   * `pending` inside the transaction that applied the payment (holding its lock) and sent once it
   * commits. At most one per payment (a unique index): a replayed notification finds it and makes
   * none. Answers the refund's id.
   */
  async claimDoublePayment(paymentId: number, trx: Knex.Transaction): Promise<number> {
    const existing = (await this.refunds.ofPayment(paymentId, trx)).find((row) => row.source === 'double_payment');
    if (existing) return existing.id;
    const payment = await this.payments.findById(paymentId, trx);
    if (!payment) throw new Error(`payment ${paymentId} is missing`);
    const now = this.clock.now();
    const row = await this.refunds.insert(
      {
        order_id: payment.order_id,
        payment_id: payment.id,
        source: 'double_payment',
        status: 'pending',
        amount_minor: Number(payment.amount_minor),
        // The second payment's credit goes back as credit (the flow writes it), its money through the provider.
        credit_minor: Number(payment.credit_minor),
        fee_minor: 0,
        currency: payment.currency,
        provider_refund_id: null,
        manual_reference: null,
        reason: null, // its source says why, in the staff member's language
        override_window: false,
        actor_user_id: null,
        actor_label: 'shop (double payment)',
        created_at: now,
        completed_at: null,
      },
      trx,
    );
    return row.id;
  }

  /**
   * Refunds of second payments left pending for 5 minutes (a provider that did not answer, a crash
   * before the call): the ones to send again, as the same refund. Only where sending again cannot
   * give back twice: Stripe replays it by its idempotency key, the demo has no money. Payssion has
   * no such key (after no answer its refund may have been made: its notification completes ours,
   * or staff look in its dashboard), and CoinPal's is sent by hand: those wait for staff.
   */
  async staleDoublePayments(limit: number): Promise<number[]> {
    const stale = await this.refunds.pendingDoublePayments(new Date(this.clock.now().getTime() - RESEND_PENDING_AFTER_MS), limit);
    const resendable: number[] = [];
    for (const row of stale) {
      const provider = (await this.payments.findById(row.payment_id))?.provider;
      if (provider === 'stripe' || provider === 'demo') resendable.push(row.id);
    }
    return resendable;
  }

  /** The dashboard's figures for second payments: refunded (count and amount per currency), waiting (pending: CoinPal's by hand, or no answer yet) and failed. */
  async doublePaymentTotals(): Promise<DoublePaymentTotals> {
    const totals: DoublePaymentTotals = { refunded: 0, waiting: 0, failed: 0, refundedAmounts: [] };
    for (const row of await this.refunds.doublePaymentTotals()) {
      if (row.status === 'succeeded') {
        totals.refunded += row.count;
        totals.refundedAmounts.push(money(row.amount_minor, row.currency as CurrencyCode));
      } else if (row.status === 'pending') totals.waiting += row.count;
      else totals.failed += row.count;
    }
    return totals;
  }

  /** Whether a pending refund was last tried long enough ago to be sent again (its try was cut short or got no answer). */
  mayResend(refund: Pick<RefundView, 'updatedAt'>): boolean {
    return this.clock.now().getTime() - refund.updatedAt.getTime() > RESEND_PENDING_AFTER_MS;
  }

  /**
   * Asks the payment's provider to give a claimed refund back; CoinPal's manual refund needs no
   * call (`manual`). A refusal marks the refund failed (nothing moved; staff may try again) and
   * goes on. When the provider could not be reached, answered 5xx or timed out, nobody knows
   * whether the money moved: the refund stays `pending`, so that neither a click nor a second
   * admin can make another one; the provider's notification completes it, or after 5 minutes
   * staff send the same refund again (same idempotency key). 503 `refund_outcome_unknown` says so.
   */
  async send(refundId: number): Promise<RefundReceipt | 'manual' | 'credit'> {
    const refund = await this.refunds.findById(refundId);
    const payment = refund && (await this.payments.findById(refund.payment_id));
    if (!refund || !payment) throw new Error(`refund ${refundId} or its payment is missing`);
    // All of it given back as credit (recordCreditPart): no money moves, no provider is asked.
    if (refund.amount_minor - Number(refund.credit_minor) <= 0) return 'credit';
    const provider = this.providers.byName(payment.provider);
    if (!provider) {
      await this.refunds.fail(refund.id, 'provider not configured', this.clock.now());
      throw new ConflictError(`The ${payment.provider} provider is not configured any more: refund this order by hand.`, 'refund_not_possible');
    }
    if (!provider.refund) return 'manual';
    try {
      const receipt = await provider.refund({
        refundId: refund.id,
        reference: payment.reference ?? '',
        providerReference: payment.provider_reference,
        providerPaymentId: payment.provider_payment_id,
        // The provider took only the charged part (the rest was paid from credit) and gives back only the money part.
        paid: chargedOf(payment),
        amount: money(refund.amount_minor - Number(refund.credit_minor ?? 0), refund.currency as CurrencyCode),
        reason: refund.reason ?? '',
      });
      this.logger.info({ refundId: refund.id, paymentId: payment.id, provider: provider.name, status: receipt.status }, 'the provider accepted a refund');
      if (receipt.providerPaymentId && !payment.provider_payment_id) await this.payments.rememberProviderPaymentId(payment.id, receipt.providerPaymentId);
      return receipt;
    } catch (error) {
      const log = { err: error, refundId: refund.id, paymentId: payment.id, provider: provider.name };
      if (error instanceof DomainError && error.type !== 'unavailable') {
        await this.refunds.fail(refund.id, error.code, this.clock.now());
        this.logger.warn(log, 'the provider refused a refund: nothing changed');
        throw error;
      }
      await this.refunds.note(refund.id, error instanceof DomainError ? error.code : 'error', this.clock.now());
      this.logger.error(log, 'a refund got no answer from the provider: it stays pending until the provider tells, or staff send it again');
      throw new UnavailableError(
        `${PROVIDER_LABELS[provider.name]} did not answer, so the refund may or may not have been made. It stays pending: ` +
          `the provider’s notification completes it, or refund again in ${REFUND_RESEND_MINUTES} minutes to send the same refund once more.`,
        'refund_outcome_unknown',
        error,
        REFUND_RESEND_MINUTES * 60,
        { minutes: REFUND_RESEND_MINUTES },
      );
    }
  }

  /**
   * What the provider answered about a staff refund goes into the ledger (inside the caller's
   * transaction, holding the payment's lock): `succeeded` (or CoinPal's manual transfer) completes
   * the refund; `pending` leaves it pending, counted as nothing given back until the provider says
   * it succeeded or failed. Answers the payment's standing before and after.
   */
  async recordOutcome(
    refundId: number,
    receipt: RefundReceipt | 'manual' | 'credit',
    trx: Knex.Transaction,
  ): Promise<{ before: PaymentStanding; after: PaymentStanding }> {
    if (receipt === 'credit') return this.completeCreditOnly(refundId, trx);
    const source = (await this.refunds.findById(refundId, trx))?.source;
    // The ledger tells the shop's refund of a second payment from a staff refund by its event type.
    const eventType = source === 'double_payment' ? 'double_payment.refund' : 'staff.refund';
    const refund = await this.refunds.findById(refundId, trx);
    const payment = refund && (await this.payments.findById(refund.payment_id, trx)); // the payment's lock orders this against its notifications
    if (!refund || !payment) throw new Error(`refund ${refundId} or its payment is missing`);
    const current = (await this.refunds.findById(refundId, trx))!;
    const status = receipt === 'manual' ? 'succeeded' : receipt.status;
    const providerRefundId = receipt === 'manual' ? null : receipt.providerRefundId;
    // The money part: the credit part went into the ledger when the refund was claimed (recordCreditPart).
    const amount = money(current.amount_minor - Number(current.credit_minor), current.currency as CurrencyCode);
    const subject = staffRefundSubject(payment.provider, amount, providerRefundId, current.id);
    const recorded = await this.ledger.recordFacts(
      { provider: payment.provider, eventKey: `staff-refund:${current.id}:${status}`, eventType },
      payment,
      [{ kind: 'refund', subject, status, amount: amount.amount, currency: amount.currency }],
      trx,
    );
    if (current.status === 'pending') {
      if (status === 'succeeded') await this.refunds.complete(current.id, providerRefundId, this.clock.now(), trx);
      else if (providerRefundId) await this.refunds.rememberProviderId(current.id, providerRefundId, this.clock.now(), trx);
    }
    const after = recorded.after ?? (await this.ledger.standingOfPayment(payment, trx));
    if (accessEnded(after.access) && payment.status !== 'refunded') await this.payments.settle(payment.id, 'refunded', this.clock.now(), trx);
    return { before: recorded.before ?? after, after };
  }

  /**
   * The credit part of a refund (issue 37: credit first, up to what the payment took from credit)
   * goes into the ledger at once, as a succeeded refund with provider `credit`, inside the
   * transaction that claimed the refund (the flow gives the credit back in it: `return:refund:<id>`).
   * A repeat writes nothing (the row's key). Answers the credit given back and its buyer's payment.
   */
  async recordCreditPart(refundId: number, trx: Knex.Transaction): Promise<{ credit: Money; orderId: number; paymentId: number } | undefined> {
    const refund = await this.refunds.findById(refundId, trx);
    const payment = refund && (await this.payments.findById(refund.payment_id, trx));
    if (!refund || !payment || Number(refund.credit_minor) <= 0) return undefined;
    const credit = money(Number(refund.credit_minor), refund.currency as CurrencyCode);
    const eventType = refund.source === 'double_payment' ? 'double_payment.refund' : 'staff.refund';
    await this.ledger.recordFacts(
      { provider: 'credit', eventKey: `credit-refund:${refund.id}`, eventType },
      payment,
      [{ kind: 'refund', subject: creditRefundSubject(refund.id), status: 'succeeded', amount: credit.amount, currency: credit.currency }],
      trx,
    );
    return { credit, orderId: payment.order_id, paymentId: payment.id };
  }

  /** A refund wholly given back as credit: its ledger row was written when claimed; the refund is complete. */
  private async completeCreditOnly(refundId: number, trx: Knex.Transaction): Promise<{ before: PaymentStanding; after: PaymentStanding }> {
    const refund = await this.refunds.findById(refundId, trx);
    const payment = refund && (await this.payments.findById(refund.payment_id, trx));
    if (!refund || !payment) throw new Error(`refund ${refundId} or its payment is missing`);
    if (refund.status === 'pending') await this.refunds.complete(refund.id, null, this.clock.now(), trx);
    const after = await this.ledger.standingOfPayment(payment, trx);
    if (accessEnded(after.access) && payment.status !== 'refunded') await this.payments.settle(payment.id, 'refunded', this.clock.now(), trx);
    return { before: after, after };
  }

  /**
   * The provider settled refunds we asked for (its notification's facts): the pending staff
   * refunds they name are completed or failed, so staff may refund again after a failure.
   */
  async followLedger(payment: PaymentRow, facts: MoneyFact[], trx: Knex.Transaction): Promise<void> {
    const pending = (await this.refunds.ofPayment(payment.id, trx)).filter((row) => row.status === 'pending');
    for (const fact of facts) {
      if (fact.kind !== 'refund' || fact.status === 'pending') continue;
      const row =
        pending.find((candidate) => candidate.provider_refund_id === fact.subject) ??
        pending.find(
          (candidate) =>
            candidate.provider_refund_id === null &&
            (staffRefundSubject(payment.provider, money(candidate.amount_minor, candidate.currency as CurrencyCode), null, candidate.id) === fact.subject ||
              // Payssion did not answer our refund call, and made the refund: its notification names it by its own id.
              (payment.provider === 'payssion' && candidate.amount_minor === fact.amount)),
        );
      if (!row) continue;
      const learntId = fact.subject.startsWith('refund:') ? null : fact.subject;
      if (fact.status === 'succeeded') await this.refunds.complete(row.id, row.provider_refund_id ?? learntId, this.clock.now(), trx);
      else await this.refunds.fail(row.id, 'the provider says the refund failed', this.clock.now(), trx);
      pending.splice(pending.indexOf(row), 1);
    }
  }

  /** What went back of the order (refunds and chargebacks, by the ledger), for its e-mail. */
  async moneyBackOf(orderId: number): Promise<MoneyBack | undefined> {
    const standing = await this.ledger.standingOfOrder(orderId);
    const first = standing.payments[0]?.payment;
    if (!first) return undefined;
    return { amount: money(standing.refunded + standing.chargedBack, first.currency as CurrencyCode), chargeback: standing.chargedBack > 0 };
  }

  /** What went back of each order (refunds and chargebacks, by the ledger), in minor units of each order's currency. */
  refundedByOrder(orderIds: number[]): Promise<Map<number, number>> {
    return this.ledger.refundedByOrder(orderIds);
  }
}

/**
 * The ledger's name of a staff refund: the provider's refund id (Stripe `re_…`, Payssion's refund
 * transaction id, the demo's), so its notifications about it are the same refund; ours when there
 * is no provider id (CoinPal's manual transfer).
 */
function staffRefundSubject(provider: string, amount: Money, providerRefundId: string | null, refundId: number): string {
  // A Payssion refund has its own transaction id (the refunds call answers it, its notifications
  // carry it); only when Payssion answered none is it known by its amount, as its notification then is.
  if (provider === 'payssion' && !providerRefundId) return payssionRefundSubject(amount);
  return providerRefundId ?? `refund:${refundId}`;
}

function toView(row: RefundRow, payment: PaymentRow | undefined): RefundView {
  const currency = row.currency as CurrencyCode;
  return {
    id: row.id,
    orderId: row.order_id,
    paymentId: row.payment_id,
    source: row.source,
    status: row.status,
    provider: (payment?.provider ?? 'demo') as ProviderName,
    amount: money(row.amount_minor, currency),
    credit: money(Number(row.credit_minor ?? 0), currency),
    fee: money(row.fee_minor, currency),
    providerRefundId: row.provider_refund_id,
    manualReference: row.manual_reference,
    reason: row.reason,
    overrideWindow: row.override_window,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    completedAt: row.completed_at,
  };
}
