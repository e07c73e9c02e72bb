/** Buyer credit (issue 37): the handler only calls core's write-off, which is keyed per lot and safe to run any number of times. */
import { CREDIT_QUEUES, CreditService } from '@subshare/core';
import { bindJob } from './job.js';

export const CREDIT_JOBS = [bindJob(CREDIT_QUEUES.expire, (_job, { container }) => container.get(CreditService).expireDue())];
