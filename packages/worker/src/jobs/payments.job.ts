import { FLOWS, PAYMENT_QUEUES, type CheckoutFlow, type PaymentNotificationFlow } from '@subshare/core';
import { bindJob } from './job.js';

export const PAYMENT_JOBS = [
  bindJob(PAYMENT_QUEUES.reconcile, async (_job, { container, logger }) => {
    const result = await container.get<PaymentNotificationFlow>(FLOWS.PaymentNotification).reconcile();
    if (result.checked > 0) logger.info(result, 'reconciled pending payments');
    return result;
  }),
  bindJob(PAYMENT_QUEUES.expireUnpaid, async (_job, { container, logger }) => {
    const result = await container.get<CheckoutFlow>(FLOWS.Checkout).expireUnpaid();
    if (result.expired > 0) logger.info(result, 'expired unpaid orders');
    return result;
  }),
];
