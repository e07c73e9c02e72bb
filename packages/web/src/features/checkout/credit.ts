/**
 * Paying with credit on the payment page (issue 37): what the summary shows and what Pay now asks
 * for, from the order's `creditAvailable` and the buyer's choice. The server decides what it
 * spends (PaymentCredit.wouldSpend: min(available, total)); this is the same rule, shown before.
 */
import type { orders } from '@subshare/core/wire';
// With extensions: the unit tests (test/unit/web-credit-plan.test.ts) load this file under Node.
import { roundToCurrency } from '../catalog/rules.js';

type Order = Pick<orders.OrderAnswer, 'total' | 'creditAvailable' | 'currencyCode'>;

export interface CreditPlan {
  /** The buyer has credit in the order's currency: "Use my credit" is offered. */
  offered: boolean;
  available: number;
  /** What the checkout will take from credit (0 when unticked, or kept for automatic renewals). */
  applied: number;
  /** What the provider will be asked for. */
  toPay: number;
  /** Credit pays it all: no provider, Pay now says "Pay with credit". */
  coversAll: boolean;
}

/**
 * `useCredit`: "Use my credit" ticked. `renewsAutomatically`: "Renew automatically" ticked on a
 * card payment: that checkout saves the card and spends no credit (the renewals spend it first).
 */
export function creditPlan(order: Order, useCredit: boolean, renewsAutomatically: boolean): CreditPlan {
  const available = Math.max(0, order.creditAvailable);
  const applied = useCredit && !renewsAutomatically ? Math.min(available, order.total) : 0;
  const toPay = roundToCurrency(order.total - applied, order.currencyCode);
  return { offered: available > 0, available, applied, toPay, coversAll: applied > 0 && toPay <= 0 };
}
