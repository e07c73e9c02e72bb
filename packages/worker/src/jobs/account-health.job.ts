/**
 * Account-health jobs (issue 29). Each handler only calls the account-health flow in core, which
 * locks the account and records each move once: safe to run twice, and in several workers.
 */
import { ACCOUNT_QUEUES, FLOWS, MAILBOXES, type AccountHealthFlow, type AccountHealthMoveJobData, type MailboxReaderService } from '@subshare/core';
import type { JobDefinition } from './job.js';

/** An account turned broken: its buyers are moved to healthy accounts of its platform. */
export const accountHealthMoveJob: JobDefinition<AccountHealthMoveJobData> = {
  queue: ACCOUNT_QUEUES.healthMove,
  async handle(job, { container }) {
    return container.get<AccountHealthFlow>(FLOWS.AccountHealth).moveBuyers(job.data.accountId);
  },
};

/** Every minute: every account's mailbox stays watched for alert mails; waiting buyers are tried again. */
export const accountHealthWatchJob: JobDefinition = {
  queue: ACCOUNT_QUEUES.healthWatch,
  // A restarted worker watches the mailboxes at once, not at the next minute.
  runAtStart: true,
  async handle(_job, { container }) {
    return container.get<AccountHealthFlow>(FLOWS.AccountHealth).keepWatching(container.get<MailboxReaderService>(MAILBOXES.Reader));
  },
};
