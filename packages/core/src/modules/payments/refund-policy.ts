/**
 * The refund policy (spec section 1: "refund within 24 hours with a refund fee"), as arithmetic.
 * The fee is a percentage of what was paid plus a fixed part in the payment's currency, never
 * more than was paid; within the window after payment the buyer gets the rest back, later only
 * when staff override the window. Money stays in integer minor units (cents; KRW has none, so
 * whole won), and the percentage is rounded half up to the unit.
 */
import { money, type Money } from '../../shared/money.js';
import type { AppConfig } from '../../shared/config.js';

export type RefundPolicy = AppConfig['refunds'];

/** What refunding a payment would come to now. */
export interface RefundTerms {
  paid: Money;
  fee: Money;
  /** What goes back: paid less the fee (0 when the fee takes it all). */
  refund: Money;
  /** When the policy's window closes (undefined when the payment time is unknown). */
  windowEndsAt?: Date;
  insideWindow: boolean;
}

/** `percent` of `amount` minor units, rounded half up; exact for any safe integer amount. */
export function percentOf(amount: number, percent: number): number {
  const hundredths = BigInt(Math.round(percent * 100)); // 2.5 % → 250 hundredths of a percent
  return Number((BigInt(amount) * hundredths + 5_000n) / 10_000n);
}

export function refundTerms(policy: RefundPolicy, paid: Money, paidAt: Date | null | undefined, now: Date): RefundTerms {
  const fee = Math.min(paid.amount, percentOf(paid.amount, policy.feePercent) + policy.feeFixedMinor[paid.currency]);
  const windowEndsAt = paidAt ? new Date(paidAt.getTime() + policy.windowHours * 3_600_000) : undefined;
  return {
    paid,
    fee: money(fee, paid.currency),
    refund: money(paid.amount - fee, paid.currency),
    windowEndsAt,
    insideWindow: windowEndsAt !== undefined && now.getTime() <= windowEndsAt.getTime(),
  };
}
