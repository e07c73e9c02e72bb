import { ORDER_QUEUES, ORDERS, type ActivateOrderJobData, type OrdersService } from '@subshare/core';
import type { JobDefinition } from './job.js';

/** A paid order becomes a subscription (or waits for a slot). Safe to run twice: it re-reads the order. */
export const activateOrderJob: JobDefinition<ActivateOrderJobData> = {
  queue: ORDER_QUEUES.activate,
  concurrency: 2,
  async handle(job, { container }) {
    await container.get<OrdersService>(ORDERS.Service).activate(job.data.orderId);
  },
};
