/**
 * Access follows the money: what a refund, a chargeback or a dispute does to an order and the
 * subscriptions it paid for. One place, used by the staff refund (refund.flow.ts) and by provider
 * notifications (payment-notification.flow.ts), always inside the transaction that records the
 * money's movement, so the order, the slot, the e-mail and the money never disagree.
 *
 *   end: order ─▶ state 5 (refunded) · what its items paid for is taken back (a new slot freed
 *        at once, a renewal's own months only) · `refunded` e-mail (once per order) · the
 *        platforms' waiting orders tried again (the freed slot goes to whoever waited longest)
 *   suspend / reinstate: a dispute withholds access (slot kept) / gives it back until the original end
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { JobQueue } from '../shared/jobs.js';
import type { Logger } from '../shared/logger.js';
import { toMajorUnits, type Money } from '../shared/money.js';
import { TOKENS } from '../shared/tokens.js';
import { AUDIT, type AuditActor, type AuditService } from '../modules/audit/index.js';
import { EMAIL_KIND, NOTIFICATIONS, type NotificationsService } from '../modules/notifications/index.js';
import { ORDER_STATE, ORDERS, type OrdersService } from '../modules/orders/index.js';
import { SUBSCRIPTION_QUEUES, SUBSCRIPTIONS, type SubscriptionsService } from '../modules/subscriptions/index.js';

export interface AccessEnded {
  /** Whether the order moved to state 5 now (false when it already was, or was never paid). */
  orderRefunded: boolean;
  subscriptionsEnded: number[];
  subscriptionsShortened: number[];
}

/** "€8.10", "₩13,500": how an amount reads in an e-mail. */
export function moneyLabel(value: Money): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: value.currency }).format(toMajorUnits(value));
}

@injectable()
export class OrderAccess {
  private readonly logger: Logger;

  constructor(
    @inject(TOKENS.JobQueue) private readonly jobs: JobQueue,
    @inject(TOKENS.Logger) logger: Logger,
    @inject(ORDERS.Service) private readonly orders: OrdersService,
    @inject(SUBSCRIPTIONS.Service) private readonly subscriptions: SubscriptionsService,
    @inject(NOTIFICATIONS.Service) private readonly notifications: NotificationsService,
    @inject(AUDIT.Service) private readonly audit: AuditService,
  ) {
    this.logger = logger.child({ flow: 'order-access' });
  }

  /** The order's money went back (`amount`; a chargeback when the bank took it): access ends, the buyer is told. */
  async end(orderId: number, back: { amount: Money; chargeback: boolean }, trx: Knex.Transaction): Promise<AccessEnded> {
    const order = await this.orders.lockForUpdate(orderId, trx);
    if (!order) return { orderRefunded: false, subscriptionsEnded: [], subscriptionsShortened: [] };
    const orderRefunded = await this.orders.moveTo(orderId, ORDER_STATE.refunded, trx);
    const taken = await this.subscriptions.takeBack(
      order.items.map((item) => item.id),
      trx,
    );
    await this.notifications.enqueue(
      {
        kind: EMAIL_KIND.refunded,
        to: order.email,
        languageId: order.languageId,
        userId: order.userId,
        data: { orderId, platformName: order.items[0]?.platformName ?? '', amount: moneyLabel(back.amount), chargeback: back.chargeback },
        idempotencyKey: `order:${orderId}:refunded`,
      },
      trx,
    );
    // A freed slot is capacity: the platforms' waiting orders are tried again once this commits.
    if (taken.ended.length > 0 || taken.shortened.length > 0) {
      for (const platformId of new Set(order.items.map((item) => item.platformId))) {
        await this.jobs.send(SUBSCRIPTION_QUEUES.activateWaiting.name, { platformId }, { trx });
      }
    }
    this.logger.info({ orderId, orderRefunded, ...taken, chargeback: back.chargeback }, 'access ended with the money');
    return { orderRefunded, subscriptionsEnded: taken.ended, subscriptionsShortened: taken.shortened };
  }

  /** A dispute opened: access is withheld (the slot stays held), and staff are told through the audit log and the error log. */
  async suspend(orderId: number, provider: string, trx: Knex.Transaction): Promise<number[]> {
    const order = await this.orders.lockForUpdate(orderId, trx);
    if (!order) return [];
    const suspended = await this.subscriptions.setSuspended(
      order.items.map((item) => item.id),
      true,
      trx,
    );
    await this.audit.record(
      providerActor(provider),
      { action: 'payment.dispute_opened', targetType: 'order', targetId: orderId, details: { orderId, suspended } },
      trx,
    );
    this.logger.error({ orderId, provider, suspended }, 'a payment dispute opened: access suspended, staff must answer it at the provider');
    return suspended;
  }

  /** The dispute was won: access comes back until the original end. */
  async reinstate(orderId: number, provider: string, trx: Knex.Transaction): Promise<number[]> {
    const order = await this.orders.lockForUpdate(orderId, trx);
    if (!order) return [];
    const reinstated = await this.subscriptions.setSuspended(
      order.items.map((item) => item.id),
      false,
      trx,
    );
    await this.audit.record(
      providerActor(provider),
      { action: 'payment.dispute_won', targetType: 'order', targetId: orderId, details: { orderId, reinstated } },
      trx,
    );
    this.logger.info({ orderId, provider, reinstated }, 'a payment dispute was won: access is back');
    return reinstated;
  }
}

/** Provider notifications act as the provider in the audit log. */
function providerActor(provider: string): AuditActor {
  return { label: provider };
}
