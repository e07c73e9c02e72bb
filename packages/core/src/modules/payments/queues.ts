import { UNPAID_ORDER_HOURS } from '../../promises/index.js';
import type { JobDeclaration } from '../../shared/jobs.js';

export const PAYMENT_QUEUES = {
  /** Asks providers about payments left pending, in case a notification was lost. */
  reconcile: {
    name: 'payments-reconcile',
    purpose: 'Asks the providers about payments left pending (a lost notification must not lose a sale)',
    servedBy: 'core/src/flows/payment-notification.flow.ts reconcile',
    options: { policy: 'singleton', retryLimit: 1, expireInSeconds: 600, deleteAfterSeconds: 24 * 3600 },
    schedule: '*/5 * * * *',
  },
  /** Orders unpaid for UNPAID_ORDER_HOURS become "expired unpaid". */
  expireUnpaid: {
    name: 'payments-expire-unpaid',
    purpose: `Orders unpaid for ${UNPAID_ORDER_HOURS} hours become expired unpaid`,
    servedBy: 'core/src/flows/checkout.flow.ts expireUnpaid',
    options: { policy: 'singleton', retryLimit: 1, expireInSeconds: 600, deleteAfterSeconds: 24 * 3600 },
    schedule: '*/15 * * * *',
  },
} satisfies Record<string, JobDeclaration>;
