import { FLOWS, OPERATIONS_QUEUES, type PruneFlow } from '@subshare/core';
import type { JobDefinition } from './job.js';

export const pruneJob: JobDefinition = {
  queue: OPERATIONS_QUEUES.prune,
  async handle(_job, { container, logger }) {
    const deleted = await container.get<PruneFlow>(FLOWS.Prune).prune();
    logger.info({ deleted }, 'pruned expired rows');
    return deleted;
  },
};
