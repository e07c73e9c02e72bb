/**
 * The figures /metrics reads from the database at scrape time, from the modules that own them:
 * jobs per queue and state (pg-boss), the outbox backlog and the age of its oldest pending e-mail,
 * paid orders waiting past the 24-hour promise, and how long recent activations took. Every
 * statement runs in one read-only transaction under a statement timeout, so a scrape never holds
 * the database for long; the HTTP layer also stops waiting after the same time.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { countJobs, type JobCount } from '../shared/jobs.js';
import { TOKENS } from '../shared/tokens.js';
import { NOTIFICATIONS, type NotificationsService, type OutboxBacklog } from '../modules/notifications/index.js';
import { ORDERS, type ActivationLatency, type OrdersService } from '../modules/orders/index.js';
import { RENEWALS, type RenewalsService } from '../modules/renewals/index.js';
import { ACTIVATION_PROMISE_HOURS } from './admin-dashboard.flow.js';

/** Activation latency is measured over the orders completed in this many past hours. */
export const ACTIVATION_LATENCY_WINDOW_HOURS = 24;

export interface ShopMetrics {
  jobs: JobCount[];
  outbox: OutboxBacklog;
  /** Paid orders still waiting for activation ACTIVATION_PROMISE_HOURS after payment. */
  ordersWaitingPastPromise: number;
  activation: ActivationLatency;
  /** Automatic renewal since the start: charge attempts sent, periods renewed, declines met. */
  renewals: { attempted: number; succeeded: number; failed: number };
}

@injectable()
export class ShopMetricsFlow {
  constructor(
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(ORDERS.Service) private readonly orders: OrdersService,
    @inject(NOTIFICATIONS.Service) private readonly notifications: NotificationsService,
    @inject(RENEWALS.Service) private readonly renewals: RenewalsService,
  ) {}

  async snapshot(timeoutMs: number): Promise<ShopMetrics> {
    return this.knex.transaction(async (trx) => {
      await trx.raw(`set transaction read only`);
      await trx.raw(`set local statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`);
      // One connection: the reads run one after another.
      const jobs = await countJobs(trx);
      const outbox = await this.notifications.outboxBacklog(trx);
      const ordersWaitingPastPromise = await this.orders.countWaitingLongerThan(ACTIVATION_PROMISE_HOURS, trx);
      const activation = await this.orders.activationLatency(ACTIVATION_LATENCY_WINDOW_HOURS, trx);
      const renewals = await this.renewals.counts(trx);
      return { jobs, outbox, ordersWaitingPastPromise, activation, renewals };
    });
  }
}
