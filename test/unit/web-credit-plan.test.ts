import { expect } from 'chai';
import { creditPlan } from '../../packages/web/src/features/checkout/credit.js';

/** An order with just the fields the plan reads. */
const order = (total: number, creditAvailable: number, currencyCode: 'EUR' | 'KRW' = 'EUR') => ({ total, creditAvailable, currencyCode });

/**
 * The payment page's credit plan (issue 37) is the server's rule shown before paying
 * (PaymentCredit.wouldSpend): min(available, total) when ticked, none when unticked or when the
 * checkout saves a card for automatic renewal; the rest in the currency's minor unit.
 */
describe('web: the payment page’s credit plan', () => {
  it('applies the credit up to the total and leaves the rest to pay, in whole cents', () => {
    expect(creditPlan(order(4.99, 2), true, false)).to.deep.equal({ offered: true, available: 2, applied: 2, toPay: 2.99, coversAll: false });
    // 4.99 − 4.98 in floating point is 0.010000000000000675: shown and compared as one cent.
    expect(creditPlan(order(4.99, 4.98), true, false)).to.include({ applied: 4.98, toPay: 0.01, coversAll: false });
  });

  it('covers the whole total when the credit reaches it', () => {
    expect(creditPlan(order(4.99, 100), true, false)).to.deep.equal({ offered: true, available: 100, applied: 4.99, toPay: 0, coversAll: true });
    expect(creditPlan(order(6900, 6900, 'KRW'), true, false)).to.include({ applied: 6900, toPay: 0, coversAll: true });
  });

  it('applies nothing when unticked, or when the checkout renews automatically (the renewals spend it)', () => {
    expect(creditPlan(order(4.99, 2), false, false)).to.include({ offered: true, applied: 0, toPay: 4.99, coversAll: false });
    expect(creditPlan(order(4.99, 100), true, true)).to.include({ offered: true, applied: 0, toPay: 4.99, coversAll: false });
  });

  it('offers nothing without credit', () => {
    expect(creditPlan(order(6900, 0, 'KRW'), true, false)).to.deep.equal({ offered: false, available: 0, applied: 0, toPay: 6900, coversAll: false });
  });
});
