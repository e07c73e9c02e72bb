import { ContainerModule } from 'inversify';
import type { QueueDefinition } from '../../shared/jobs.js';
import { OperationsService } from './operations.service.js';

export const OPERATIONS = {
  Service: Symbol.for('subshare.operations.OperationsService'),
} as const;

export const OPERATIONS_QUEUES = {
  prune: {
    name: 'operations-prune',
    // Housekeeping: one run at a time, a failed run is simply retried by the next hour's.
    options: { policy: 'singleton', retryLimit: 1, retryDelay: 300, expireInSeconds: 600, deleteAfterSeconds: 24 * 3600 },
    schedule: '17 * * * *',
  },
} satisfies Record<string, QueueDefinition>;

export const operationsModule = new ContainerModule(({ bind }) => {
  bind(OperationsService).toSelf().inSingletonScope();
  bind(OPERATIONS.Service).toService(OperationsService);
});
