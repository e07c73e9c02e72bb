/**
 * Account-health jobs (issue 29). Each handler only calls the account-health flow in core, which
 * locks the account and records each move once: safe to run twice, and in several workers.
 */
import { ACCOUNT_QUEUES, AccountHealthFlow, type AccountHealthMoveJobData, MailboxReaderService } from '@subshare/core';
import { bindJob } from './job.js';

export const ACCOUNT_HEALTH_JOBS = [
  bindJob<AccountHealthMoveJobData>(ACCOUNT_QUEUES.healthMove, (job, { container }) => container.get(AccountHealthFlow).moveBuyers(job.data.accountId)),
  bindJob(ACCOUNT_QUEUES.healthWatch, (_job, { container }) => container.get(AccountHealthFlow).keepWatching(container.get(MailboxReaderService))),
];
