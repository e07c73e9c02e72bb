import type { JobDeclaration } from '../../shared/jobs.js';

export interface AccountHealthMoveJobData {
  accountId: number;
}

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
    purpose: 'New capacity: buyers waiting on a broken account of the platform move, then its waiting orders are tried again',
    servedBy: 'core/src/flows/account-health.flow.ts retryWaiting, core/src/flows/activation.flow.ts activateWaiting',
    options: { retryLimit: 5, retryDelay: 10, retryBackoff: true, expireInSeconds: 300, deleteAfterSeconds: 7 * 24 * 3600 },
  },
  /**
   * `account-health-move`: an account turned broken; its buyers are moved to healthy accounts
   * (flows/account-health.flow.ts). Sent in the transaction that marks it broken; the handler
   * locks the account row, and a move is one row per subscription, so a job run twice, or by two
   * workers at once, moves each buyer once.
   */
  healthMove: {
    name: 'account-health-move',
    purpose: "A broken account's buyers are moved to healthy accounts of its platform",
    servedBy: 'core/src/flows/account-health.flow.ts moveBuyers',
    options: { retryLimit: 5, retryDelay: 10, retryBackoff: true, expireInSeconds: 300, deleteAfterSeconds: 7 * 24 * 3600 },
  },
  /** The watch is IMAP IDLE, one connection per mailbox in the cluster; a waiting buyer is retried because a slot may have freed. */
  healthWatch: {
    name: 'account-health-watch',
    purpose: "Every active account's mailbox stays watched for alert mails; buyers waiting on a broken account are tried again",
    servedBy: 'core/src/flows/account-health.flow.ts keepWatching',
    // A restarted worker watches the mailboxes at once, not at the next scheduled run.
    runAtStart: true,
    options: { policy: 'singleton', retryLimit: 1, retryDelay: 10, expireInSeconds: 120, deleteAfterSeconds: 24 * 3600 },
    schedule: '* * * * *',
  },
} satisfies Record<string, JobDeclaration>;
