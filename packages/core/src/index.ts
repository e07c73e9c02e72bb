// @subshare/core: the domain core. HTTP, worker and CLI import only from here.
export * from './shared/errors.js';
export * from './shared/config.js';
export * from './shared/clock.js';
export * from './shared/money.js';
export * from './shared/logger.js';
export * from './shared/request-context.js';
export * from './shared/tokens.js';
export * from './shared/jobs.js';
export { closeKnex, createKnex, inTransaction, sqlRows, withOwnConnection, type Knex, type OwnConnection } from './shared/database.js';
export { startEmbeddedPostgres, freePort, type EmbeddedDatabase } from './shared/embedded-postgres.js';
export { settleBy } from './shared/deadline.js';
export { markStopping, isStopping } from './shared/process-stop.js';
export { DatabaseEvents, type DatabaseEventHandler, type DatabaseEventsOptions, type ListenOptions, type Unsubscribe } from './shared/database-events.js';
export { migrateLatest, rollbackAll, pendingMigrations, migrationNames, MIGRATIONS, MIGRATIONS_DIR, type MigrationFolder } from './shared/migrator.js';
export { buildContainer, type ContainerDependencies } from './container.js';
export { JOB_DECLARATIONS } from './jobs.js';
export { openRuntime, openDatabase, type Runtime, type RuntimeOptions } from './runtime.js';
export * from './modules/catalog/index.js';
export * from './modules/operations/index.js';
export * from './modules/identity/index.js';
export * from './modules/notifications/index.js';
export { validate, assertSafeInput, MAX_INPUT_DEPTH } from './shared/validate.js';
export { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, pagingSchema, pageCountSchema, pagesOf, type PageCount } from './shared/paging.js';
export { escapeHtml } from './shared/html.js';
export { RateLimiter, type RateLimit, type RateLimitState } from './shared/rate-limiter.js';
export * from './modules/audit/index.js';
export * from './modules/orders/index.js';
export * from './modules/payments/index.js';
export * from './modules/accounts/index.js';
export * from './modules/subscriptions/index.js';
export * from './modules/mailboxes/index.js';
export * from './modules/renewals/index.js';
export * from './modules/credit/index.js';
export * from './modules/referrals/index.js';
export * from './modules/promotions/index.js';
export * from './flows/index.js';
export * from './validation/alert-rules.js';
export * from './validation/problem-reports.js';
export * from './validation/mail-trust.js';
export * from './wire/enums.js';
export {
  CredentialsCipher,
  CredentialsCipherError,
  credentialsKeyId,
  parseCredentialsKey,
  storedKeyId,
  type CredentialsCipherFailure,
} from './shared/credentials-cipher.js';
