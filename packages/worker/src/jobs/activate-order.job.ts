/**
 * Activation jobs. Every handler only calls the activation flow in core, which re-reads the
 * order by id in its own transaction: safe to run twice, and under any concurrency.
 */
import {
  ACCOUNT_QUEUES,
  FLOWS,
  ORDER_QUEUES,
  SUBSCRIPTION_QUEUES,
  type AccountCreatedJobData,
  type AccountHealthFlow,
  type ActivateOrderJobData,
  type ActivateWaitingJobData,
  type ActivationFlow,
} from '@subshare/core';
import type { JobDefinition } from './job.js';

/** A paid order becomes subscriptions (state 2), or waits in state 6 with its e-mail. */
export const activateOrderJob: JobDefinition<ActivateOrderJobData> = {
  queue: ORDER_QUEUES.activate,
  concurrency: 4,
  batched: true,
  async handle(job, { container }) {
    const { outcome } = await container.get<ActivationFlow>(FLOWS.Activation).activate(job.data.orderId);
    return { outcome };
  },
};

/**
 * A new platform account is capacity: buyers waiting on a broken account of the platform move
 * first (they paid and lost access), then the platform's waiting orders are tried again.
 */
export const accountCreatedJob: JobDefinition<AccountCreatedJobData> = {
  queue: ACCOUNT_QUEUES.created,
  async handle(job, { container }) {
    const moved = await container.get<AccountHealthFlow>(FLOWS.AccountHealth).retryWaiting(job.data.platformId);
    const activated = await container.get<ActivationFlow>(FLOWS.Activation).activateWaiting({ platformId: job.data.platformId });
    return { moved, activated };
  },
};

/** Every 5 minutes: every waiting order is tried again (catches capacity that met a running job). */
export const activateWaitingJob: JobDefinition<ActivateWaitingJobData> = {
  queue: SUBSCRIPTION_QUEUES.activateWaiting,
  async handle(job, { container }) {
    return container.get<ActivationFlow>(FLOWS.Activation).activateWaiting({ platformId: job.data?.platformId });
  },
};
