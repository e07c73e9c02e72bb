import { expect } from 'chai';
import { creditStanding, type CreditRow } from '@subshare/core';

const day = (n: number) => new Date(Date.UTC(2027, 0, 1) + n * 86_400_000);
const lot = (id: number, amount: number, expiresDay: number, kind: CreditRow['kind'] = 'earned'): CreditRow => ({
  id,
  kind,
  amount,
  expiresAt: day(expiresDay),
});
const debit = (id: number, amount: number, kind: 'spent' | 'expired' = 'spent', writesOffLot?: number): CreditRow => ({
  id,
  kind,
  amount,
  expiresAt: null,
  writesOffLot,
});

/** The buyer credit ledger's rules (modules/credit/credit-rules.ts): spending draws the lot that expires first. */
describe('credit rules', () => {
  it('adds lots and takes debits away', () => {
    expect(creditStanding([lot(1, 1000, 300), lot(2, 500, 310, 'returned'), debit(3, 300)], day(0))).to.deep.equal({ available: 1200, due: [], earned: 1000 });
  });

  it('writes off what an expired lot still holds, after spending drew from it first', () => {
    // 1,000 earned (expires day 100), 700 spent, 500 more earned (expires day 200): at day 150 the first lot holds 300.
    const rows = [lot(1, 1000, 100), debit(2, 700), lot(3, 500, 200)];
    expect(creditStanding(rows, day(150))).to.deep.equal({ available: 500, due: [{ lotId: 1, amount: 300 }], earned: 1500 });
    // Once written off, nothing more is due and the later lot is whole.
    expect(creditStanding([...rows, debit(4, 300, 'expired', 1)], day(150))).to.deep.equal({ available: 500, due: [], earned: 1500 });
  });

  it('writes off a lot wholly spent with 0 (settled once), and never more than it held', () => {
    const rows = [lot(1, 400, 100), debit(2, 400), lot(3, 600, 200)];
    expect(creditStanding(rows, day(120)).due).to.deep.equal([{ lotId: 1, amount: 0 }]);
    expect(creditStanding(rows, day(120)).available).to.equal(600);
  });

  it('lets nothing be spent from lots past their expiry, whether or not the job ran', () => {
    expect(creditStanding([lot(1, 900, 10)], day(10)).available).to.equal(0);
    expect(creditStanding([lot(1, 900, 10)], day(9)).available).to.equal(900);
  });

  it('does not depend on the order the rows are read in', () => {
    const rows = [lot(1, 1000, 100), debit(2, 700), lot(3, 500, 200), lot(4, 250, 250, 'released'), debit(5, 100)];
    const expected = creditStanding(rows, day(160));
    for (let round = 0; round < 20; round += 1) {
      const shuffled = [...rows].sort(() => Math.random() - 0.5);
      expect(creditStanding(shuffled, day(160))).to.deep.equal(expected);
    }
    expect(expected).to.deep.equal({ available: 750, due: [{ lotId: 1, amount: 200 }], earned: 1500 });
  });
});
