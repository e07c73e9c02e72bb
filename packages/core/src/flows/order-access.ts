/**
 * Access follows the money ledger: the order, its subscriptions (panel, slot) and the buyer's
 * e-mail are made to agree with what the ledger's rules (modules/payments/money-ledger.ts) say
 * of the order now. One place, used by the staff refund (refund.flow.ts) and by provider
 * notifications (payment-notification.flow.ts), always inside the transaction that wrote the
 * ledger row, so the order, the slot, the e-mail and the money never disagree.
 *
 *   follow(order): the ledger's access ─▶
 *     active     ─▶ a suspension is lifted (reinstate)
 *     suspended  ─▶ access withheld, slot kept (suspend)
 *     refunded / charged back ─▶ end: order ─▶ state 5 · what its items paid for is taken back (a
 *        new slot freed at once, a renewal's own months only) · the suspension its dispute put on a
 *        renewed subscription is lifted (the months left are paid and undisputed) · `refunded`
 *        e-mail (once per order) · the platforms' waiting orders tried again
 *   Each step does nothing when the world already agrees, so following twice is following once.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { JobQueue } from '../shared/jobs.js';
import type { Logger } from '../shared/logger.js';
import { toMajorUnits, type Money } from '../shared/money.js';
import { formatMoney } from '../storefront/index.js';
import { TOKENS } from '../shared/tokens.js';
import { type AuditActor, AuditService } from '../modules/audit/index.js';
import { EMAIL_KIND, NotificationsService } from '../modules/notifications/index.js';
import { ORDER_STATE, OrdersService } from '../modules/orders/index.js';
import { LedgerService } from '../modules/payments/index.js';
import { SUBSCRIPTION_QUEUES, SubscriptionsService } from '../modules/subscriptions/index.js';

export interface AccessEnded {
  /** Whether the order moved to state 5 now (false when it already was, or was never paid). */
  orderRefunded: boolean;
  subscriptionsEnded: number[];
  subscriptionsShortened: number[];
}

/** "€8.10", "₩13,500": how an amount reads in an e-mail and on the pages e-mails link to (the one formatter: storefront/index.ts). */
export function moneyLabel(value: Money): string {
  return formatMoney(toMajorUnits(value), value.currency);
}

@injectable()
export class OrderAccess {
  private readonly logger: Logger;

  constructor(
    @inject(TOKENS.JobQueue) private readonly jobs: JobQueue,
    @inject(TOKENS.Logger) logger: Logger,
    @inject(OrdersService) private readonly orders: OrdersService,
    @inject(SubscriptionsService) private readonly subscriptions: SubscriptionsService,
    @inject(NotificationsService) private readonly notifications: NotificationsService,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(LedgerService) private readonly ledger: LedgerService,
  ) {
    this.logger = logger.child({ flow: 'order-access' });
  }

  /** Makes the order's access what its ledger says now (see the file's comment); `actor` names who moved the money (audit). */
  async follow(orderId: number, actor: string, trx: Knex.Transaction): Promise<void> {
    const standing = await this.ledger.standingOfOrder(orderId, trx);
    const currency = standing.payments[0]?.payment.currency as Money['currency'] | undefined;
    switch (standing.access) {
      case 'unpaid':
        return;
      case 'active':
      case 'suspended':
        await this.settleSuspension(orderId, actor, trx);
        return;
      case 'refunded':
      case 'charged_back':
        await this.end(
          orderId,
          { amount: { amount: standing.refunded + standing.chargedBack, currency: currency ?? 'EUR' }, chargeback: standing.chargedBack > 0 },
          trx,
          actor,
        );
        return;
    }
  }

  /**
   * Each subscription the order pays for (or `subscriptionIds`) is withheld while any order that
   * pays for it (its first purchase, its renewals) has an open dispute by its ledger, and given
   * back otherwise: a dispute on a renewal withholds the subscription it extends, and its end, won
   * or lost, gives back what the other orders paid for unless one of them is disputed too.
   */
  private async settleSuspension(orderId: number, actor: string, trx: Knex.Transaction, subscriptionIds?: number[]): Promise<void> {
    const order = await this.orders.lockForUpdate(orderId, trx);
    if (!order) return;
    const payers =
      subscriptionIds === undefined
        ? await this.subscriptions.payersOf(
            order.items.map((item) => item.id),
            trx,
          )
        : await this.subscriptions.payersOfSubscriptions(subscriptionIds, trx);
    const disputed = new Map<number, boolean>();
    const isDisputed = async (itemId: number) => {
      const payer = await this.orders.orderOfItem(itemId, trx);
      if (!payer) return false;
      if (!disputed.has(payer.id)) disputed.set(payer.id, (await this.ledger.standingOfOrder(payer.id, trx)).access === 'suspended');
      return disputed.get(payer.id)!;
    };
    const withhold: number[] = [];
    const giveBack: number[] = [];
    for (const { subscriptionId, orderItemIds } of payers) {
      let any = false;
      for (const itemId of orderItemIds) if ((any = await isDisputed(itemId))) break;
      (any ? withhold : giveBack).push(subscriptionId);
    }
    const suspended = await this.subscriptions.setSuspendedIds(withhold, true, trx);
    const reinstated = await this.subscriptions.setSuspendedIds(giveBack, false, trx);
    if (suspended.length > 0) {
      await this.audit.record(
        providerActor(actor),
        { action: 'payment.dispute_opened', targetType: 'order', targetId: orderId, details: { orderId, suspended } },
        trx,
      );
      this.logger.error({ orderId, provider: actor, suspended }, 'a payment dispute opened: access suspended, staff must answer it at the provider');
    }
    if (reinstated.length > 0) {
      await this.audit.record(
        providerActor(actor),
        { action: 'payment.dispute_won', targetType: 'order', targetId: orderId, details: { orderId, reinstated } },
        trx,
      );
      this.logger.info({ orderId, provider: actor, reinstated }, 'a payment dispute closed: access is back');
    }
  }

  /** The order's money went back (`amount`; a chargeback when the bank took it): access ends, the buyer is told. */
  async end(orderId: number, back: { amount: Money; chargeback: boolean }, trx: Knex.Transaction, actor = 'ledger'): Promise<AccessEnded> {
    const order = await this.orders.lockForUpdate(orderId, trx);
    if (!order) return { orderRefunded: false, subscriptionsEnded: [], subscriptionsShortened: [] };
    const orderRefunded = await this.orders.moveTo(orderId, ORDER_STATE.refunded, trx);
    if (!orderRefunded && order.state === ORDER_STATE.refunded) return { orderRefunded: false, subscriptionsEnded: [], subscriptionsShortened: [] };
    const itemIds = order.items.map((item) => item.id);
    // Read before the take-back, which leaves a refunded renewal out of what its items paid for.
    const paidFor = (await this.subscriptions.payersOf(itemIds, trx)).map((entry) => entry.subscriptionId);
    const taken = await this.subscriptions.takeBack(itemIds, trx);
    // A dispute on this order withheld what it paid for; the money is settled now, and what is
    // left of a renewed subscription (the months other orders paid for) is theirs again, unless
    // one of those orders is disputed too.
    await this.settleSuspension(orderId, actor, trx, paidFor);
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
}

/** Provider notifications act as the provider in the audit log. */
function providerActor(provider: string): AuditActor {
  return { label: provider };
}
