/**
 * The credit a payment of `total` takes from `available` (minor units, or any one unit: the rule only compares and subtracts): all it can, up to the
 * total, unless that leaves a rest above 0 and below the provider's minimum charge (Stripe refuses
 * €0.09): then less, so the rest is exactly the minimum. Credit that covers the total covers it
 * (no provider is asked). The payment page shows what it will be with this same function (re-exported by
 * @subshare/core/storefront; web features/checkout/credit.ts), from the Order answer's
 * `creditAvailable` and `minimumToPay`. Import-free: the browser loads it.
 */
export function creditToSpend(total: number, available: number, minimumCharge: number): number {
  const spent = Math.min(total, Math.max(0, available));
  const rest = total - spent;
  return rest > 0 && rest < minimumCharge ? Math.max(0, total - minimumCharge) : spent;
}
