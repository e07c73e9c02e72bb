import { deliverCodeEmailJob, deliverEmailJob, emailDeadLetterJob, sweepEmailJob } from './deliver-email.job.js';
import { accountHealthMoveJob, accountHealthWatchJob } from './account-health.job.js';
import { accountCreatedJob, activateOrderJob, activateWaitingJob } from './activate-order.job.js';
import { endDueJob, remindDueJob } from './expiry.job.js';
import type { JobDefinition } from './job.js';
import { expireUnpaidOrdersJob, reconcilePaymentsJob } from './payments.job.js';
import { pruneJob } from './prune.job.js';
import { renewDueJob } from './renewals.job.js';

/** Every job this worker runs. Adding a job: write its file, list it here. */
export const JOBS: JobDefinition[] = [
  pruneJob,
  deliverEmailJob,
  deliverCodeEmailJob,
  emailDeadLetterJob,
  sweepEmailJob,
  activateOrderJob,
  accountCreatedJob,
  activateWaitingJob,
  endDueJob,
  remindDueJob,
  reconcilePaymentsJob,
  expireUnpaidOrdersJob,
  accountHealthMoveJob,
  accountHealthWatchJob,
  renewDueJob,
];
