import { expect } from 'chai';
import { addMonths, ManualClock } from '@subshare/core';

describe('clock and calendar months', () => {
  it('adds months the way a buyer expects, clamping to the end of a shorter month', () => {
    expect(addMonths(new Date('2027-01-31T10:00:00Z'), 1).toISOString()).to.equal('2027-02-28T10:00:00.000Z');
    expect(addMonths(new Date('2028-01-31T10:00:00Z'), 1).toISOString()).to.equal('2028-02-29T10:00:00.000Z');
    expect(addMonths(new Date('2027-03-15T00:00:00Z'), 12).toISOString()).to.equal('2028-03-15T00:00:00.000Z');
    expect(addMonths(new Date('2027-11-30T00:00:00Z'), 3).toISOString()).to.equal('2028-02-29T00:00:00.000Z');
  });

  it('lets tests drive time', () => {
    const clock = new ManualClock('2027-01-01T00:00:00Z');
    clock.advance(60_000);
    expect(clock.now().toISOString()).to.equal('2027-01-01T00:01:00.000Z');
    clock.set('2030-05-05T00:00:00Z');
    expect(clock.now().getUTCFullYear()).to.equal(2030);
  });
});
