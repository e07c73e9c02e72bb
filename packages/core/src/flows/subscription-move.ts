/**
 * How a move is recorded (one way for both kinds): the shop's own (account-health flow, the old
 * account broke) and staff's replacement (replacement flow). The caller has claimed the new slot
 * in its transaction with subscriptions' `claimMove` (the one way a move claims); here, in the
 * same transaction:
 *
 *   old subscription `replaced` (its slot frees) → the new one takes over this period's reminder
 *   and slot hold (subscriptions `takeOver`) and its waiting renewal charge (renewals
 *   `moveOpenCharges`: charged once, on the new subscription, no second reminder) → the buyer is
 *   e-mailed (kind 9, the order's language, the new login e-mail; the subscription named by the
 *   ID the buyer knows, the first of its replacement chain) → audited `subscription.replace`.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { AccountsService } from '../modules/accounts/index.js';
import { type AuditActor, AuditService } from '../modules/audit/index.js';
import { EMAIL_KIND, NotificationsService } from '../modules/notifications/index.js';
import type { OrderView } from '../modules/orders/index.js';
import { RenewalsService } from '../modules/renewals/index.js';
import { type ClaimedSlot, SubscriptionsService, type SubscriptionView } from '../modules/subscriptions/index.js';

export interface MoveRecord {
  actor: AuditActor;
  /** The subscription moved off its account (still active until here). */
  old: SubscriptionView;
  claimed: ClaimedSlot;
  /** The order that bought it (undefined: nobody to e-mail). */
  order: OrderView | undefined;
  /** Why, when the shop moved the buyer itself: the e-mail and the audit say so. */
  reason?: 'account broken';
}

@injectable()
export class SubscriptionMove {
  constructor(
    @inject(SubscriptionsService) private readonly subscriptions: SubscriptionsService,
    @inject(RenewalsService) private readonly renewals: RenewalsService,
    @inject(AccountsService) private readonly accounts: AccountsService,
    @inject(NotificationsService) private readonly notifications: NotificationsService,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  async record({ actor, old, claimed, order, reason }: MoveRecord, trx: Knex.Transaction): Promise<void> {
    const created = claimed.subscription;
    await this.subscriptions.markReplaced(old.id, trx);
    await this.subscriptions.takeOver(old, created.id, trx);
    const chargesMoved = await this.renewals.moveOpenCharges(old.id, created.id, trx);
    const item = order?.items.find((candidate) => candidate.id === old.orderItemId);
    if (order) {
      const [newAccount] = await this.accounts.accountsByIds([created.platformAccountId], trx);
      const known = (await this.subscriptions.origins([old.id], trx)).get(old.id)?.id ?? old.id;
      await this.notifications.enqueue(
        {
          kind: EMAIL_KIND.subscriptionReplaced,
          to: order.email,
          languageId: order.languageId,
          userId: order.userId,
          data: {
            subscriptionId: known,
            platformName: item?.platformName ?? '',
            endTime: created.endsAt,
            profileNumber: claimed.account.slotsCount > 1 ? created.slot : null,
            loginEmail: newAccount?.email,
            accountBroke: reason === 'account broken',
          },
          idempotencyKey: `subscription:${old.id}:replaced`,
        },
        trx,
      );
    }
    await this.audit.record(
      actor,
      {
        action: 'subscription.replace',
        targetType: 'subscription',
        targetId: old.id,
        details: {
          ...(reason ? { reason } : {}),
          orderId: order?.id ?? null,
          from: { subscriptionId: old.id, platformAccountId: old.platformAccountId, slot: old.slot },
          to: { subscriptionId: created.id, platformAccountId: created.platformAccountId, slot: created.slot },
          ...(chargesMoved > 0 ? { renewalChargesMoved: chargesMoved } : {}),
        },
      },
      trx,
    );
  }
}
