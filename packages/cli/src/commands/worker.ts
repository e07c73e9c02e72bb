import { Command } from 'commander';
import { openRuntime } from '@subshare/core';
import { handleSignals, loadContext } from '../context.js';
import { startWorkerProcess } from '../processes.js';

export const workerCommand = () =>
  new Command('worker').description('run the background jobs only (activation, expiry, e-mail, mailboxes)').action(async () => {
    const { config, logger } = loadContext();
    const shutdown = handleSignals(logger, 'served');
    const runtime = await openRuntime(config, logger, { supervise: true });
    shutdown.onStop((deadline) => runtime.close(deadline));
    const worker = await startWorkerProcess(runtime);
    shutdown.onStop(worker.stop);
  });
