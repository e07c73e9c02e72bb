import { expect } from 'chai';
import { add, currencyById, divide, fromMajorUnits, money, multiply, toMajorUnits } from '@subshare/core';

describe('money', () => {
  it('keeps EUR in cents and KRW in whole won', () => {
    expect(toMajorUnits(money(499, 'EUR'))).to.equal(4.99);
    expect(toMajorUnits(money(6900, 'KRW'))).to.equal(6900);
    expect(fromMajorUnits(4.99, 'EUR')).to.deep.equal({ amount: 499, currency: 'EUR' });
    expect(fromMajorUnits(0.1 + 0.2, 'EUR').amount).to.equal(30);
    expect(fromMajorUnits(6900, 'KRW')).to.deep.equal({ amount: 6900, currency: 'KRW' });
  });

  it('refuses fractions of a minor unit', () => {
    expect(() => money(4.5, 'EUR')).to.throw(RangeError);
    expect(() => fromMajorUnits(4.999, 'EUR')).to.throw(RangeError);
    expect(() => fromMajorUnits(6900.5, 'KRW')).to.throw(RangeError);
  });

  it('divides for per-month prices, rounding to the smallest unit', () => {
    expect(divide(money(1599, 'EUR'), 3)).to.deep.equal({ amount: 533, currency: 'EUR' });
    expect(divide(money(20000, 'KRW'), 3)).to.deep.equal({ amount: 6667, currency: 'KRW' });
    expect(() => divide(money(100, 'EUR'), 0)).to.throw(RangeError);
  });

  it('never mixes currencies', () => {
    expect(add(money(100, 'EUR'), money(250, 'EUR')).amount).to.equal(350);
    expect(() => add(money(100, 'EUR'), money(100, 'KRW'))).to.throw(RangeError);
    expect(multiply(money(499, 'EUR'), 3).amount).to.equal(1497);
  });

  it('maps the spec currency ids', () => {
    expect(currencyById(1)).to.equal('EUR');
    expect(currencyById(2)).to.equal('KRW');
    expect(currencyById(3)).to.equal(undefined);
  });
});
