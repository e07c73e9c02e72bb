import { Command } from 'commander';
import {
  createKnex,
  migrateLatest,
  openRuntime,
  REMINDERS_UNDELIVERED_WARNING,
  seedDemoCatalog,
  AccountsService,
  type Knex,
  RenewalViewsFlow,
  type Runtime,
} from '@subshare/core';
import { handleSignals, loadContext } from '../context.js';
import { ensureFirstAdmin, startHttp, startWorkerProcess } from '../processes.js';

async function withUnboundedKnex<T>(url: string, task: (knex: Knex) => Promise<T>): Promise<T> {
  const knex = createKnex(url, { max: 2 });
  try {
    return await task(knex);
  } finally {
    await knex.destroy();
  }
}

/**
 * Demo mode only: an account for every platform without one, so a newcomer's purchase activates
 * at once (docs/demo-mode.md). After the worker has started, which creates the queues that the
 * accounts' `account-created` events go to. Answers the start banner's lines about them.
 */
async function seedDemoAccounts(runtime: Runtime): Promise<string[]> {
  if (runtime.config.mode !== 'demo') return [];
  const seeded = await runtime.container.get(AccountsService).seedDemoAccounts({ label: 'demo' });
  if (seeded.length > 0) runtime.logger.info({ accounts: seeded.length }, 'seeded demo platform accounts');
  return [
    'Demo accounts: every platform without an account got one marked demo (a demo mailbox, generated passwords),',
    'so a purchase activates at once. Staff add real accounts in /jve/createsubscriber (Create subscription)',
    'or with `npx subshare create-account`; production mode (DATABASE_URL set) never makes demo accounts.',
  ];
}

/** Stripe keys without SMTP_URL: no renewal reminder is delivered, so no renewal is charged (issue 34; the worker logs it too). */
function renewalLines(runtime: Runtime): string[] {
  return runtime.container.get(RenewalViewsFlow).remindersUndelivered ? [REMINDERS_UNDELIVERED_WARNING] : [];
}

export const startCommand = () =>
  new Command('start').description('migrate, seed the demo catalog, and run HTTP and worker in one process (npm start)').action(async () => {
    const { config, logger } = loadContext({ serves: true });
    const shutdown = handleSignals(logger, 'served');
    const runtime = await openRuntime(config, logger, { supervise: true });
    shutdown.onStop((deadline) => runtime.close(deadline));
    try {
      // Migrations run on a pool of their own, without the statement timeout of the serving pool.
      const { applied, seeded } = await withUnboundedKnex(runtime.databaseUrl, async (knex) => ({
        applied: await migrateLatest(knex),
        seeded: await seedDemoCatalog(knex),
      }));
      if (applied.length > 0) logger.info({ applied }, 'applied migrations');
      if (seeded.seeded) logger.info({ platforms: seeded.platforms }, 'seeded the demo catalog');
      const adminLines = await ensureFirstAdmin(runtime);
      const worker = await startWorkerProcess(runtime);
      shutdown.onStop(worker.stop);
      const demoLines = await seedDemoAccounts(runtime);
      const http = await startHttp(runtime);
      shutdown.onStop(http.close);
      const publicUrl = config.publicUrl;
      console.log(
        [
          '',
          `  subshare is running at ${publicUrl}${publicUrl !== http.url ? ` (listening on ${http.url})` : ''}`,
          `  mode: ${config.mode}${config.mode === 'demo' ? `, data in ${config.dataDir}` : ''}`,
          ...adminLines.map((line) => `  ${line}`),
          ...demoLines.map((line) => `  ${line}`),
          ...renewalLines(runtime).map((line) => `  ${line}`),
          '  Stop with Ctrl+C (or SIGTERM).',
          '',
        ].join('\n'),
      );
    } catch (error) {
      await runtime.close();
      throw error;
    }
  });
