import { expect } from 'chai';
import { api, loginAs, type TestUser } from '../support/agent.js';
import { harness } from '../support/harness.js';

/**
 * Issue 24: reloading /payment posts the same choice to POST /api/order/insert again. The buyer's
 * open order (state 0) for that choice is answered again, also when the reloads race, instead of
 * a new unpaid order each time; another choice, another buyer or an order already sent to a
 * provider gets a new one.
 */
describe('api: a reload of /payment is not a new order', () => {
  let buyer: TestUser;
  const knex = () => harness().knex;
  const choice = { platformId: 1, typeId: 1, durationId: 1, quantity: 1, languageId: 1, currency: 'EUR' };

  async function insert(who: TestUser, body: Record<string, unknown> = choice): Promise<number> {
    const res = await api().post('/api/order/insert').set(who.auth).send(body).expect(200);
    return res.body.id as number;
  }
  const ordersOf = async (who: TestUser) => (await knex()('orders').where({ user_id: who.id }).count<{ count: string }[]>('id as count'))[0]!.count;

  beforeEach(async () => {
    buyer = await loginAs('user');
  });

  it('the same choice twice answers the same order', async () => {
    const first = await insert(buyer);
    expect(await insert(buyer)).to.equal(first);
    expect(Number(await ordersOf(buyer))).to.equal(1);
  });

  it('five reloads at once make one order', async () => {
    const ids = await Promise.all(Array.from({ length: 5 }, () => insert(buyer)));
    expect(new Set(ids).size).to.equal(1);
    expect(Number(await ordersOf(buyer))).to.equal(1);
  });

  it('another choice, another currency or another buyer makes a new order', async () => {
    const first = await insert(buyer);
    const otherDuration = await insert(buyer, { ...choice, durationId: 2 });
    const otherCurrency = await insert(buyer, { ...choice, currency: 'KRW' });
    const stranger = await loginAs('user');
    const theirs = await insert(stranger);
    expect(new Set([first, otherDuration, otherCurrency, theirs]).size).to.equal(4);
  });

  it('an order already sent to a provider, or older than an hour, is not reused', async () => {
    const first = await insert(buyer);
    await api().post('/api/payment/createcheckoutsession').set(buyer.auth).send({ orderId: first }).expect(200);
    const second = await insert(buyer);
    expect(second).to.not.equal(first);
    await knex()('orders')
      .where({ id: second })
      .update({ created_at: knex().raw("now() - interval '2 hours'") });
    expect(await insert(buyer)).to.not.equal(second);
  });
});
