import { OPERATIONS_QUEUES, PruneFlow } from '@subshare/core';
import { bindJob } from './job.js';

export const PRUNE_JOBS = [
  bindJob(OPERATIONS_QUEUES.prune, async (_job, { container, logger }) => {
    const deleted = await container.get(PruneFlow).prune();
    logger.info({ deleted }, 'pruned expired rows');
    return deleted;
  }),
];
