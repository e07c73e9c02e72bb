import { expect } from 'chai';
import { addMonths, createKnex, CreditService, ManualClock, migrateLatest, money, type Knex } from '@subshare/core';
import { CREDIT_MONTHS } from '@subshare/core/promises';
import { harness } from '../support/harness.js';

/**
 * The buyer credit ledger on a real database (modules/credit): keyed rows refuse repeats, the
 * buyer's lock keeps parallel spends from taking more than there is, and the expiry job writes
 * off each lot once.
 */
describe('credit ledger', () => {
  let knex: Knex;
  let clock: ManualClock;
  let credit: CreditService;
  let buyer: number;

  before(async () => {
    knex = createKnex(await harness().db.createDatabase('subshare_credit_ledger'));
    await migrateLatest(knex);
    clock = new ManualClock('2027-01-01T00:00:00Z');
    credit = new CreditService(knex, clock);
  });
  after(async () => knex.destroy());
  beforeEach(async () => {
    clock.set('2027-01-01T00:00:00Z');
    [{ id: buyer }] = await knex('users')
      .insert({ email: `credit-${Date.now()}-${Math.random()}@example.test`, role: 0 })
      .returning('id');
  });

  it('earns once per key, and spends at most what there is, once per key', async () => {
    expect(await knex.transaction((trx) => credit.earn(buyer, money(1000, 'EUR'), { key: `earn:${buyer}` }, trx))).to.equal(true);
    expect(await knex.transaction((trx) => credit.earn(buyer, money(1000, 'EUR'), { key: `earn:${buyer}` }, trx))).to.equal(false);
    const spent = await knex.transaction((trx) => credit.spend(buyer, money(1500, 'EUR'), { key: `spend:${buyer}` }, trx));
    expect(spent).to.deep.equal(money(1000, 'EUR'));
    // The same spend asked again answers what it took, and takes nothing more.
    expect(await knex.transaction((trx) => credit.spend(buyer, money(1500, 'EUR'), { key: `spend:${buyer}` }, trx))).to.deep.equal(money(1000, 'EUR'));
    expect(await credit.available(buyer, 'EUR')).to.deep.equal(money(0, 'EUR'));
    // Another currency is another purse.
    expect(await credit.available(buyer, 'KRW')).to.deep.equal(money(0, 'KRW'));
  });

  it('takes no more than the balance when twenty spends race', async () => {
    await knex.transaction((trx) => credit.earn(buyer, money(5000, 'KRW'), { key: `earn:${buyer}` }, trx));
    const spent = await Promise.all(
      Array.from({ length: 20 }, (_, n) => knex.transaction((trx) => credit.spend(buyer, money(400, 'KRW'), { key: `spend:${buyer}:${n}` }, trx))),
    );
    expect(spent.reduce((sum, taken) => sum + taken.amount, 0)).to.equal(5000);
    expect(await credit.available(buyer, 'KRW')).to.deep.equal(money(0, 'KRW'));
  });

  it(`expires what a lot still holds ${CREDIT_MONTHS} months on, once, and counts it out of what is owed`, async () => {
    await knex.transaction((trx) => credit.earn(buyer, money(1000, 'EUR'), { key: `earn:${buyer}:1` }, trx));
    await knex.transaction((trx) => credit.spend(buyer, money(600, 'EUR'), { key: `spend:${buyer}` }, trx));
    clock.set(addMonths(new Date('2027-01-01T00:00:00Z'), 6));
    await knex.transaction((trx) => credit.giveBack(buyer, 'returned', money(250, 'EUR'), { key: `return:${buyer}` }, trx));
    clock.set(addMonths(new Date('2027-01-01T00:00:00Z'), CREDIT_MONTHS));
    expect(await credit.available(buyer, 'EUR')).to.deep.equal(money(250, 'EUR'));
    expect((await credit.expireDue()).expired).to.be.greaterThan(0);
    expect((await credit.expireDue()).expired).to.equal(0);
    const written = await knex('credit_entries').where({ user_id: buyer, kind: 'expired' });
    expect(written.map((row) => Number(row.amount_minor))).to.deep.equal([400]);
    expect(await credit.available(buyer, 'EUR')).to.deep.equal(money(250, 'EUR'));
    const [balance] = await credit.balances(buyer);
    expect(balance).to.deep.equal({ currency: 'EUR', available: money(250, 'EUR'), earned: money(1000, 'EUR') });
  });

  it('refuses a credit row the database rules out', async () => {
    const refusal = (row: object) =>
      knex('credit_entries')
        .insert({ user_id: buyer, currency: 'EUR', entry_key: `bad:${buyer}:${Math.random()}`, created_at: new Date(), ...row })
        .then(
          () => 'written',
          (error: Error) => error.message,
        );
    expect(await refusal({ kind: 'spent', amount_minor: -1 })).to.match(/credit_entries_amount_check/);
    expect(await refusal({ kind: 'earned', amount_minor: 5 })).to.match(/credit_entries_lot_expiry_check/);
    expect(await refusal({ kind: 'spent', amount_minor: 5, expires_at: new Date() })).to.match(/credit_entries_lot_expiry_check/);
  });
});
