/** Expiry jobs: each handler only calls the expiry flow in core, which is safe to run any number of times. */
import { SUBSCRIPTION_QUEUES, ExpiryFlow } from '@subshare/core';
import { bindJob } from './job.js';

export const EXPIRY_JOBS = [
  bindJob(SUBSCRIPTION_QUEUES.endDue, (_job, { container }) => container.get(ExpiryFlow).endDue()),
  bindJob(SUBSCRIPTION_QUEUES.remindDue, (_job, { container }) => container.get(ExpiryFlow).remindDue()),
];
