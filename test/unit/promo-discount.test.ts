import { expect } from 'chai';
import { discountFor, money, normalizeCode, type OrderFacts, type PromoTerms } from '@subshare/core';

const NOW = new Date('2026-12-20T12:00:00Z');
const terms = (over: Partial<PromoTerms> = {}): PromoTerms => ({
  active: true,
  percentOff: 10,
  amounts: {},
  startsAt: null,
  endsAt: null,
  totalLimit: null,
  perBuyerLimit: null,
  firstOrderOnly: false,
  platformIds: null,
  durationIds: null,
  redeemed: 0,
  ...over,
});
const order = (over: Partial<OrderFacts> = {}): OrderFacts => ({
  subtotal: money(499, 'EUR'),
  items: [{ platformId: 7, durationId: 1 }],
  buyerRedemptions: 0,
  buyerHasPaidOrder: false,
  now: NOW,
  ...over,
});

/** The discount rule of promotion codes (issue 37): pure, so every reason and boundary is checked here. */
describe('promotion codes: the discount rule', () => {
  it('takes a percentage off the subtotal, half up, in the order currency', () => {
    expect(discountFor(terms({ percentOff: 10 }), order())).to.deep.equal({ discount: money(50, 'EUR') }); // 49.9 → 50
    expect(discountFor(terms({ percentOff: 15 }), order({ subtotal: money(6900, 'KRW') }))).to.deep.equal({ discount: money(1035, 'KRW') });
  });

  it('takes a fixed amount in the order currency, and refuses a currency it has no amount for', () => {
    const fixed = terms({ percentOff: null, amounts: { EUR: 100, KRW: 1000 } });
    expect(discountFor(fixed, order())).to.deep.equal({ discount: money(100, 'EUR') });
    expect(discountFor(fixed, order({ subtotal: money(6900, 'KRW') }))).to.deep.equal({ discount: money(1000, 'KRW') });
    expect(discountFor(terms({ percentOff: null, amounts: { EUR: 100 } }), order({ subtotal: money(6900, 'KRW') }))).to.deep.equal({
      refused: 'promo_not_for_this',
    });
  });

  it('never makes an order free: at most the subtotal less one minor unit', () => {
    expect(discountFor(terms({ percentOff: null, amounts: { EUR: 10_000 } }), order())).to.deep.equal({ discount: money(498, 'EUR') });
    expect(discountFor(terms({ percentOff: 99 }), order({ subtotal: money(100, 'KRW') }))).to.deep.equal({ discount: money(99, 'KRW') });
    expect(discountFor(terms({ percentOff: 99 }), order({ subtotal: money(1, 'KRW') }))).to.deep.equal({ refused: 'promo_not_for_this' });
  });

  it('answers unknown for an inactive or not-yet-started code, expired once its window ended', () => {
    expect(discountFor(terms({ active: false }), order())).to.deep.equal({ refused: 'promo_unknown' });
    expect(discountFor(terms({ startsAt: new Date(NOW.getTime() + 1) }), order())).to.deep.equal({ refused: 'promo_unknown' });
    expect(discountFor(terms({ startsAt: NOW }), order())).to.have.property('discount');
    expect(discountFor(terms({ endsAt: new Date(NOW.getTime() + 1) }), order())).to.have.property('discount');
    expect(discountFor(terms({ endsAt: NOW }), order())).to.deep.equal({ refused: 'promo_expired' });
  });

  it('holds the total and per-buyer limits', () => {
    expect(discountFor(terms({ totalLimit: 10, redeemed: 9 }), order())).to.have.property('discount');
    expect(discountFor(terms({ totalLimit: 10, redeemed: 10 }), order())).to.deep.equal({ refused: 'promo_used_up' });
    expect(discountFor(terms({ perBuyerLimit: 2 }), order({ buyerRedemptions: 1 }))).to.have.property('discount');
    expect(discountFor(terms({ perBuyerLimit: 2 }), order({ buyerRedemptions: 2 }))).to.deep.equal({ refused: 'promo_already_used' });
  });

  it('first order only: refused once the buyer has a paid order', () => {
    expect(discountFor(terms({ firstOrderOnly: true }), order())).to.have.property('discount');
    expect(discountFor(terms({ firstOrderOnly: true }), order({ buyerHasPaidOrder: true }))).to.deep.equal({ refused: 'promo_first_order_only' });
    expect(discountFor(terms(), order({ buyerHasPaidOrder: true }))).to.have.property('discount');
  });

  it('some platforms or durations only: every item must be one of them', () => {
    expect(discountFor(terms({ platformIds: [7, 8] }), order())).to.have.property('discount');
    expect(discountFor(terms({ platformIds: [8] }), order())).to.deep.equal({ refused: 'promo_not_for_this' });
    expect(discountFor(terms({ durationIds: [1] }), order())).to.have.property('discount');
    expect(discountFor(terms({ durationIds: [3] }), order())).to.deep.equal({ refused: 'promo_not_for_this' });
    const twoItems = order({
      items: [
        { platformId: 7, durationId: 1 },
        { platformId: 9, durationId: 1 },
      ],
    });
    expect(discountFor(terms({ platformIds: [7] }), twoItems)).to.deep.equal({ refused: 'promo_not_for_this' });
  });

  it('codes are case-insensitive: kept upper case, spaces around dropped', () => {
    expect(normalizeCode('  launch-10 ')).to.equal('LAUNCH-10');
  });
});
