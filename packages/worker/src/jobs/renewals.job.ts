/** Automatic renewal (issue 28): the handler only calls core's renewal pass, which is safe to run any number of times. */
import { RENEWAL_QUEUES, RenewalFlow } from '@subshare/core';
import { bindJob } from './job.js';

export const RENEWAL_JOBS = [
  bindJob(RENEWAL_QUEUES.due, async (_job, { container, logger }) => {
    const { charges, ...result } = await container.get(RenewalFlow).renewDue();
    if (charges.length > 0 || result.cardsLearnt > 0) logger.info(result, 'renewal pass');
    return result;
  }),
];
