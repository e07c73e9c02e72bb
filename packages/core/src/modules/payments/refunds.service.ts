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
 *   provider: recordMoneyBack ─▶ what the provider says went back that we did not know yet
 *     (Stripe tells the total so far, so a late or repeated event adds nothing); a pending staff
 *     refund it confirms is completed, not counted again.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { Clock } from '../../shared/clock.js';
import { ConflictError, DomainError, UnavailableError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { money, type CurrencyCode, type Money } from '../../shared/money.js';
import { TOKENS } from '../../shared/tokens.js';
import { PaymentRepository, type PaymentRow } from './payment.repository.js';
import type { PaymentReport, ProviderName, RefundReceipt } from './providers/provider.js';
import { RefundRepository, type DisputeStatus, type RefundRow, type RefundSource, type RefundStatus } from './refund.repository.js';
import { PAYMENT_PROVIDERS } from './tokens.js';
import type { PaymentProviders } from './payments.service.js';

const PROVIDER_LABELS: Record<ProviderName, string> = { stripe: 'Stripe', payssion: 'Payssion', coinpal: 'CoinPal', demo: 'The demo provider' };

/** A pending staff refund last tried longer ago than this may be sent again (same refund, same idempotency key): its try was cut short or got no answer. */
const RESEND_PENDING_AFTER_MS = 5 * 60_000;

export interface RefundView {
  id: number;
  orderId: number;
  paymentId: number;
  source: RefundSource;
  status: RefundStatus;
  provider: ProviderName;
  amount: Money;
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

/** The payment a staff refund gives back: the order's newest paid one. */
export interface RefundablePayment {
  id: number;
  orderId: number;
  provider: ProviderName;
  amount: Money;
  /** CoinPal has no refund call: staff transfer the money themselves and record the reference. */
  manual: boolean;
}

/** What a refund did to its payment: the amount, whether it was a chargeback, and whether the order still holds money from another paid payment. */
export interface MoneyBack {
  amount: Money;
  chargeback: boolean;
  /** False when another payment of the order is still paid (a second payment was refunded): access stays. */
  endsAccess: boolean;
}

export interface StaffRefundClaim {
  payment: RefundablePayment;
  amount: Money;
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
  ) {
    this.logger = logger.child({ module: 'payments', part: 'refunds' });
  }

  /** The order's refunds, oldest first. */
  async ofOrder(orderId: number, trx?: Knex.Transaction): Promise<RefundView[]> {
    const payments = new Map((await this.payments.findForOrder(orderId, trx)).map((payment) => [payment.id, payment]));
    return (await this.refunds.ofOrder(orderId, trx)).map((row) => toView(row, payments.get(row.payment_id)));
  }

  /** The payment a refund of the order would give back (its newest paid one), locked when inside a transaction. */
  async refundablePayment(orderId: number, trx?: Knex.Transaction): Promise<RefundablePayment | undefined> {
    const paid = (await this.payments.findForOrder(orderId, trx)).find((payment) => payment.status === 'paid');
    if (!paid) return undefined;
    const row = trx ? await this.payments.findById(paid.id, trx) : paid;
    if (!row || row.status !== 'paid') return undefined;
    return {
      id: row.id,
      orderId: row.order_id,
      provider: row.provider as ProviderName,
      amount: money(Number(row.amount_minor), row.currency as CurrencyCode),
      manual: !this.providers.byName(row.provider)?.refund,
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
  async send(refundId: number): Promise<RefundReceipt | 'manual'> {
    const refund = await this.refunds.findById(refundId);
    const payment = refund && (await this.payments.findById(refund.payment_id));
    if (!refund || !payment) throw new Error(`refund ${refundId} or its payment is missing`);
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
        paid: money(Number(payment.amount_minor), payment.currency as CurrencyCode),
        amount: money(refund.amount_minor, refund.currency as CurrencyCode),
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
          'the provider’s notification completes it, or refund again in 5 minutes to send the same refund once more.',
        'refund_outcome_unknown',
        error,
        300,
      );
    }
  }

  /**
   * The refund went through (inside the caller's transaction): the refund is `succeeded`, its
   * payment `refunded`. Answers what it did, or undefined when it was already completed (by the
   * provider's notification about it, which may arrive first).
   */
  async complete(refundId: number, providerRefundId: string | null, trx: Knex.Transaction): Promise<MoneyBack | undefined> {
    const refund = await this.refunds.findById(refundId, trx);
    if (!refund) return undefined;
    const payment = await this.payments.findById(refund.payment_id, trx); // the payment's lock orders this against its notifications
    const current = await this.refunds.findById(refundId, trx);
    if (!payment || !current || current.status !== 'pending') return undefined;
    await this.refunds.complete(refundId, providerRefundId, this.clock.now(), trx);
    return this.settleRefunded(payment, money(current.amount_minor, current.currency as CurrencyCode), false, trx);
  }

  /**
   * What a provider's money-back event adds to what we knew (inside the transaction holding the
   * payment's lock): undefined when nothing new went back (a repeat, an older event, our own refund
   * confirmed after we recorded it). A pending staff refund the event covers is completed.
   */
  async recordMoneyBack(payment: PaymentRow, report: PaymentReport, trx: Knex.Transaction): Promise<MoneyBack | undefined> {
    const currency = payment.currency as CurrencyCode;
    const paid = Number(payment.amount_minor);
    const chargeback = report.status === 'charged_back';
    const rows = await this.refunds.ofPayment(payment.id, trx);
    const succeeded = rows.filter((row) => row.status === 'succeeded');
    const known = succeeded.reduce((sum, row) => sum + row.amount_minor, 0);
    const pending = rows.find((row) => row.status === 'pending');
    const backId = report.moneyBack?.providerRefundId;
    if (backId && rows.some((row) => row.provider_refund_id === backId && row.status === 'succeeded')) return undefined;

    const told = report.moneyBack?.total ?? report.moneyBack?.amount;
    if (told && told.currency !== currency) {
      this.logger.error({ paymentId: payment.id, told, currency }, 'a money-back event in another currency than the payment: staff must look');
      return undefined;
    }
    let fresh: number;
    if (report.moneyBack?.total) fresh = report.moneyBack.total.amount - known;
    else if (!chargeback && (known > 0 || pending))
      fresh = pending ? pending.amount_minor : 0; // "refunded" confirms what we asked for
    else fresh = told?.amount ?? paid - known;
    fresh = Math.min(fresh, paid - known);
    if (fresh <= 0) return undefined;

    const now = this.clock.now();
    let recorded = 0;
    if (pending && !chargeback && fresh >= pending.amount_minor) {
      await this.refunds.complete(pending.id, backId ?? null, now, trx);
      recorded = pending.amount_minor;
    }
    if (fresh > recorded) {
      await this.refunds.insert(
        {
          order_id: payment.order_id,
          payment_id: payment.id,
          source: chargeback ? 'chargeback' : 'provider',
          status: 'succeeded',
          amount_minor: fresh - recorded,
          fee_minor: 0,
          currency,
          provider_refund_id: recorded === 0 ? (backId ?? null) : null,
          manual_reference: null,
          reason: chargeback ? 'chargeback by the buyer’s bank' : 'refunded at the provider',
          override_window: false,
          actor_user_id: null,
          actor_label: payment.provider,
          created_at: now,
          completed_at: now,
        },
        trx,
      );
    }
    return this.settleRefunded(payment, money(fresh, currency), chargeback, trx);
  }

  /** Records a dispute event (see RefundRepository.recordDispute): its status before and after. */
  recordDispute(payment: PaymentRow, disputeId: string, status: DisputeStatus, trx: Knex.Transaction): Promise<{ before?: DisputeStatus; now: DisputeStatus }> {
    return this.refunds.recordDispute({ provider: payment.provider, disputeId, paymentId: payment.id, status }, this.clock.now(), trx);
  }

  /** Refunded amounts (succeeded) by order, in minor units of each order's currency. */
  refundedByOrder(orderIds: number[]): Promise<Map<number, number>> {
    return this.refunds.refundedByOrder(orderIds);
  }

  /** Succeeded refunds completed in [from, to). */
  async succeededBetween(from: Date, to: Date): Promise<Array<{ orderId: number; amount: Money; completedAt: Date }>> {
    return (await this.refunds.succeededBetween(from, to)).map((row) => ({
      orderId: row.order_id,
      amount: money(row.amount_minor, row.currency as CurrencyCode),
      completedAt: row.completed_at,
    }));
  }

  private async settleRefunded(payment: PaymentRow, amount: Money, chargeback: boolean, trx: Knex.Transaction): Promise<MoneyBack> {
    if (payment.status !== 'refunded') await this.payments.settle(payment.id, 'refunded', this.clock.now(), trx);
    const stillPaid = (await this.payments.findForOrder(payment.order_id, trx)).some((other) => other.id !== payment.id && other.status === 'paid');
    return { amount, chargeback, endsAccess: !stillPaid };
  }
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
