import { expect } from 'chai';
import fc from 'fast-check';
import { orderAccess, paymentStanding, type LedgerEntry } from '../../packages/core/src/modules/payments/money-ledger.js';

/** €4.99 with the default policy's 5 % fee (25 cents): a refund of €4.74 or more is the whole refund. */
const PAYMENT = { amount: 499, fee: 25 };
const paid: LedgerEntry = { kind: 'payment', subject: 'pi_1', status: 'paid', amount: 499 };
const refund = (subject: string, status: string, amount: number): LedgerEntry => ({ kind: 'refund', subject, status, amount });
const dispute = (subject: string, status: string, amount = 499): LedgerEntry => ({ kind: 'dispute', subject, status, amount });

describe('money ledger rules (pure)', () => {
  it('nothing is access before the payment: events wait', () => {
    expect(paymentStanding(PAYMENT, [refund('re_1', 'succeeded', 499)])).to.include({ access: 'unpaid', refunded: 0, refundable: 0, net: 0 });
  });

  it('paid: access, and the policy’s refund is refundable', () => {
    expect(paymentStanding(PAYMENT, [paid])).to.include({ access: 'active', paid: 499, refunded: 0, refundable: 474, net: 499 });
  });

  it('a partial refund keeps access and leaves the rest refundable; reaching the policy’s refund ends it', () => {
    expect(paymentStanding(PAYMENT, [paid, refund('re_1', 'succeeded', 1)])).to.include({ access: 'active', refunded: 1, refundable: 473 });
    expect(paymentStanding(PAYMENT, [paid, refund('re_1', 'succeeded', 1), refund('re_2', 'succeeded', 473)])).to.include({
      access: 'refunded',
      refunded: 474,
      refundable: 0,
      net: 25,
    });
  });

  it('a pending refund gives nothing back but holds its amount; failed, it never counted; failed after succeeded, neither', () => {
    expect(paymentStanding(PAYMENT, [paid, refund('re_1', 'pending', 474)])).to.include({ access: 'active', refunded: 0, pendingRefund: 474, refundable: 0 });
    expect(paymentStanding(PAYMENT, [paid, refund('re_1', 'pending', 474), refund('re_1', 'failed', 474)])).to.include({
      access: 'active',
      refunded: 0,
      refundable: 474,
    });
    expect(paymentStanding(PAYMENT, [paid, refund('re_1', 'failed', 474), refund('re_1', 'succeeded', 474)]).refunded).to.equal(0);
  });

  it('credit given back (a `credit:` refund) counts as refunded, but explains none of a provider’s running total', () => {
    const total = (amount: number): LedgerEntry => ({ kind: 'refund_total', subject: 'ch_1', status: 'succeeded', amount });
    // €2.00 of the payment was credit: it goes back first; Stripe's total then says €2.74 of its own money.
    expect(paymentStanding(PAYMENT, [paid, refund('credit:7', 'succeeded', 200)])).to.include({ access: 'active', refunded: 200, refundable: 274 });
    expect(paymentStanding(PAYMENT, [paid, refund('credit:7', 'succeeded', 200), total(274)])).to.include({ access: 'refunded', refunded: 474 });
    // Stripe's own refund by id and its total are the same money, counted once.
    expect(paymentStanding(PAYMENT, [paid, refund('credit:7', 'succeeded', 200), refund('re_1', 'succeeded', 274), total(274)]).refunded).to.equal(474);
  });

  it('a cumulative total counts what no single refund explains, once', () => {
    const total = (amount: number): LedgerEntry => ({ kind: 'refund_total', subject: 'ch_1', status: 'succeeded', amount });
    expect(paymentStanding(PAYMENT, [paid, total(200)])).to.include({ access: 'active', refunded: 200 });
    expect(paymentStanding(PAYMENT, [paid, total(200), refund('re_1', 'succeeded', 200), total(100)])).to.include({ refunded: 200 });
  });

  it('a dispute suspends; won, access is back; lost, the money is charged back and access ends', () => {
    expect(paymentStanding(PAYMENT, [paid, dispute('dp_1', 'open')])).to.include({ access: 'suspended', openDisputes: 1, refundable: 0 });
    expect(paymentStanding(PAYMENT, [paid, dispute('dp_1', 'won'), dispute('dp_1', 'open')])).to.include({ access: 'active' });
    expect(paymentStanding(PAYMENT, [paid, dispute('dp_1', 'lost'), dispute('dp_1', 'open')])).to.include({ access: 'charged_back', chargedBack: 499, net: 0 });
  });

  it('a chargeback after a partial refund takes back only what was left', () => {
    const chargeback: LedgerEntry = { kind: 'chargeback', subject: 'chargeback', status: 'succeeded', amount: 499 };
    expect(paymentStanding(PAYMENT, [paid, refund('re_1', 'succeeded', 100), chargeback])).to.include({
      access: 'charged_back',
      refunded: 100,
      chargedBack: 399,
      net: 0,
    });
  });

  it('an order has access while any of its payments does', () => {
    const active = paymentStanding(PAYMENT, [paid]);
    const refunded = paymentStanding(PAYMENT, [paid, refund('re_1', 'succeeded', 499)]);
    expect(orderAccess([refunded, active])).to.equal('active');
    expect(orderAccess([refunded])).to.equal('refunded');
    expect(orderAccess([])).to.equal('unpaid');
  });

  it('any order of arrival and any repetition give the same standing (property)', () => {
    const entry = fc.oneof(
      fc.constant(paid),
      fc.record({
        kind: fc.constant('refund' as const),
        subject: fc.constantFrom('re_1', 're_2', 're_3'),
        status: fc.constantFrom('pending', 'succeeded', 'failed'),
        amount: fc.integer({ min: 1, max: 300 }),
      }),
      fc.record({
        kind: fc.constant('refund_total' as const),
        subject: fc.constant('ch_1'),
        status: fc.constant('succeeded'),
        amount: fc.integer({ min: 0, max: 499 }),
      }),
      fc.record({
        kind: fc.constant('dispute' as const),
        subject: fc.constantFrom('dp_1', 'dp_2'),
        status: fc.constantFrom('open', 'won', 'lost'),
        amount: fc.integer({ min: 1, max: 499 }),
      }),
      fc.record({
        kind: fc.constant('chargeback' as const),
        subject: fc.constant('chargeback'),
        status: fc.constant('succeeded'),
        amount: fc.integer({ min: 1, max: 499 }),
      }),
    );
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 12 }), fc.context(), (entries, ctx) => {
        // One fact per (subject, status): a provider states a refund's amount once.
        const facts = [...new Map(entries.map((e) => [`${e.kind}:${e.subject}:${e.status}`, e])).values()].map((e) =>
          e.kind === 'refund' || e.kind === 'dispute'
            ? { ...e, amount: entries.find((other) => other.kind === e.kind && other.subject === e.subject)!.amount }
            : e,
        );
        const expected = paymentStanding(PAYMENT, facts);
        const shuffled = [...facts, ...facts.slice(0, 3)].reverse();
        ctx.log(JSON.stringify(shuffled));
        const got = paymentStanding(PAYMENT, shuffled);
        expect(got).to.deep.equal(expected);
        expect(got.refunded + got.chargedBack).to.be.at.most(got.paid);
        expect(got.refundable).to.be.at.least(0);
      }),
      { seed: 25, numRuns: 500 },
    );
  });
});
