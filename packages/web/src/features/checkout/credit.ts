/**
 * Paying with credit on the payment page (issue 37): what the summary shows and what Pay now asks
 * for, from the order's `creditAvailable` and `minimumToPay` and the buyer's choice. The server
 * decides what it spends with `creditToSpend` (min(available, total), less when that would leave a
 * rest below the method's minimum charge, which the Order answer carries); this page calls the
 * same function to show it before.
 */
import { creditToSpend } from '@subshare/core/storefront';
import type { orders } from '@subshare/core/wire';
// With extensions: the unit tests (test/unit/web-credit-plan.test.ts) load this file under Node.
import { roundToCurrency } from '../catalog/rules.js';

type Order = Pick<orders.OrderAnswer, 'total' | 'creditAvailable' | 'currencyCode' | 'minimumToPay'>;

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
 * `method`: the payment method chosen (its provider's minimum charge applies).
 */
export function creditPlan(order: Order, useCredit: boolean, renewsAutomatically: boolean, method: number | null): CreditPlan {
  const available = Math.max(0, order.creditAvailable);
  const minimum = order.minimumToPay.find((entry) => entry.pmId === method)?.amount ?? 0;
  // The server's rule itself, in major units (it only compares and subtracts), rounded to the currency.
  const spendable = roundToCurrency(creditToSpend(order.total, available, minimum), order.currencyCode);
  const applied = useCredit && !renewsAutomatically ? spendable : 0;
  const toPay = roundToCurrency(order.total - applied, order.currencyCode);
  return { offered: available > 0, available, applied, toPay, coversAll: applied > 0 && toPay <= 0 };
}
