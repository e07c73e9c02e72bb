/**
 * Opens everything a process needs: the database (embedded in demo mode), the job queue and
 * the container, and closes them again in reverse order. Used by every CLI command.
 */
import type { Container } from 'inversify';
import type { PgBoss } from 'pg-boss';
import type { Knex } from 'knex';
import { buildContainer } from './container.js';
import { JOB_DECLARATIONS } from './jobs.js';
import type { AppConfig } from './shared/config.js';
import type { Clock } from './shared/clock.js';
import { closeKnex, createKnex } from './shared/database.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './shared/embedded-postgres.js';
import { createPgBoss, createQueues, PgBossJobQueue } from './shared/jobs.js';
import type { Logger } from './shared/logger.js';
import { settleBy } from './shared/deadline.js';
import { MailboxReaderService } from './modules/mailboxes/index.js';
import { DatabaseEvents } from './shared/database-events.js';

export interface Runtime {
  config: AppConfig;
  logger: Logger;
  knex: Knex;
  boss: PgBoss;
  container: Container;
  databaseUrl: string;
  /** Closes mailbox watches, the database events connection, jobs, the pool and the embedded PostgreSQL, all by `deadline` (epoch ms; default 9 s). */
  close(deadline?: number): Promise<void>;
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

/** The time kept back for stopping the embedded PostgreSQL (a fast shutdown takes well under a second). */
const DATABASE_STOP_SHARE_MS = 3_000;

export async function openDatabase(config: AppConfig, logger: Logger): Promise<{ url: string; embedded?: EmbeddedDatabase }> {
  if (config.databaseUrl) return { url: config.databaseUrl };
  const embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, password: config.embeddedDbPassword, logger });
  logger.debug('embedded PostgreSQL started');
  return { url: embedded.url, embedded };
}

export async function openRuntime(config: AppConfig, logger: Logger, options: RuntimeOptions = {}): Promise<Runtime> {
  const { url, embedded } = await openDatabase(config, logger);
  const knex = createKnex(url, options.unbounded ? {} : { bounds: config.database, max: config.database.poolMax });
  const boss = createPgBoss(url, { supervise: options.supervise ?? false, logger });
  try {
    if (!options.withoutJobs) {
      await boss.start();
      await createQueues(boss, JOB_DECLARATIONS);
    }
  } catch (error) {
    await closeKnex(knex);
    await embedded?.stop();
    throw error;
  }
  const container = buildContainer({ config, knex, logger, jobQueue: new PgBossJobQueue(boss), clock: options.clock, databaseUrl: url });

  let closing: Promise<void> | undefined;
  return {
    config,
    logger,
    knex,
    boss,
    container,
    databaseUrl: url,
    close(deadline = Date.now() + 9_000) {
      closing ??= (async () => {
        // Each part gets until the database's share of the deadline; the embedded PostgreSQL is
        // stopped last in any case, so a frozen database cannot keep the process (or itself) alive.
        const partsBy = deadline - DATABASE_STOP_SHARE_MS;
        await settleBy(container.get(MailboxReaderService).close(), partsBy, 'closing mailbox watches', logger);
        await settleBy(container.get(DatabaseEvents).close(), partsBy, 'closing the database events connection', logger);
        if (!options.withoutJobs) {
          const timeout = Math.max(1_000, Math.min(8_000, partsBy - Date.now() - 500));
          await settleBy(boss.stop({ graceful: true, timeout }), partsBy, 'stopping jobs', logger);
        }
        await settleBy(closeKnex(knex), partsBy, 'closing the database pool', logger);
        if (embedded) await settleBy(embedded.stop(deadline), deadline + 1_000, 'stopping PostgreSQL', logger);
      })();
      return closing;
    },
  };
}
