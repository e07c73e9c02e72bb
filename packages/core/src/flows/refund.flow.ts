/**
 * Staff refunds (admins, and the operator's CLI): money back through the provider that took it,
 * under the refund policy, with access ending with the money.
 *
 *   quote(orderId): what a refund would give back now: paid, fee, refund, the policy's window
 *   refund(actor, { orderId, reason, overrideWindow, manualReference }):
 *     1. one transaction: lock its paid payment, then the order ─▶ paid (2 or 6)? ─▶ policy: inside
 *        the window, or overridden (audited) ─▶ CoinPal needs the manual transfer's reference ─▶
 *        a `pending` refund row (one per payment: a double click or a second admin gets 409)
 *     2. the provider's refund call, outside any transaction (keyed by the refund's id, so a
 *        retry cannot refund twice): a refusal marks the refund failed and the order is
 *        unchanged (409); no answer leaves it pending, order unchanged (503), see RefundsService.send
 *     3. one transaction: the refund succeeded, the payment refunded ─▶ access ends
 *        (order-access.ts) ─▶ audit `order.refund`
 *   Credit first (issue 37): of the policy's refund, the credit the payment used (less what earlier
 *   refunds gave back) is given back as credit in transaction 1 (a `credit` refund in the ledger,
 *   the buyer's credit lot), and only the rest is asked of the provider in 2 (none: no call at all).
 *   A crash between 2 and 3, or no answer in 2, leaves the refund pending: the provider's
 *   notification of it completes it (payment-notification.flow.ts), or staff send it again after
 *   5 minutes (the same refund, the same idempotency key).
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { AppConfig } from '../shared/config.js';
import type { Clock } from '../shared/clock.js';
import { ConflictError, ValidationError, fail } from '../shared/errors.js';
import type { Logger } from '../shared/logger.js';
import { money, type Money } from '../shared/money.js';
import { TOKENS } from '../shared/tokens.js';
import { type AuditActor, AuditService } from '../modules/audit/index.js';
import { ORDER_STATE, OrdersService, type OrderState, type OrderView } from '../modules/orders/index.js';
import {
  refundTerms,
  type LedgerEventView,
  LedgerService,
  type OrderStanding,
  type RefundablePayment,
  RefundsService,
  type RefundTerms,
  type RefundView,
} from '../modules/payments/index.js';
import type { NotRefundableReason, RefundInput } from '../wire/refunds.js';
import { OrderAccess } from './order-access.js';
import { PaymentCredit } from './payment-credit.js';

/** The order states a refund can start from: paid and waiting, or completed. */
const REFUNDABLE_STATES: readonly number[] = [ORDER_STATE.paidNotCompleted, ORDER_STATE.completed];

export interface RefundQuote {
  order: OrderView;
  /** Of `terms.refund`, the part given back as credit (the credit the payment used, not yet given back); the provider gives back the rest. */
  creditBack: Money;
  /** Why a refund cannot be made now (an error code), or undefined when it can. */
  notRefundable?: NotRefundableReason;
  payment?: RefundablePayment;
  terms: RefundTerms;
  policy: AppConfig['refunds'];
  refunds: RefundView[];
  /** The order's money ledger: what it says (access, money back) and its events. */
  standing: OrderStanding;
  ledger: LedgerEventView[];
}

export interface RefundResult {
  orderId: number;
  state: OrderState;
  refund: RefundView;
}

@injectable()
export class RefundFlow {
  private readonly logger: Logger;

  constructor(
    @inject(TOKENS.Config) private readonly config: AppConfig,
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) logger: Logger,
    @inject(OrdersService) private readonly orders: OrdersService,
    @inject(RefundsService) private readonly refunds: RefundsService,
    @inject(LedgerService) private readonly ledger: LedgerService,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(OrderAccess) private readonly access: OrderAccess,
    @inject(PaymentCredit) private readonly paymentCredit: PaymentCredit,
  ) {
    this.logger = logger.child({ flow: 'refund' });
  }

  /**
   * The policy's terms on the payment, with what the ledger says is left to give back as the
   * refund: after a partial refund (at the provider) the rest, never more than the policy allows.
   */
  private termsOf(payment: RefundablePayment | undefined, order: OrderView): RefundTerms {
    const terms = refundTerms(this.config.refunds, payment?.amount ?? order.total, order.paidAt, this.clock.now());
    return payment ? { ...terms, refund: payment.refundable } : terms;
  }

  /** GET /api/order/refundquote (admins): what refunding the order would do now. 404 for an unknown order. */
  async quote(orderId: number): Promise<RefundQuote> {
    const order = await this.orders.find(orderId);
    if (!order) throw fail('order_not_found');
    const [payment, refunds, standing, ledger] = await Promise.all([
      this.refunds.refundablePayment(orderId),
      this.refunds.ofOrder(orderId),
      this.ledger.standingOfOrder(orderId),
      this.ledger.ofOrder(orderId),
    ]);
    const terms = this.termsOf(payment, order);
    const creditBack = creditPartOf(terms, payment);
    // A second payment's refund waiting (CoinPal's, by hand) is of another payment: it holds no staff refund up.
    const inProgress = refunds.some((refund) => refund.status === 'pending' && refund.source !== 'double_payment' && !this.refunds.mayResend(refund));
    return {
      order,
      creditBack,
      notRefundable: whyNot(order, payment, terms, inProgress),
      payment,
      terms,
      policy: this.config.refunds,
      refunds,
      standing,
      ledger,
    };
  }

  /** POST /api/order/refund (admins) and `subshare refund-order`: see the file's comment. */
  async refund(actor: AuditActor, input: RefundInput): Promise<RefundResult> {
    const { orderId } = input;
    const claimed = await this.knex.transaction(async (trx) => {
      // The payment first, then the order: the order every money movement locks them in
      // (notifications too), so two of them never wait on each other.
      const payment = await this.refunds.refundablePayment(orderId, trx);
      const order = await this.orders.lockForUpdate(orderId, trx);
      if (!order) throw fail('order_not_found');
      const terms = this.termsOf(payment, order);
      const notRefundable = whyNot(order, payment, terms);
      if (notRefundable || !payment) throw new ConflictError(NOT_REFUNDABLE[notRefundable ?? 'no_paid_payment'], 'order_not_refundable');
      if (!terms.insideWindow && !input.overrideWindow) {
        throw new ConflictError(
          `The refund window (${this.config.refunds.windowHours} hours after payment) closed on ${terms.windowEndsAt?.toISOString() ?? 'an unknown date'}; refunding now needs an override.`,
          'refund_window_passed',
        );
      }
      // Credit first (issue 37): the refund gives back the credit the payment used, then money for the rest.
      const credit = creditPartOf(terms, payment);
      const moneyPart = terms.refund.amount - credit.amount;
      if (payment.manual && moneyPart > 0 && !input.manualReference) {
        throw new ValidationError('This payment was made in crypto through CoinPal, which has no refund call.', {
          manualReference: 'send the money back yourself first, then give the transfer’s reference here',
        });
      }
      if (!payment.manual && input.manualReference) {
        throw new ValidationError('Only a CoinPal payment is refunded by hand.', {
          manualReference: `leave it out: ${payment.provider} refunds through its own call`,
        });
      }
      const row = await this.refunds.claim(
        {
          payment,
          amount: terms.refund,
          credit,
          fee: terms.fee,
          reason: input.reason,
          overrideWindow: !terms.insideWindow,
          manualReference: input.manualReference,
          actor: { userId: actor.userId, label: actor.label },
        },
        trx,
      );
      // The credit part is given back now, in this transaction: it needs no provider.
      await this.paymentCredit.returnCreditPart(row.id, trx);
      return { refundId: row.id, payment, terms };
    });

    const receipt = await this.refunds.send(claimed.refundId);

    return this.knex.transaction(async (trx) => {
      // Into the ledger: a succeeded refund of what the policy allows ends access; a pending one
      // (the bank is still at it) counts as nothing given back until the provider says it succeeded.
      await this.refunds.recordOutcome(claimed.refundId, receipt, trx);
      await this.access.follow(orderId, actor.label, trx);
      const refund = (await this.refunds.ofOrder(orderId, trx)).find((candidate) => candidate.id === claimed.refundId)!;
      await this.audit.record(
        actor,
        {
          action: 'order.refund',
          targetType: 'order',
          targetId: orderId,
          details: {
            orderId,
            refundId: refund.id,
            provider: claimed.payment.provider,
            currency: refund.amount.currency,
            paidMinor: claimed.payment.amount.amount,
            feeMinor: refund.fee.amount,
            refundMinor: refund.amount.amount,
            creditMinor: refund.credit.amount,
            overrideWindow: refund.overrideWindow,
            windowEndsAt: claimed.terms.windowEndsAt?.toISOString() ?? null,
            reason: refund.reason,
            manualReference: refund.manualReference,
            providerRefundId: refund.providerRefundId,
          },
        },
        trx,
      );
      const order = await this.orders.find(orderId, trx);
      this.logger.info({ orderId, refundId: refund.id, provider: claimed.payment.provider, overrideWindow: refund.overrideWindow }, 'order refunded by staff');
      return { orderId, state: order?.state ?? ORDER_STATE.refunded, refund };
    });
  }
}

/** Credit first (issue 37): of the policy's refund, the credit the payment used and no refund gave back yet. */
function creditPartOf(terms: RefundTerms, payment: RefundablePayment | undefined): Money {
  return money(Math.min(terms.refund.amount, payment?.creditLeft.amount ?? 0), terms.refund.currency);
}

const NOT_REFUNDABLE: Record<NotRefundableReason, string> = {
  order_not_paid: 'This order has not been paid: there is nothing to refund.',
  order_refunded: 'This order has already been refunded.',
  no_paid_payment: 'This order has no paid payment left to refund.',
  refund_nothing_left: 'The refund fee takes the whole amount paid: there is nothing to give back.',
  refund_in_progress: 'A refund of this order is already under way.',
};

function whyNot(order: OrderView, payment: RefundablePayment | undefined, terms: RefundTerms, inProgress = false): RefundQuote['notRefundable'] {
  if (order.state === ORDER_STATE.refunded) return 'order_refunded';
  if (!REFUNDABLE_STATES.includes(order.state)) return 'order_not_paid';
  if (!payment) return 'no_paid_payment';
  // A refund under way holds what it asks for: nothing may be left beside it, and that is why.
  if (inProgress) return 'refund_in_progress';
  if (terms.refund.amount <= 0) return 'refund_nothing_left';
  return undefined;
}
