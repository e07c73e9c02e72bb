import { PAYMENT_QUEUES, CheckoutFlow, PaymentNotificationFlow } from '@subshare/core';
import { bindJob } from './job.js';

export const PAYMENT_JOBS = [
  bindJob(PAYMENT_QUEUES.reconcile, async (_job, { container, logger }) => {
    const result = await container.get(PaymentNotificationFlow).reconcile();
    if (result.checked > 0) logger.info(result, 'reconciled pending payments');
    return result;
  }),
  bindJob(PAYMENT_QUEUES.expireUnpaid, async (_job, { container, logger }) => {
    const result = await container.get(CheckoutFlow).expireUnpaid();
    if (result.expired > 0) logger.info(result, 'expired unpaid orders');
    return result;
  }),
];
