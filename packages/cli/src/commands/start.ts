import { Command } from 'commander';
import { createKnex, migrateLatest, openRuntime, seedDemoCatalog, type Knex } from '@subshare/core';
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

export const startCommand = () =>
  new Command('start').description('migrate, seed the demo catalog, and run HTTP and worker in one process (npm start)').action(async () => {
    const { config, logger } = loadContext();
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
      const http = await startHttp(runtime);
      shutdown.onStop(http.close);
      const publicUrl = config.publicUrl;
      console.log(
        [
          '',
          `  subshare is running at ${publicUrl}${publicUrl !== http.url ? ` (listening on ${http.url})` : ''}`,
          `  mode: ${config.mode}${config.mode === 'demo' ? `, data in ${config.dataDir}` : ''}`,
          ...adminLines.map((line) => `  ${line}`),
          '  Stop with Ctrl+C (or SIGTERM).',
          '',
        ].join('\n'),
      );
    } catch (error) {
      await runtime.close();
      throw error;
    }
  });
