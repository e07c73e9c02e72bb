import { Command } from 'commander';
import { openRuntime } from '@subshare/core';
import { handleSignals, loadContext } from '../context.js';
import { startHttp } from '../processes.js';

export const serveCommand = () =>
  new Command('serve').description('run the HTTP server only (scale out: any number of these)').action(async () => {
    const { config, logger } = loadContext({ serves: true });
    const shutdown = handleSignals(logger, 'served');
    const runtime = await openRuntime(config, logger, { supervise: false });
    shutdown.onStop((deadline) => runtime.close(deadline));
    const http = await startHttp(runtime).catch(async (error: unknown) => {
      await runtime.close();
      throw error;
    });
    shutdown.onStop(http.close);
  });
