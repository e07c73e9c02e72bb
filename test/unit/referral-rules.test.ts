import { expect } from 'chai';
import { canonicalCode, mailboxOf, monthStartUtc, newReferralCode, REFERRAL_CODE_ALPHABET, REFERRAL_CODE_PATTERN, sameMailbox } from '@subshare/core';

describe('referral rules', () => {
  it('makes codes of 8 unambiguous characters (no 0, O, 1, I, L), all different in a thousand', () => {
    expect(REFERRAL_CODE_ALPHABET).to.not.match(/[0O1IL]/);
    const codes = new Set(Array.from({ length: 1000 }, () => newReferralCode()));
    expect(codes.size).to.equal(1000);
    for (const code of codes) expect(code).to.match(/^[A-HJ-KM-NP-Z2-9]{8}$/);
  });

  it('reads a code in any case, and nothing that cannot be one', () => {
    expect(canonicalCode(' abcd2345 ')).to.equal('ABCD2345');
    expect(canonicalCode('ABCD234O')).to.equal(undefined); // the letter O is never in a code
    expect(canonicalCode('ABCD234')).to.equal(undefined);
    expect(canonicalCode("' or 1=1")).to.equal(undefined);
    expect(canonicalCode(undefined)).to.equal(undefined);
    expect(REFERRAL_CODE_PATTERN.test('abcdefgh')).to.equal(true);
  });

  it('knows one mailbox behind its aliases: case, +tag, and Gmail’s dots and googlemail.com', () => {
    expect(mailboxOf('Ann.Lee+shop@GoogleMail.com')).to.equal('annlee@gmail.com');
    expect(sameMailbox('ann.lee@gmail.com', 'ANNLEE+x@gmail.com')).to.equal(true);
    expect(sameMailbox('ann@example.test', 'Ann+promo@EXAMPLE.test')).to.equal(true);
    // Dots count everywhere but Gmail.
    expect(sameMailbox('ann.lee@example.test', 'annlee@example.test')).to.equal(false);
    expect(sameMailbox('ann@example.test', 'ann@example.org')).to.equal(false);
  });

  it('counts the monthly cap from the first instant of the calendar month in UTC', () => {
    expect(monthStartUtc(new Date('2027-03-31T23:59:59Z')).toISOString()).to.equal('2027-03-01T00:00:00.000Z');
    // 08:00 on 1 April in Seoul is still March in UTC.
    expect(monthStartUtc(new Date('2027-04-01T08:00:00+09:00')).toISOString()).to.equal('2027-03-01T00:00:00.000Z');
  });
});
