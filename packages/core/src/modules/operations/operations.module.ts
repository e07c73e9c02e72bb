import { ContainerModule } from 'inversify';
import type { JobDeclaration } from '../../shared/jobs.js';
import { OperationsService } from './operations.service.js';

export const OPERATIONS_QUEUES = {
  prune: {
    name: 'operations-prune',
    purpose: 'Deletes rows that can no longer matter: sessions and one-time codes a week past expiry, ended rate-limit windows',
    servedBy: 'core/src/flows/prune.flow.ts prune',
    // Housekeeping: one run at a time, a failed run is simply retried by the next scheduled one.
    options: { policy: 'singleton', retryLimit: 1, retryDelay: 300, expireInSeconds: 600, deleteAfterSeconds: 24 * 3600 },
    schedule: '17 * * * *',
  },
} satisfies Record<string, JobDeclaration>;

export const operationsModule = new ContainerModule(({ bind }) => {
  bind(OperationsService).toSelf().inSingletonScope();
});
