/**
 * Applying what a provider says about a payment: the money path's second half. A provider's
 * notification (or its answer when we ask) changes the payment and, in the same transaction,
 * the order it pays for.
 *
 *   POST /api/webhook/<provider> ──▶ receive(provider, notification):
 *     payments.verifyNotification: signature ─(demo: still served?)─(CoinPal: ask status)─▶ report
 *     one transaction:
 *       payments.applyReport: lock the payment named by the signed reference ─▶ unsigned fields
 *           agree? (else 400, nothing recorded) ─▶ payment_events row (unique: a copy stops here
 *           as `duplicate`) ─▶ amount right? ─▶ payment paid / failed / refunded
 *           money back / disputes ─▶ rows of the money ledger (ledger.service.ts), applied at once
 *           when the payment is paid, otherwise WAITING for it (answered 200, visible to staff)
 *       orders: paid ─▶ markPaid (state 6 + `order-activate` job, this transaction), then the
 *               ledger's waiting rows apply · failed ─▶ state 3 · a ledger change ─▶ access
 *               follows the ledger (order-access.ts `follow`: state 5, slot freed, e-mail;
 *               suspended; reinstated)
 *       payments.finishEvent: the outcome on the event row
 *     ─▶ a second payment of a paid order (`paid_twice`): its refund, claimed in that transaction,
 *        is sent through the provider after it commits and written to the ledger (issue 34)
 *     ─▶ the provider's acknowledgement (200)
 *   worker `payments-reconcile` ──▶ reconcile: asks the provider about payments pending
 *       for 10 minutes and applies its answer the same way (a lost notification must not lose a sale)
 *
 * Exactly once: the event row is written inside the transaction that applies it, so duplicates,
 * retries and races apply it once; the job is sent in it too, so an order never becomes paid
 * without its activation job, nor the other way round.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
import { TOKENS } from '../shared/tokens.js';
import { ORDER_STATE, OrdersService } from '../modules/orders/index.js';
import { OrderAccess } from './order-access.js';
import { PaymentCredit } from './payment-credit.js';
import {
  type ApplyOutcome,
  type IncomingNotification,
  PaymentsService,
  type PaymentView,
  RefundsService,
  type PendingEvent,
  type ProviderName,
  type VerifiedReport,
} from '../modules/payments/index.js';

/** Pending payments older than this are asked about, in case a notification was lost. */
const RECONCILE_AFTER_MS = 10 * 60_000;
const RECONCILE_BATCH = 100;

/** What a webhook answers: the outcome (the demo page redirects by it) and the provider's expected acknowledgement. */
export interface NotificationAnswer {
  outcome: ApplyOutcome;
  contentType: string;
  body: string;
}

@injectable()
export class PaymentNotificationFlow {
  private readonly logger: Logger;

  constructor(
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) logger: Logger,
    @inject(PaymentsService) private readonly payments: PaymentsService,
    @inject(OrdersService) private readonly orders: OrdersService,
    @inject(OrderAccess) private readonly access: OrderAccess,
    @inject(RefundsService) private readonly refunds: RefundsService,
    @inject(PaymentCredit) private readonly credit: PaymentCredit,
  ) {
    this.logger = logger.child({ flow: 'payment-notification' });
  }

  /** POST /api/webhook/{stripe,coinpal,payssion,demo}: a provider's notification, verified and applied once. */
  async receive(provider: ProviderName, notification: IncomingNotification): Promise<NotificationAnswer> {
    const { acknowledgement, ...verified } = await this.payments.verifyNotification(provider, notification);
    const outcome = await this.applyVerified(verified);
    return { outcome, ...acknowledgement };
  }

  /**
   * Asks the payment's provider where it stands and applies the answer like a notification
   * (return pages, the expiry of unpaid orders, reconciliation). Undefined when nobody was asked.
   */
  async askProvider(payment: PaymentView): Promise<ApplyOutcome | undefined> {
    const verified = await this.payments.askProvider(payment);
    return verified && this.applyVerified(verified);
  }

  /** The `payments-reconcile` job: asks providers about payments left pending. */
  async reconcile(): Promise<{ checked: number }> {
    const stale = await this.payments.pendingBefore(new Date(this.clock.now().getTime() - RECONCILE_AFTER_MS), RECONCILE_BATCH);
    for (const payment of stale) {
      await this.askProvider(payment).catch((error: unknown) => this.logger.warn({ err: error, paymentId: payment.id }, 'reconciliation failed'));
    }
    // Refunds of second payments whose send was cut short or got no answer: the same refund again.
    for (const refundId of await this.refunds.staleDoublePayments(RECONCILE_BATCH)) await this.sendDoubleRefund(refundId);
    return { checked: stale.length };
  }

  /**
   * Applies a verified provider report: one transaction, the payment's change, then its order's,
   * then the event's outcome. Every way money is known to have moved comes through here (webhooks,
   * status answers, and an off-session renewal charge's answer from flows/renewal.flow.ts), so a
   * paid renewal order is paid and activated like any other.
   */
  async applyVerified(verified: VerifiedReport): Promise<ApplyOutcome> {
    let doubleRefund: number | undefined;
    const outcome = await this.knex.transaction(async (trx) => {
      const applied = await this.applyIn(verified, trx);
      doubleRefund = applied.doubleRefund;
      return applied.outcome;
    });
    // Sent once the second payment and its pending refund are committed (a provider call is never
    // made inside a transaction); a replayed notification is `duplicate` above and sends nothing.
    if (doubleRefund !== undefined) await this.sendDoubleRefund(doubleRefund);
    return outcome;
  }

  /**
   * `applyVerified` inside the caller's transaction: a payment wholly covered by credit is paid in
   * the transaction that opens it (flows/payment-credit.ts). A second payment's refund, if any, is
   * the caller's to send once it commits (`sendDoubleRefund`).
   */
  async applyIn(verified: VerifiedReport, trx: Knex.Transaction): Promise<{ outcome: ApplyOutcome; doubleRefund?: number }> {
    const applied = await this.payments.applyReport(verified, trx);
    if ('done' in applied) {
      // A payment that expired gives its credit back; our reference is `<order>-<payment>`.
      const orderId = Number(verified.report.reference?.split('-')[0]);
      if (applied.done === 'expired' && Number.isSafeInteger(orderId)) await this.credit.release(orderId, trx);
      return { outcome: applied.done };
    }
    // A payment paid after its credit was released takes it again first (a second payment's refund then gives back what it holds).
    if (applied.pending.effect === 'paid') await this.credit.paid(applied.pending.paymentId, trx);
    const moved = await this.moveOrder(applied.pending, verified.provider, trx);
    if (applied.pending.effect === 'failed') await this.credit.release(applied.pending.orderId, trx);
    await this.payments.finishEvent(applied.pending, moved.outcome, trx);
    return moved;
  }

  /**
   * Gives a second payment of an order back through its provider (issue 34: one order, one
   * payment) and records the provider's answer in the ledger. The refund stays pending when the
   * provider did not answer (sent again by `reconcile` after 5 minutes, with the same idempotency
   * key where the provider has one) and when the provider has no refund call (CoinPal: staff send
   * the crypto back; the dashboard and the order page show it waiting). Never throws: the payment
   * is recorded whatever the provider says, and staff see the refund's state.
   */
  async sendDoubleRefund(refundId: number): Promise<void> {
    let receipt: Awaited<ReturnType<RefundsService['send']>>;
    // Its credit goes back as credit first (at once, whatever the provider says of the money).
    await this.knex.transaction((trx) => this.credit.returnCreditPart(refundId, trx));
    try {
      receipt = await this.refunds.send(refundId);
    } catch (error) {
      this.logger.error({ err: error, refundId }, 'the refund of a second payment was not made: staff see it on the order and the dashboard');
      return;
    }
    if (receipt === 'manual') {
      this.logger.error({ refundId }, 'a second payment through a provider without a refund call: staff must send it back by hand');
      return;
    }
    await this.knex.transaction(async (trx) => {
      const { after } = await this.refunds.recordOutcome(refundId, receipt, trx);
      const refund = await this.refunds.byId(refundId, trx);
      if (refund) await this.access.follow(refund.orderId, 'shop (double payment)', trx);
      const status = receipt === 'credit' ? 'succeeded' : receipt.status;
      this.logger.warn({ refundId, orderId: refund?.orderId, status, access: after.access }, 'refunded the second payment of an order');
    });
  }

  /**
   * The order's part of a payment change, one case per `OrderEffect` (TypeScript refuses a switch
   * that misses one); whatever else it touches (subscriptions, e-mails, jobs) joins this
   * transaction. A paid order, and an order whose ledger changed, then follow their ledger
   * (order-access.ts): events that waited for the payment apply now, a refund or chargeback that
   * the rules say ends access ends it, a dispute suspends it, a won one gives it back.
   */
  private async moveOrder(event: PendingEvent, provider: ProviderName, trx: Knex.Transaction): Promise<{ outcome: ApplyOutcome; doubleRefund?: number }> {
    switch (event.effect) {
      case 'paid': {
        const activated = await this.orders.markPaid(event.orderId, event.method, trx);
        // One order, one payment: the order was paid already (two tabs, two providers, a race).
        // This payment goes back in full, recorded now (before access is followed: a second
        // payment grants none), sent when this transaction commits.
        const doubleRefund = activated ? undefined : await this.refunds.claimDoublePayment(event.paymentId, trx);
        await this.access.follow(event.orderId, provider, trx);
        if (doubleRefund === undefined) return { outcome: 'paid' };
        this.logger.warn(
          { paymentId: event.paymentId, orderId: event.orderId, refundId: doubleRefund },
          'a second payment arrived for a paid order: it is refunded',
        );
        return { outcome: 'paid_twice', doubleRefund };
      }
      case 'failed':
        await this.orders.moveTo(event.orderId, ORDER_STATE.paymentFailed, trx);
        return { outcome: 'failed' };
      case 'ledger':
        await this.access.follow(event.orderId, provider, trx);
        if (event.outcome === 'charged_back')
          this.logger.warn({ provider, paymentId: event.paymentId, orderId: event.orderId }, 'the money of a payment was charged back: access ended');
        return { outcome: event.outcome ?? 'noted' };
    }
  }
}
