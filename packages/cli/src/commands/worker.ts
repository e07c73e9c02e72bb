import { Command } from 'commander';
import { openRuntime } from '@subshare/core';
import { loadContext, stopOnSignal } from '../context.js';
import { startWorkerProcess } from '../processes.js';

export const workerCommand = () =>
  new Command('worker').description('run the background jobs only (activation, expiry, e-mail, mailboxes)').action(async () => {
    const { config, logger } = loadContext();
    const runtime = await openRuntime(config, logger, { supervise: true });
    const worker = await startWorkerProcess(runtime);
    stopOnSignal(logger, [worker.stop, runtime.close]);
  });
