import type { JobDeclaration } from '../../shared/jobs.js';

export interface ActivateWaitingJobData {
  /** Only the orders of this platform; all waiting orders when absent. */
  platformId?: number;
}

/**
 * `subscriptions-activate-waiting` queues the activation jobs of the orders waiting in state 6. It is
 * sent when capacity frees (a subscription ends, a refund takes access back) and runs on a schedule too,
 * which also catches a capacity change that met an activation job already running for the same order.
 */
export const SUBSCRIPTION_QUEUES = {
  activateWaiting: {
    name: 'subscriptions-activate-waiting',
    purpose: 'Orders waiting for capacity are tried again, oldest payment first',
    servedBy: 'core/src/flows/activation.flow.ts activateWaiting',
    options: { policy: 'singleton', retryLimit: 3, retryDelay: 10, expireInSeconds: 300, deleteAfterSeconds: 24 * 3600 },
    schedule: '*/5 * * * *',
  },
  endDue: {
    name: 'subscriptions-end-due',
    purpose: 'Subscriptions past their end become ended; their buyers are told',
    servedBy: 'core/src/flows/expiry.flow.ts endDue',
    options: { policy: 'singleton', retryLimit: 3, retryDelay: 10, expireInSeconds: 300, deleteAfterSeconds: 24 * 3600 },
    schedule: '* * * * *',
  },
  remindDue: {
    name: 'subscriptions-remind-due',
    purpose: 'The reminders before a subscription ends',
    servedBy: 'core/src/flows/expiry.flow.ts remindDue',
    options: { policy: 'singleton', retryLimit: 3, retryDelay: 10, expireInSeconds: 300, deleteAfterSeconds: 24 * 3600 },
    schedule: '*/10 * * * *',
  },
} satisfies Record<string, JobDeclaration>;
