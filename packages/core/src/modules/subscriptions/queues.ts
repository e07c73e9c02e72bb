import type { JobDeclaration } from '../../shared/jobs.js';

export interface ActivateWaitingJobData {
  /** Only the orders of this platform; all waiting orders when absent. */
  platformId?: number;
}

/**
 * `subscriptions-activate-waiting`: retries the orders waiting in state 6, oldest payment first,
 * by queueing their activation jobs. Fed by the accounts module's `account-created` event (new
 * capacity) and by a schedule every 5 minutes, which also catches a capacity change that met an
 * activation job already running for the same order.
 */
export const SUBSCRIPTION_QUEUES = {
  activateWaiting: {
    name: 'subscriptions-activate-waiting',
    purpose: 'Orders waiting for capacity are tried again, oldest payment first',
    servedBy: 'core/src/flows/activation.flow.ts activateWaiting',
    options: { policy: 'singleton', retryLimit: 3, retryDelay: 10, expireInSeconds: 300, deleteAfterSeconds: 24 * 3600 },
    schedule: '*/5 * * * *',
  },
  /** `subscriptions-end-due`: every minute, subscriptions past their end become `ended` (flows/expiry.flow.ts). */
  endDue: {
    name: 'subscriptions-end-due',
    purpose: 'Subscriptions past their end become ended; their buyers are told',
    servedBy: 'core/src/flows/expiry.flow.ts endDue',
    options: { policy: 'singleton', retryLimit: 3, retryDelay: 10, expireInSeconds: 300, deleteAfterSeconds: 24 * 3600 },
    schedule: '* * * * *',
  },
  /** `subscriptions-remind-due`: every 10 minutes, the 3-day expiry reminders. */
  remindDue: {
    name: 'subscriptions-remind-due',
    purpose: 'The reminders before a subscription ends',
    servedBy: 'core/src/flows/expiry.flow.ts remindDue',
    options: { policy: 'singleton', retryLimit: 3, retryDelay: 10, expireInSeconds: 300, deleteAfterSeconds: 24 * 3600 },
    schedule: '*/10 * * * *',
  },
} satisfies Record<string, JobDeclaration>;
