import type { QueueDefinition } from '../../shared/jobs.js';

export const PAYMENT_QUEUES = {
  /** Asks providers about payments left pending, in case a notification was lost. */
  reconcile: {
    name: 'payments-reconcile',
    options: { policy: 'singleton', retryLimit: 1, expireInSeconds: 600, deleteAfterSeconds: 24 * 3600 },
    schedule: '*/5 * * * *',
  },
  /** Orders unpaid for 24 hours become "expired unpaid". */
  expireUnpaid: {
    name: 'payments-expire-unpaid',
    options: { policy: 'singleton', retryLimit: 1, expireInSeconds: 600, deleteAfterSeconds: 24 * 3600 },
    schedule: '*/15 * * * *',
  },
} satisfies Record<string, QueueDefinition>;
