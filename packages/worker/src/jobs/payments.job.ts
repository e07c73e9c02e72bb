import { FLOWS, PAYMENT_QUEUES, type CheckoutFlow, type PaymentNotificationFlow } from '@subshare/core';
import type { JobDefinition } from './job.js';

/** Every 5 minutes: ask providers about payments left pending (a lost notification must not lose a sale). */
export const reconcilePaymentsJob: JobDefinition = {
  queue: PAYMENT_QUEUES.reconcile,
  async handle(_job, { container, logger }) {
    const result = await container.get<PaymentNotificationFlow>(FLOWS.PaymentNotification).reconcile();
    if (result.checked > 0) logger.info(result, 'reconciled pending payments');
    return result;
  },
};

/** Every 15 minutes: orders unpaid for a day expire. */
export const expireUnpaidOrdersJob: JobDefinition = {
  queue: PAYMENT_QUEUES.expireUnpaid,
  async handle(_job, { container, logger }) {
    const result = await container.get<CheckoutFlow>(FLOWS.Checkout).expireUnpaid();
    if (result.expired > 0) logger.info(result, 'expired unpaid orders');
    return result;
  },
};
