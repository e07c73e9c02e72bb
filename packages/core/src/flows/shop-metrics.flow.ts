/**
 * The figures /metrics reads from the database at scrape time, from the modules that own them:
 * jobs per queue and state (pg-boss's getQueueStats), the outbox backlog and the age of its oldest
 * pending e-mail, paid orders waiting past the 24-hour promise, and how long recent activations
 * took. The shop's own statements run in one read-only transaction under a statement timeout, so a
 * scrape never holds the database for long; the HTTP layer also stops waiting after the same time.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { readOnlyTransaction } from '../shared/database.js';
import type { JobCount, JobQueue } from '../shared/jobs.js';
import { TOKENS } from '../shared/tokens.js';
import { AccountHealthService } from '../modules/accounts/index.js';
import type { AccountHealthState } from '../validation/alert-rules.js';
import { NotificationsService, type OutboxBacklog } from '../modules/notifications/index.js';
import { type ActivationLatency, OrdersService } from '../modules/orders/index.js';
import { RenewalsService } from '../modules/renewals/index.js';
import { ACTIVATION_PROMISE_HOURS } from './admin-dashboard.flow.js';

/** Activation latency is measured over the orders completed in this many past hours. */
export const ACTIVATION_LATENCY_WINDOW_HOURS = 24;

export interface ShopMetrics {
  jobs: JobCount[];
  outbox: OutboxBacklog;
  /** Paid orders still waiting for activation ACTIVATION_PROMISE_HOURS after payment. */
  ordersWaitingPastPromise: number;
  activation: ActivationLatency;
  /** Active platform accounts per health state (issue 29). */
  accountHealth: Record<AccountHealthState, number>;
  /** Automatic renewal since the start: charge attempts sent, periods renewed, declines met. */
  renewals: { attempted: number; succeeded: number; failed: number };
}

@injectable()
export class ShopMetricsFlow {
  constructor(
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.JobQueue) private readonly jobQueue: JobQueue,
    @inject(OrdersService) private readonly orders: OrdersService,
    @inject(NotificationsService) private readonly notifications: NotificationsService,
    @inject(AccountHealthService) private readonly health: AccountHealthService,
    @inject(RenewalsService) private readonly renewals: RenewalsService,
  ) {}

  async snapshot(timeoutMs: number): Promise<ShopMetrics> {
    const jobs = await this.jobQueue.counts();
    return readOnlyTransaction(this.knex, timeoutMs, async (trx) => {
      // One connection: the reads run one after another.
      const outbox = await this.notifications.outboxBacklog(trx);
      const ordersWaitingPastPromise = await this.orders.countWaitingLongerThan(ACTIVATION_PROMISE_HOURS, trx);
      const activation = await this.orders.activationLatency(ACTIVATION_LATENCY_WINDOW_HOURS, trx);
      const accountHealth = await this.health.counts(trx);
      const renewals = await this.renewals.counts(trx);
      return { jobs, outbox, ordersWaitingPastPromise, activation, accountHealth, renewals };
    });
  }
}
