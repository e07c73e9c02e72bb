/** Automatic renewal (issue 28): the handler only calls core's renewal pass, which is safe to run any number of times. */
import { FLOWS, RENEWAL_QUEUES, type RenewalFlow } from '@subshare/core';
import type { JobDefinition } from './job.js';

/** Every 10 minutes: learn saved cards, charge the periods due (first tries and dunning retries), follow up on buyers. */
export const renewDueJob: JobDefinition = {
  queue: RENEWAL_QUEUES.due,
  async handle(_job, { container, logger }) {
    const { charges, ...result } = await container.get<RenewalFlow>(FLOWS.Renewal).renewDue();
    if (charges.length > 0 || result.cardsLearnt > 0) logger.info(result, 'renewal pass');
    return result;
  },
};
