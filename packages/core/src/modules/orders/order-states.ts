/**
 * The only moves between order states (product.md). States move forward: a paid
 * order never goes back to unpaid, and a late "paid" still wins over "failed" or "expired",
 * because the buyer's money has arrived.
 */
import { ORDER_STATE, type OrderState } from '../../wire/enums.js';

/** The states themselves are declared with the wire's other numbered kinds (wire/enums.ts). */
export { ORDER_STATE, type OrderState };

const NEXT: Record<OrderState, OrderState[]> = {
  0: [1, 3, 4, 6],
  1: [3, 4, 6],
  3: [1, 4, 6],
  4: [6],
  6: [2, 5],
  2: [5],
  5: [],
};

export function canMove(from: number, to: OrderState): boolean {
  return (NEXT[from as OrderState] ?? []).includes(to);
}

/** The states an order can move to `to` from. */
export function statesBefore(to: OrderState): OrderState[] {
  return (Object.keys(NEXT).map(Number) as OrderState[]).filter((from) => canMove(from, to));
}

export const PAID_STATES: readonly number[] = [ORDER_STATE.completed, ORDER_STATE.paidNotCompleted, ORDER_STATE.refunded];

/** The states an order can be paid from (a checkout starts only from these). */
export const PAYABLE_STATES: readonly number[] = [ORDER_STATE.created, ORDER_STATE.awaitingPayment, ORDER_STATE.paymentFailed];
