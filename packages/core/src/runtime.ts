/**
 * Opens everything a process needs: the database (embedded in demo mode), the job queue and
 * the container, and closes them again in reverse order. Used by every CLI command.
 */
import type { Container } from 'inversify';
import type { PgBoss } from 'pg-boss';
import type { Knex } from 'knex';
import { buildContainer, QUEUE_DEFINITIONS } from './container.js';
import type { AppConfig } from './shared/config.js';
import type { Clock } from './shared/clock.js';
import { createKnex } from './shared/database.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './shared/embedded-postgres.js';
import { createPgBoss, createQueues, PgBossJobQueue } from './shared/jobs.js';
import type { Logger } from './shared/logger.js';
import { MAILBOXES, type MailboxReaderService } from './modules/mailboxes/index.js';

export interface Runtime {
  config: AppConfig;
  logger: Logger;
  knex: Knex;
  boss: PgBoss;
  container: Container;
  databaseUrl: string;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** Workers supervise pg-boss (maintenance, schedules); HTTP-only processes just send. */
  supervise?: boolean;
  /** Skip the job queue entirely (migrate, seed, create-admin). */
  withoutJobs?: boolean;
  clock?: Clock;
  /**
   * One-shot commands (migrate, backup, restore, seed, ...) set this: their statements may rightly
   * run for minutes, so their pool has no statement or acquire bounds. Long-running processes
   * (serve, start, worker) leave it unset and get config.database's bounds (shared/database.ts).
   */
  unbounded?: boolean;
}

export async function openDatabase(config: AppConfig, logger: Logger): Promise<{ url: string; embedded?: EmbeddedDatabase }> {
  if (config.databaseUrl) return { url: config.databaseUrl };
  const embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, password: config.embeddedDbPassword, logger });
  logger.debug('embedded PostgreSQL started');
  return { url: embedded.url, embedded };
}

export async function openRuntime(config: AppConfig, logger: Logger, options: RuntimeOptions = {}): Promise<Runtime> {
  const { url, embedded } = await openDatabase(config, logger);
  const knex = createKnex(url, options.unbounded ? {} : { bounds: config.database });
  const boss = createPgBoss(url, { supervise: options.supervise ?? false, logger });
  try {
    if (!options.withoutJobs) {
      await boss.start();
      await createQueues(boss, QUEUE_DEFINITIONS);
    }
  } catch (error) {
    await knex.destroy();
    await embedded?.stop();
    throw error;
  }
  const container = buildContainer({ config, knex, logger, jobQueue: new PgBossJobQueue(boss), clock: options.clock });

  let closing: Promise<void> | undefined;
  return {
    config,
    logger,
    knex,
    boss,
    container,
    databaseUrl: url,
    close() {
      closing ??= (async () => {
        await container
          .get<MailboxReaderService>(MAILBOXES.Reader)
          .close()
          .catch((error: unknown) => logger.error({ err: error }, 'closing mailbox watches failed'));
        if (!options.withoutJobs)
          await boss.stop({ graceful: true, timeout: 8_000 }).catch((error: unknown) => logger.error({ err: error }, 'stopping jobs failed'));
        await knex.destroy().catch((error: unknown) => logger.error({ err: error }, 'closing the database pool failed'));
        await embedded?.stop().catch((error: unknown) => logger.error({ err: error }, 'stopping PostgreSQL failed'));
      })();
      return closing;
    },
  };
}
