/**
 * The composition root: shared infrastructure (config, knex, logger, clock, job queue) plus
 * every module's ContainerModule. HTTP, worker and CLI all build the same container.
 */
import 'reflect-metadata';
import { Container } from 'inversify';
import { Model } from 'objection';
import type { Knex } from 'knex';
import type { AppConfig } from './shared/config.js';
import type { Clock } from './shared/clock.js';
import { SystemClock } from './shared/clock.js';
import type { JobQueue } from './shared/jobs.js';
import type { Logger } from './shared/logger.js';
import { TOKENS } from './shared/tokens.js';
import { RateLimiter } from './shared/rate-limiter.js';
import { CredentialsCipher } from './shared/credentials-cipher.js';
import { DatabaseEvents } from './shared/database-events.js';
import { connectionStringOf } from './shared/database.js';
import { catalogModule } from './modules/catalog/index.js';
import { operationsModule } from './modules/operations/index.js';
import { identityModule } from './modules/identity/index.js';
import { auditModule } from './modules/audit/index.js';
import { ordersModule } from './modules/orders/index.js';
import { paymentsModule } from './modules/payments/index.js';
import { notificationsModule } from './modules/notifications/index.js';
import { accountsModule } from './modules/accounts/index.js';
import { subscriptionsModule } from './modules/subscriptions/index.js';
import { mailboxesModule } from './modules/mailboxes/index.js';
import { renewalsModule } from './modules/renewals/index.js';
import { creditModule } from './modules/credit/index.js';
import { referralsModule } from './modules/referrals/index.js';
import { promotionsModule } from './modules/promotions/index.js';
import { flowsModule } from './flows/index.js';

export interface ContainerDependencies {
  config: AppConfig;
  knex: Knex;
  logger: Logger;
  jobQueue: JobQueue;
  clock?: Clock;
  /** The database the events connection opens; default: the one `knex` connects to. */
  databaseUrl?: string;
}

const MODULES = [
  auditModule,
  ordersModule,
  paymentsModule,
  identityModule,
  catalogModule,
  operationsModule,
  notificationsModule,
  accountsModule,
  subscriptionsModule,
  mailboxesModule,
  renewalsModule,
  creditModule,
  referralsModule,
  promotionsModule,
  flowsModule,
];

export function buildContainer(deps: ContainerDependencies): Container {
  // Objection models use this knex unless a repository passes a transaction.
  Model.knex(deps.knex);
  const container = new Container({ defaultScope: 'Singleton' });
  container.bind(TOKENS.Config).toConstantValue(deps.config);
  container.bind(TOKENS.Knex).toConstantValue(deps.knex);
  container.bind(TOKENS.Logger).toConstantValue(deps.logger);
  const clock = deps.clock ?? new SystemClock();
  container.bind(TOKENS.Clock).toConstantValue(clock);
  container.bind(RateLimiter).toConstantValue(new RateLimiter(deps.knex, clock));
  container.bind(TOKENS.JobQueue).toConstantValue(deps.jobQueue);
  container.bind(CredentialsCipher).toConstantValue(new CredentialsCipher(deps.config.credentialsKey));
  container.bind(DatabaseEvents).toConstantValue(
    new DatabaseEvents({
      connectionString: deps.databaseUrl ?? connectionStringOf(deps.knex),
      knex: deps.knex,
      logger: deps.logger,
      timeoutMs: deps.config.database.acquireTimeoutMs,
    }),
  );
  container.load(...MODULES);
  return container;
}
