import { expect } from 'chai';
import type { orders } from '@subshare/core/wire';
import { creditPlan } from '../../packages/web/src/features/checkout/credit.js';

/** An order with just the fields the plan reads. */
const order = (total: number, creditAvailable: number, currencyCode: 'EUR' | 'KRW' = 'EUR', minimumToPay: orders.OrderAnswer['minimumToPay'] = []) => ({
  total,
  creditAvailable,
  currencyCode,
  minimumToPay,
});
/** Card (1), as the Order answer gives Stripe's minimum for EUR. */
const CARD = 1 as const;
const stripeMinimum: orders.OrderAnswer['minimumToPay'] = [{ pmId: CARD, amount: 0.5 }];

/**
 * The payment page's credit plan (issue 37) is the server's rule shown before paying
 * (PaymentCredit's creditToSpend): min(available, total) when ticked, less when that leaves a rest below the
 * method's minimum charge, none when unticked or when the
 * checkout saves a card for automatic renewal; the rest in the currency's minor unit.
 */
describe('web: the payment page’s credit plan', () => {
  it('applies the credit up to the total and leaves the rest to pay, in whole cents', () => {
    expect(creditPlan(order(4.99, 2), true, false, CARD)).to.deep.equal({ offered: true, available: 2, applied: 2, toPay: 2.99, coversAll: false });
    // 4.99 − 4.98 in floating point is 0.010000000000000675: shown and compared as one cent.
    expect(creditPlan(order(4.99, 4.98), true, false, CARD)).to.include({ applied: 4.98, toPay: 0.01, coversAll: false });
  });

  it('covers the whole total when the credit reaches it', () => {
    expect(creditPlan(order(4.99, 100), true, false, CARD)).to.deep.equal({ offered: true, available: 100, applied: 4.99, toPay: 0, coversAll: true });
    expect(creditPlan(order(6900, 6900, 'KRW'), true, false, CARD)).to.include({ applied: 6900, toPay: 0, coversAll: true });
  });

  it('applies nothing when unticked, or when the checkout renews automatically (the renewals spend it)', () => {
    expect(creditPlan(order(4.99, 2), false, false, CARD)).to.include({ offered: true, applied: 0, toPay: 4.99, coversAll: false });
    expect(creditPlan(order(4.99, 100), true, true, CARD)).to.include({ offered: true, applied: 0, toPay: 4.99, coversAll: false });
  });

  it('offers nothing without credit', () => {
    expect(creditPlan(order(6900, 0, 'KRW'), true, false, CARD)).to.deep.equal({ offered: false, available: 0, applied: 0, toPay: 6900, coversAll: false });
  });

  it('leaves the method’s minimum charge to pay rather than a smaller rest', () => {
    // €4.90 on €4.99 would leave €0.09, below Stripe's €0.50: credit pays €4.49.
    expect(creditPlan(order(4.99, 4.9, 'EUR', stripeMinimum), true, false, CARD)).to.deep.equal({
      offered: true,
      available: 4.9,
      applied: 4.49,
      toPay: 0.5,
      coversAll: false,
    });
    // Credit that covers the total still covers it; a rest at or above the minimum is left as it is.
    expect(creditPlan(order(4.99, 4.99, 'EUR', stripeMinimum), true, false, CARD)).to.include({ applied: 4.99, toPay: 0, coversAll: true });
    expect(creditPlan(order(4.99, 4.49, 'EUR', stripeMinimum), true, false, CARD)).to.include({ applied: 4.49, toPay: 0.5 });
    // Another method without a minimum (CoinPal, 2): all the credit.
    expect(creditPlan(order(4.99, 4.9, 'EUR', [...stripeMinimum, { pmId: 2 as const, amount: 0 }]), true, false, 2)).to.include({ applied: 4.9, toPay: 0.09 });
  });
});
