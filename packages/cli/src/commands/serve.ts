import { Command } from 'commander';
import { openRuntime } from '@subshare/core';
import { loadContext, stopOnSignal } from '../context.js';
import { startHttp } from '../processes.js';

export const serveCommand = () =>
  new Command('serve').description('run the HTTP server only (scale out: any number of these)').action(async () => {
    const { config, logger } = loadContext();
    const runtime = await openRuntime(config, logger, { supervise: false });
    const http = await startHttp(runtime).catch(async (error: unknown) => {
      await runtime.close();
      throw error;
    });
    stopOnSignal(logger, [http.close, runtime.close]);
  });
