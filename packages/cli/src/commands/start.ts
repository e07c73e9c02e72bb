import { Command } from 'commander';
import { migrateLatest, openRuntime, seedDemoCatalog } from '@subshare/core';
import { loadContext, stopOnSignal } from '../context.js';
import { ensureFirstAdmin, startHttp, startWorkerProcess } from '../processes.js';

export const startCommand = () =>
  new Command('start').description('migrate, seed the demo catalog, and run HTTP and worker in one process (npm start)').action(async () => {
    const { config, logger } = loadContext();
    const runtime = await openRuntime(config, logger, { supervise: true });
    try {
      await migrateLatest(runtime.knex);
      const seeded = await seedDemoCatalog(runtime.knex);
      if (seeded.seeded) logger.info({ platforms: seeded.platforms }, 'seeded the demo catalog');
      const adminLines = await ensureFirstAdmin(runtime);
      const worker = await startWorkerProcess(runtime);
      const http = await startHttp(runtime);
      stopOnSignal(logger, [http.close, worker.stop, runtime.close]);
      const publicUrl = config.publicUrl;
      console.log(
        [
          '',
          `  subshare is running at ${publicUrl}${publicUrl !== http.url ? ` (listening on ${http.url})` : ''}`,
          `  mode: ${config.mode}${config.mode === 'demo' ? `, data in ${config.dataDir}` : ''}`,
          ...adminLines.map((line) => `  ${line}`),
          '  Stop with Ctrl+C.',
          '',
        ].join('\n'),
      );
    } catch (error) {
      await runtime.close();
      throw error;
    }
  });
