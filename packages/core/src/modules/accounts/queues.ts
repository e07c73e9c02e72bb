import type { QueueDefinition } from '../../shared/jobs.js';

export interface AccountCreatedJobData {
  accountId: number;
  platformId: number;
}

/**
 * `account-created`: an event, sent in the transaction that creates a platform account, so that
 * whoever needs to react to new capacity (activation of waiting orders) does so once the account
 * is committed, from the worker, with retries.
 */
export const ACCOUNT_QUEUES = {
  created: {
    name: 'account-created',
    options: { retryLimit: 5, retryDelay: 10, retryBackoff: true, expireInSeconds: 300, deleteAfterSeconds: 7 * 24 * 3600 },
  },
} satisfies Record<string, QueueDefinition>;
