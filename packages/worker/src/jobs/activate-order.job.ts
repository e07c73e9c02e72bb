/**
 * Activation jobs. Every handler only calls the activation flow in core, which re-reads the
 * order by id in its own transaction: safe to run twice, and under any concurrency.
 */
import {
  ACCOUNT_QUEUES,
  ORDER_QUEUES,
  SUBSCRIPTION_QUEUES,
  type AccountCreatedJobData,
  AccountHealthFlow,
  type ActivateOrderJobData,
  type ActivateWaitingJobData,
  ActivationFlow,
} from '@subshare/core';
import { bindJob } from './job.js';

export const ACTIVATION_JOBS = [
  bindJob<ActivateOrderJobData>(ORDER_QUEUES.activate, async (job, { container }) => {
    const { outcome } = await container.get(ActivationFlow).activate(job.data.orderId);
    return { outcome };
  }),
  // Buyers waiting on a broken account of the platform move first (they paid and lost access).
  bindJob<AccountCreatedJobData>(ACCOUNT_QUEUES.created, async (job, { container }) => {
    const moved = await container.get(AccountHealthFlow).retryWaiting(job.data.platformId);
    const activated = await container.get(ActivationFlow).activateWaiting({ platformId: job.data.platformId });
    return { moved, activated };
  }),
  bindJob<ActivateWaitingJobData>(SUBSCRIPTION_QUEUES.activateWaiting, (job, { container }) =>
    container.get(ActivationFlow).activateWaiting({ platformId: job.data?.platformId }),
  ),
];
