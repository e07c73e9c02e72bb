import { OPERATIONS, OPERATIONS_QUEUES, type OperationsService } from '@subshare/core';
import type { JobDefinition } from './job.js';

export const pruneJob: JobDefinition = {
  queue: OPERATIONS_QUEUES.prune,
  async handle(_job, { container, logger }) {
    const deleted = await container.get<OperationsService>(OPERATIONS.Service).prune();
    logger.info({ deleted }, 'pruned expired rows');
    return deleted;
  },
};
