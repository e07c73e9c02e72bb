/**
 * Replacement (staff): a buyer's account broke, so their subscription moves to a free slot of
 * another account of the same platform from now until its unchanged end date. In one
 * transaction: the new subscription is claimed first (the exclusion constraint decides races),
 * then the move is recorded as every move is (subscription-move.ts: the old one `replaced`, this
 * period's reminder, hold and renewal charge carried over, the buyer e-mailed, staff audited).
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { Clock } from '../shared/clock.js';
import { ConflictError, fail } from '../shared/errors.js';
import { TOKENS } from '../shared/tokens.js';
import type { AuditActor } from '../modules/audit/index.js';
import { OrdersService } from '../modules/orders/index.js';
import { SubscriptionsService, type SubscriptionView } from '../modules/subscriptions/index.js';
import type { ReplaceInput } from '../wire/subscriptions.js';
import { SubscriptionMove } from './subscription-move.js';

export interface ReplacementResult {
  subscription: SubscriptionView;
  replacedFrom: SubscriptionView;
  accountSlotsCount: number;
}

@injectable()
export class ReplacementFlow {
  constructor(
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(OrdersService) private readonly orders: OrdersService,
    @inject(SubscriptionsService) private readonly subscriptions: SubscriptionsService,
    @inject(SubscriptionMove) private readonly move: SubscriptionMove,
  ) {}

  /**
   * POST /api/webhook/replacesubscribe { subscribeId, orderId } (staff). 404 unknown order or
   * subscription, 400 when the subscription is not the order's, 409 `subscription_not_active`
   * or `no_free_slot` (nothing changes then).
   */
  async replace(actor: AuditActor, { subscribeId, orderId }: ReplaceInput): Promise<ReplacementResult> {
    return this.knex.transaction(async (trx) => {
      const order = await this.orders.lockForUpdate(orderId, trx);
      if (!order) throw fail('order_not_found');
      const old = await this.subscriptions.lock(subscribeId, trx);
      if (!old) throw fail('subscription_not_found');
      const item = order.items.find((candidate) => candidate.id === old.orderItemId);
      if (!item) throw fail('order_mismatch', undefined, { errors: { subscribeId: 'is not a subscription of this order' } });
      const now = this.clock.now();
      if (old.status !== 'active' || old.endsAt <= now) throw fail('subscription_not_active');

      const claimed = await this.subscriptions.claimMove(old, { platformId: item.platformId, startsAt: now }, trx);
      if (!claimed) throw new ConflictError('No other account of this platform has a free slot until the end date.', 'no_free_slot');
      const created = claimed.subscription;
      await this.move.record({ actor, old, claimed, order }, trx);
      return { subscription: created, replacedFrom: { ...old, status: 'replaced' }, accountSlotsCount: claimed.account.slotsCount };
    });
  }
}
