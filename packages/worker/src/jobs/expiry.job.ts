/** Expiry jobs: each handler only calls the expiry flow in core, which is safe to run any number of times. */
import { FLOWS, SUBSCRIPTION_QUEUES, type ExpiryFlow } from '@subshare/core';
import type { JobDefinition } from './job.js';

/** Every minute: subscriptions past their end become `ended`, their buyers are told. */
export const endDueJob: JobDefinition = {
  queue: SUBSCRIPTION_QUEUES.endDue,
  async handle(_job, { container }) {
    return container.get<ExpiryFlow>(FLOWS.Expiry).endDue();
  },
};

/** Every 10 minutes: the reminders 3 days before the end. */
export const remindDueJob: JobDefinition = {
  queue: SUBSCRIPTION_QUEUES.remindDue,
  async handle(_job, { container }) {
    return container.get<ExpiryFlow>(FLOWS.Expiry).remindDue();
  },
};
