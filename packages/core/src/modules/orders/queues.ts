import type { JobDeclaration } from '../../shared/jobs.js';

export interface ActivateOrderJobData {
  orderId: number;
}

/**
 * A paid order is handed to activation through this queue, in the same transaction that marks
 * it paid. `exclusive` with the key `order:<id>` keeps at most one waiting or running job per
 * order; the handler re-reads the order and is safe to run twice.
 */
export const ORDER_QUEUES = {
  activate: {
    name: 'order-activate',
    purpose: 'A paid order becomes subscriptions, or waits for capacity with its e-mail',
    servedBy: 'core/src/flows/activation.flow.ts activate',
    concurrency: 4,
    batched: true,
    options: { policy: 'exclusive', retryLimit: 8, retryDelay: 15, retryBackoff: true, expireInSeconds: 120, deadLetter: 'order-activate-dead' },
  },
} satisfies Record<string, JobDeclaration>;

export const activationKey = (orderId: number) => `order:${orderId}`;
