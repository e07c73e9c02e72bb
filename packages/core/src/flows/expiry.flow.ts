/**
 * Expiry and reminders: the end of a subscription's fixed period, and the e-mail before it.
 *
 *   `subscriptions-end-due` ──▶ endDue: active subscriptions at or past their end become `ended`
 *       (ended_at = the end time itself), the buyer gets `subscriptionEnded` with a renewal
 *       link, and the platforms that gained a free slot retry their waiting orders.
 *   `subscriptions-remind-due` ──▶ remindDue: active subscriptions ending within REMINDER_DAYS and not yet
 *       reminded of this period get `expiryReminder` with a one-click link that pays their renewal
 *       (extending the same slot from the current end, see activation.flow.ts), or, when they
 *       renew automatically, the `autoRenewal` reminder of the charge to come (renewal.flow.ts).
 *       A slot held for a renewal charge being retried (`held_until`) ends when the hold does.
 *
 * The slot is free at the end time whether or not the job has run: a period is [start, end),
 * so the exclusion constraint already lets a new period start at `end`, and the panel lists a
 * subscription only while `end` is in the future. The job only records it and tells the buyer.
 * Each batch is one transaction over rows locked with SKIP LOCKED: two workers never handle the
 * same subscription, a crash rolls the batch back whole, and the e-mails' idempotency keys
 * (`subscription:<id>:ended`, `subscription:<id>:reminder:<end>`) make any repeat write nothing.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { JobQueue } from '../shared/jobs.js';
import type { Logger } from '../shared/logger.js';
import { TOKENS } from '../shared/tokens.js';
import { EMAIL_KIND, NotificationsService } from '../modules/notifications/index.js';
import { OrdersService } from '../modules/orders/index.js';
import { RenewalFlow } from './renewal.flow.js';
import { SUBSCRIPTION_QUEUES, SubscriptionsService, type SubscriptionView } from '../modules/subscriptions/index.js';

import { REMINDER_DAYS } from '../promises/index.js';

/** How long before the end the reminder goes out: the buyers' promise, defined in core's promises. */
export { REMINDER_DAYS };
const DAY_MS = 24 * 3600 * 1000;
const BATCH = 100;
/** A run handles at most this many batches; the next run (a minute later) goes on. */
const MAX_BATCHES = 50;

export interface ExpiryRunResult {
  /** Subscriptions handled by this run. */
  count: number;
  subscriptionIds: number[];
}

@injectable()
export class ExpiryFlow {
  private readonly logger: Logger;

  constructor(
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.JobQueue) private readonly jobs: JobQueue,
    @inject(TOKENS.Logger) logger: Logger,
    @inject(OrdersService) private readonly orders: OrdersService,
    @inject(SubscriptionsService) private readonly subscriptions: SubscriptionsService,
    @inject(NotificationsService) private readonly notifications: NotificationsService,
    @inject(RenewalFlow) private readonly renewal: RenewalFlow,
  ) {
    this.logger = logger.child({ flow: 'expiry' });
  }

  /** Ends every subscription at or past its end time and tells its buyer; safe to run at any time, from any process. */
  async endDue(): Promise<ExpiryRunResult> {
    const ended: number[] = [];
    const platforms = new Set<number>();
    await this.inBatches(async (trx) => {
      const due = await this.subscriptions.dueToEnd(BATCH, trx);
      for (const subscription of due) {
        await this.subscriptions.markEnded(subscription.id, trx);
        const platformId = await this.tellBuyer(EMAIL_KIND.subscriptionEnded, subscription, `subscription:${subscription.id}:ended`, trx);
        if (platformId !== undefined) platforms.add(platformId);
        ended.push(subscription.id);
      }
      return due.length;
    });
    // A freed slot is capacity: the platform's waiting orders are tried again.
    for (const platformId of platforms) await this.jobs.send(SUBSCRIPTION_QUEUES.activateWaiting.name, { platformId });
    if (ended.length > 0) this.logger.info({ subscriptionIds: ended }, 'subscriptions ended');
    return { count: ended.length, subscriptionIds: ended };
  }

  /** E-mails the buyers whose subscription ends within 3 days, once per period; safe to run at any time. */
  async remindDue(): Promise<ExpiryRunResult> {
    const reminded: number[] = [];
    await this.inBatches(async (trx) => {
      const due = await this.subscriptions.dueForReminder(REMINDER_DAYS * DAY_MS, BATCH, trx);
      for (const subscription of due) {
        await this.subscriptions.markReminded(subscription.id, trx);
        // A renewal moves the end: the new period gets its own reminder.
        await this.tellBuyer(EMAIL_KIND.expiryReminder, subscription, `subscription:${subscription.id}:reminder:${subscription.endsAt.toISOString()}`, trx);
        reminded.push(subscription.id);
      }
      return due.length;
    });
    if (reminded.length > 0) this.logger.info({ subscriptionIds: reminded }, 'expiry reminders written');
    return { count: reminded.length, subscriptionIds: reminded };
  }

  /**
   * Writes the e-mail to the buyer, in the language and to the address of the order that bought
   * the subscription (both kinds link to the platform page, where buying again renews); answers
   * the platform id, or undefined when the order item is gone and nothing was written.
   */
  private async tellBuyer(
    kind: typeof EMAIL_KIND.subscriptionEnded | typeof EMAIL_KIND.expiryReminder,
    subscription: SubscriptionView,
    idempotencyKey: string,
    trx: Knex.Transaction,
  ): Promise<number | undefined> {
    const order = await this.orders.orderOfItem(subscription.orderItemId, trx);
    const item = order?.items.find((candidate) => candidate.id === subscription.orderItemId);
    if (!order || !item) {
      this.logger.warn({ subscriptionId: subscription.id }, 'subscription without its order item: no e-mail');
      return undefined;
    }
    const data = { subscriptionId: subscription.id, platformId: item.platformId, platformName: item.platformName, endTime: subscription.endsAt };
    const to = { to: order.email, languageId: order.languageId, userId: subscription.userId };
    try {
      // In a savepoint: an e-mail that cannot be written (bad data in an old order) must not stop
      // the subscription from ending, nor the rest of the batch.
      await trx.transaction(async (savepoint) => {
        if (kind === EMAIL_KIND.subscriptionEnded) return this.notifications.enqueue({ kind, data, ...to, idempotencyKey }, savepoint);
        // The reminder: of the automatic charge to come (with its cancel link), or of the end, with a one-click payment link.
        const plan = await this.renewal.planReminder(subscription, order, item, savepoint);
        if (plan.kind === 'auto')
          return this.notifications.enqueue({ kind: EMAIL_KIND.autoRenewal, data: plan.data, ...to, idempotencyKey: plan.idempotencyKey }, savepoint);
        return this.notifications.enqueue({ kind, data: { ...data, daysLeft: REMINDER_DAYS, renewUrl: plan.renewUrl }, ...to, idempotencyKey }, savepoint);
      });
    } catch (error) {
      this.logger.error(
        { err: error, subscriptionId: subscription.id, kind },
        'the e-mail to the buyer could not be written; the subscription is handled without it',
      );
    }
    return item.platformId;
  }

  /** Runs `batch` in its own transaction until it handles fewer than a full batch. */
  private async inBatches(batch: (trx: Knex.Transaction) => Promise<number>): Promise<void> {
    for (let round = 0; round < MAX_BATCHES; round += 1) {
      const handled = await this.knex.transaction(batch);
      if (handled < BATCH) return;
    }
  }
}
