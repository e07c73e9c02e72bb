import { expect } from 'chai';
import { CheckoutFlow, CreditService, money } from '@subshare/core';
import { api, loginAs, type TestUser } from '../support/agent.js';
import { harness } from '../support/harness.js';
import { createPlatform, markPaid, type TestPlatform } from '../support/shop.js';

/**
 * Promotion codes (issue 37, items 1 and 2) through the real HTTP API: staff run codes (admin
 * only, audited), buyers apply them to unpaid orders, the discounted total is what the (demo)
 * provider is asked for, each refusal has its own code, one code per order, 50 buyers racing for
 * 10 redemptions get exactly 10, and unknown codes are rate-limited.
 */
describe('promotion codes', function () {
  this.timeout(120_000);
  const knex = () => harness().knex;
  let admin: TestUser;
  let platform: TestPlatform;
  let other: TestPlatform;
  let serial = 0;
  /** A code name no other test uses. */
  const codeName = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(serial += 1)}`.toUpperCase();

  before(async () => {
    admin = await loginAs('admin');
    platform = await createPlatform({ slotsCount: 10 });
    other = await createPlatform();
  });

  const createCode = async (body: Record<string, unknown>) => {
    const res = await api().post('/api/promo/create').set(admin.auth).send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body;
  };
  const placeOrder = (buyer: TestUser, extra: Record<string, unknown> = {}) =>
    api()
      .post('/api/order/insert')
      .set(buyer.auth)
      .send({ platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId, languageId: 1, currency: 'EUR', ...extra });
  const apply = (buyer: TestUser, orderId: number, code: string, ip?: string) =>
    api(undefined, ip).post('/api/order/applypromo').set(buyer.auth).send({ orderId, code });
  /** A new order of the buyer's (in KRW: another order than the open EUR one a reload would reuse). */
  const newOrderId = async (buyer: TestUser, currency: 'EUR' | 'KRW' = 'EUR') => (await placeOrder(buyer, { currency }).expect(200)).body.id as number;
  /** Opens a demo checkout of the order: its URL's token. */
  const openCheckout = async (buyer: TestUser, orderId: number) => {
    const { body } = await api().post('/api/payment/createcheckoutsession').set(buyer.auth).send({ orderId }).expect(200);
    return decodeURIComponent(new URL(body.url).pathname.split('/').pop()!);
  };
  /** Pays the order through the demo provider, as the buyer would. */
  const payWithDemo = async (buyer: TestUser, orderId: number) => {
    await api()
      .post('/api/webhook/demo')
      .type('form')
      .send({ token: await openCheckout(buyer, orderId), outcome: 'paid' })
      .expect(303);
  };
  const orderRowOf = (id: number) => knex()('orders').where({ id }).first();
  const liveRedemptions = (promoCodeId: number) => knex()('promo_redemptions').where({ promo_code_id: promoCodeId }).whereNull('released_at');

  describe('staff', () => {
    it('create, change, deactivate and list codes; every change is in the audit log', async () => {
      const code = codeName('launch');
      const created = await createCode({ code: code.toLowerCase(), percentOff: 20, totalLimit: 100, note: 'Launch week' });
      expect(created).to.include({ code, active: true, percentOff: 20, totalLimit: 100, perBuyerLimit: 1, firstOrderOnly: false, redeemed: 0 });
      expect(created.amounts).to.deep.equal([]);

      const taken = await api().post('/api/promo/create').set(admin.auth).send({ code, percentOff: 5 }).expect(409);
      expect(taken.body.code).to.equal('promo_code_taken');

      const changed = (
        await api()
          .post('/api/promo/update')
          .set(admin.auth)
          .send({ id: created.id, amounts: { EUR: 1.5, KRW: 2000 }, platformIds: [platform.id] })
          .expect(200)
      ).body;
      expect(changed.percentOff).to.equal(null);
      expect(changed.amounts).to.deep.equal([
        { currencyCode: 'EUR', amount: 1.5 },
        { currencyCode: 'KRW', amount: 2000 },
      ]);
      expect(changed.platformIds).to.deep.equal([platform.id]);

      const off = (await api().post('/api/promo/update').set(admin.auth).send({ id: created.id, active: false }).expect(200)).body;
      expect(off.active).to.equal(false);

      const listed = (await api().get('/api/promo/list').set(admin.auth).expect(200)).body as Array<{ id: number; active: boolean }>;
      expect(listed.find((entry) => entry.id === created.id)).to.include({ active: false });

      const audit = await knex()('audit_log')
        .where({ target_type: 'promo_code', target_id: String(created.id) })
        .orderBy('id')
        .pluck('action');
      expect(audit).to.deep.equal(['promo.create', 'promo.update', 'promo.update']);

      // "false" as text is not false: a deactivation must say so as a boolean.
      const textual = await api().post('/api/promo/update').set(admin.auth).send({ id: created.id, active: 'false' }).expect(400);
      expect(textual.body.code).to.equal('validation');
      const missing = await api().post('/api/promo/update').set(admin.auth).send({ id: 2_000_000_000, active: false }).expect(404);
      expect(missing.body.code).to.equal('promo_not_found');
    });

    it('a buyer (or a moderator) may not create, change or list codes', async () => {
      for (const role of ['user', 'moderator'] as const) {
        const someone = await loginAs(role);
        await api()
          .post('/api/promo/create')
          .set(someone.auth)
          .send({ code: codeName('nope'), percentOff: 50 })
          .expect(403);
        await api().post('/api/promo/update').set(someone.auth).send({ id: 1, active: false }).expect(403);
        await api().get('/api/promo/list').set(someone.auth).expect(403);
      }
    });

    it('refuses wrong types, prototype keys and contradictory terms with 400', async () => {
      const bad: unknown[] = [
        { code: 'ab', percentOff: 10 },
        { code: 'has space', percentOff: 10 },
        { code: codeName('x'), percentOff: 'ten' },
        { code: codeName('x'), percentOff: 100 },
        { code: codeName('x'), percentOff: 10, amounts: { EUR: 1 } },
        { code: codeName('x') },
        { code: codeName('x'), amounts: { KRW: 10.5 } },
        { code: { $ne: '' }, percentOff: 10 },
        { code: [codeName('x')], percentOff: 10 },
        { code: codeName('x'), percentOff: 10, totalLimit: 0 },
        { code: codeName('x'), percentOff: 10, startsAt: '2026-12-31T00:00:00Z', endsAt: '2026-12-01T00:00:00Z' },
        { code: codeName('x'), percentOff: 10, platformIds: 'all' },
        // Yes or no is a boolean, not the text of one (as `useCredit` and `renewAutomatically`).
        { code: codeName('x'), percentOff: 10, firstOrderOnly: 'false' },
      ];
      for (const body of bad) {
        const res = await api()
          .post('/api/promo/create')
          .set(admin.auth)
          .send(body as object);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.code).to.be.oneOf(['validation', 'forbidden_key']);
      }
      const proto = await api()
        .post('/api/promo/create')
        .set(admin.auth)
        .set('Content-Type', 'application/json')
        .send(`{"__proto__":{"active":true},"code":"${codeName('proto')}","percentOff":10}`);
      expect(proto.status).to.equal(400);
      expect(({} as Record<string, unknown>).active).to.equal(undefined);
    });
  });

  describe('a buyer', () => {
    it('applies a code (any case) and pays the discounted total through the demo provider', async () => {
      const code = codeName('pay');
      await createCode({ code, percentOff: 10 });
      const buyer = await loginAs('user');
      const orderId = await newOrderId(buyer);
      const applied = (await apply(buyer, orderId, `  ${code.toLowerCase()} `).expect(200)).body;
      // 4.99 − 10 % (0.499, half up 0.50) = 4.49
      expect(applied).to.include({ subtotal: 4.99, discount: 0.5, discountSource: 'code', promoCode: code, total: 4.49, toPay: 4.49, creditApplied: 0 });

      const { body } = await api().post('/api/payment/createcheckoutsession').set(buyer.auth).send({ orderId }).expect(200);
      const token = decodeURIComponent(new URL(body.url).pathname.split('/').pop()!);
      await api().post('/api/webhook/demo').type('form').send({ token, outcome: 'paid' }).expect(303);
      const payments = await knex()('payments').where({ order_id: orderId });
      expect(payments.map((payment) => [payment.status, payment.amount_minor])).to.deep.equal([['paid', 449]]);
      const read = (await api().get('/api/order/getorder').query({ id: orderId }).set(buyer.auth).expect(200)).body;
      expect(read).to.include({ total: 4.49, subtotal: 4.99, discount: 0.5, promoCode: code });
      expect(read.state).to.be.oneOf([2, 6]);

      const listed = (await api().get('/api/promo/list').set(admin.auth).expect(200)).body.find((entry: { code: string }) => entry.code === code);
      expect(listed).to.include({ redeemed: 1, paidRedemptions: 1 });
      expect(listed.granted).to.deep.equal([{ currencyCode: 'EUR', amount: 0.5 }]);
      // A paid order's code cannot change.
      expect((await apply(buyer, orderId, code)).body.code).to.equal('order_not_payable');
    });

    it('gives a code with the order, and a refused code refuses the order with its reason', async () => {
      const code = codeName('insert');
      await createCode({ code, percentOff: null, amounts: { EUR: 1 } });
      const buyer = await loginAs('user');
      const made = (await placeOrder(buyer, { promoCode: code.toLowerCase() }).expect(200)).body;
      expect(made).to.include({ subtotal: 4.99, discount: 1, total: 3.99, promoCode: code });
      // The payment page loads again with the same code: the same order, unchanged.
      const again = (await placeOrder(buyer, { promoCode: code }).expect(200)).body;
      expect(again).to.include({ id: made.id, total: 3.99 });

      const stranger = await loginAs('user');
      const before = await knex()('orders').where({ user_id: stranger.id }).count<Array<{ count: string }>>('id as count');
      const refused = await placeOrder(stranger, { promoCode: 'NO-SUCH-CODE' }).expect(404);
      expect(refused.body.code).to.equal('promo_unknown');
      expect(await knex()('orders').where({ user_id: stranger.id }).count<Array<{ count: string }>>('id as count')).to.deep.equal(before);
    });

    it('one code per order: the same code again changes nothing, another is refused', async () => {
      const first = codeName('one');
      const second = codeName('two');
      await createCode({ code: first, percentOff: 10 });
      await createCode({ code: second, percentOff: 50 });
      const buyer = await loginAs('user');
      const orderId = await newOrderId(buyer);
      await apply(buyer, orderId, first).expect(200);
      expect((await apply(buyer, orderId, first).expect(200)).body).to.include({ promoCode: first, total: 4.49 });
      const refused = await apply(buyer, orderId, second).expect(409);
      expect(refused.body.code).to.equal('promo_one_per_order');
      expect(await knex()('promo_redemptions').where({ order_id: orderId }).count<Array<{ count: number }>>('id as count')).to.deep.equal([{ count: 1 }]);
    });

    it('is told each reason a code is refused', async () => {
      const now = harness().clock.now().getTime();
      const soon = codeName('soon');
      const later = codeName('later');
      const off = codeName('off');
      const used = codeName('used');
      const elsewhere = codeName('elsewhere');
      const first = codeName('first');
      const once = codeName('once');
      const krwOnly = codeName('krw');
      await createCode({ code: soon, percentOff: 10, endsAt: new Date(now + 60_000).toISOString() });
      await createCode({ code: later, percentOff: 10, startsAt: new Date(now + 86_400_000).toISOString() });
      const offCode = await createCode({ code: off, percentOff: 10 });
      await api().post('/api/promo/update').set(admin.auth).send({ id: offCode.id, active: false }).expect(200);
      await createCode({ code: used, percentOff: 10, totalLimit: 1 });
      await createCode({ code: elsewhere, percentOff: 10, platformIds: [other.id] });
      await createCode({ code: first, percentOff: 10, firstOrderOnly: true });
      await createCode({ code: once, percentOff: 10, perBuyerLimit: 1 });
      await createCode({ code: krwOnly, amounts: { KRW: 1000 } });

      const buyer = await loginAs('user');
      const orderId = await newOrderId(buyer);
      const refusal = async (code: string, status: number) => {
        const res = await apply(buyer, orderId, code);
        expect(res.status, code).to.equal(status);
        return res.body.code;
      };
      expect(await refusal('NEVER-MADE', 404)).to.equal('promo_unknown');
      expect(await refusal(later, 404)).to.equal('promo_unknown'); // not started yet: no oracle
      expect(await refusal(off, 404)).to.equal('promo_unknown'); // deactivated
      expect(await refusal(elsewhere, 409)).to.equal('promo_not_for_this');
      expect(await refusal(krwOnly, 409)).to.equal('promo_not_for_this');

      const someoneElse = await loginAs('user');
      await apply(someoneElse, await newOrderId(someoneElse), used).expect(200);
      expect(await refusal(used, 409)).to.equal('promo_used_up');

      // Used on a paid order: already used (a code on an unpaid order moves instead, below).
      const usedOrder = await newOrderId(buyer, 'KRW');
      await apply(buyer, usedOrder, once).expect(200);
      await payWithDemo(buyer, usedOrder);
      expect(await refusal(once, 409)).to.equal('promo_already_used');

      const veteran = await loginAs('user');
      await markPaid(await newOrderId(veteran, 'KRW'));
      const veteranRes = await apply(veteran, await newOrderId(veteran), first).expect(409);
      expect(veteranRes.body.code).to.equal('promo_first_order_only');

      harness().clock.advance(120_000);
      expect(await refusal(soon, 409)).to.equal('promo_expired');
      // Refusals changed nothing on the order.
      expect(await knex()('orders').where({ id: orderId }).first()).to.include({ total_minor: 499, discount_minor: 0, promo_code: null });
    });

    it("replaces a referred buyer's welcome discount", async () => {
      const code = codeName('instead');
      await createCode({ code, percentOff: 20 });
      const buyer = await loginAs('user');
      const orderId = await newOrderId(buyer);
      // The welcome discount as the referral part records it: 10 % of 4.99.
      await knex()('orders').where({ id: orderId }).update({ discount_minor: 50, discount_source: 'welcome', total_minor: 449 });
      expect((await api().get('/api/order/getorder').query({ id: orderId }).set(buyer.auth).expect(200)).body).to.include({
        discount: 0.5,
        discountSource: 'welcome',
        promoCode: null,
      });
      expect((await apply(buyer, orderId, code).expect(200)).body).to.include({
        subtotal: 4.99,
        discount: 1,
        discountSource: 'code',
        promoCode: code,
        total: 3.99,
      });
    });

    it("cannot apply a code to someone else's order", async () => {
      const code = codeName('theirs');
      await createCode({ code, percentOff: 10 });
      const owner = await loginAs('user');
      const orderId = await newOrderId(owner);
      const intruder = await loginAs('user');
      expect((await apply(intruder, orderId, code).expect(404)).body.code).to.equal('order_not_found');
    });

    it('refuses prototype keys and wrong types with 400', async () => {
      const buyer = await loginAs('user');
      const orderId = await newOrderId(buyer);
      for (const body of [{ orderId: 'abc', code: 'ABCD' }, { orderId, code: { $gt: '' } }, { orderId, code: ['ABCD'] }, { orderId }]) {
        const res = await api().post('/api/order/applypromo').set(buyer.auth).send(body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
      }
      const proto = await api()
        .post('/api/order/applypromo')
        .set(buyer.auth)
        .set('Content-Type', 'application/json')
        .send(`{"__proto__":{"discount":499},"orderId":${orderId},"code":"ABCD"}`);
      expect(proto.status).to.equal(400);
      expect((await placeOrder(buyer, { promoCode: { $ne: null } })).status).to.equal(400);
    });
  });

  describe("a code on the buyer's own unpaid order moves to the new one", () => {
    it('applied again to a new order (the currency switched): the old order is back to its price, its checkout not reused', async () => {
      const code = codeName('move');
      const made = await createCode({ code, percentOff: 10, totalLimit: 5 });
      const buyer = await loginAs('user');
      const first = await newOrderId(buyer);
      await apply(buyer, first, code).expect(200);
      // A checkout opened at the provider for the discounted amount.
      await openCheckout(buyer, first);
      expect(await knex()('payments').where({ order_id: first }).pluck('amount_minor')).to.deep.equal([449]);

      const second = await newOrderId(buyer, 'KRW');
      const moved = (await apply(buyer, second, code).expect(200)).body;
      expect(moved).to.include({ id: second, discountSource: 'code', promoCode: code });
      expect(moved.discount).to.be.greaterThan(0);

      expect(await orderRowOf(first)).to.include({ total_minor: 499, subtotal_minor: 499, discount_minor: 0, discount_source: null, promo_code: null });
      expect((await api().get('/api/order/getorder').query({ id: first }).set(buyer.auth).expect(200)).body).to.include({
        subtotal: 4.99,
        discount: 0,
        total: 4.99,
        promoCode: null,
      });
      expect((await liveRedemptions(made.id)).map((row) => row.order_id)).to.deep.equal([second]);
      expect((await knex()('promo_codes').where({ id: made.id }).first()).redeemed).to.equal(1);
      // The old checkout, for the discounted amount, is not reused: the next asks for the whole price.
      await openCheckout(buyer, first);
      expect(await knex()('payments').where({ order_id: first }).orderBy('id').pluck('amount_minor')).to.deep.equal([449, 499]);
    });

    it('the same with the code given to the new order at insert', async () => {
      const code = codeName('moveins');
      const made = await createCode({ code, amounts: { EUR: 1, KRW: 1000 } });
      const buyer = await loginAs('user');
      const first = (await placeOrder(buyer, { promoCode: code }).expect(200)).body;
      expect(first).to.include({ total: 3.99, promoCode: code });
      const second = (await placeOrder(buyer, { currency: 'KRW', promoCode: code }).expect(200)).body;
      expect(second).to.include({ currencyCode: 'KRW', discount: 1000, promoCode: code });
      expect(await orderRowOf(first.id)).to.include({ total_minor: 499, discount_minor: 0, promo_code: null });
      expect((await liveRedemptions(made.id)).map((row) => row.order_id)).to.deep.equal([second.id]);
    });

    it('a code used on a paid order does not move: already used', async () => {
      const code = codeName('paidonce');
      const made = await createCode({ code, percentOff: 10 });
      const buyer = await loginAs('user');
      const paid = await newOrderId(buyer);
      await apply(buyer, paid, code).expect(200);
      await payWithDemo(buyer, paid);
      const next = await newOrderId(buyer, 'KRW');
      expect((await apply(buyer, next, code).expect(409)).body.code).to.equal('promo_already_used');
      expect((await placeOrder(buyer, { promoCode: code }).expect(409)).body.code).to.equal('promo_already_used');
      expect(await orderRowOf(paid)).to.include({ total_minor: 449, discount_minor: 50, promo_code: code });
      expect((await liveRedemptions(made.id)).map((row) => row.order_id)).to.deep.equal([paid]);
    });

    it("another buyer's order keeps its code: the total limit still refuses", async () => {
      const code = codeName('notyours');
      await createCode({ code, percentOff: 10, totalLimit: 1, perBuyerLimit: 1 });
      const holder = await loginAs('user');
      const held = await newOrderId(holder);
      await apply(holder, held, code).expect(200);
      const other = await loginAs('user');
      expect((await apply(other, await newOrderId(other), code).expect(409)).body.code).to.equal('promo_used_up');
      expect(await orderRowOf(held)).to.include({ promo_code: code, total_minor: 449 });
    });

    it('one buyer applying a single-use code to two orders at once: exactly one live redemption', async () => {
      for (let round = 0; round < 5; round += 1) {
        const code = codeName('twice');
        const made = await createCode({ code, percentOff: 10, totalLimit: 1, perBuyerLimit: 1 });
        const buyer = await loginAs('user');
        const orderIds = [await newOrderId(buyer), await newOrderId(buyer, 'KRW')];
        const answers = await Promise.all(orderIds.map((orderId) => apply(buyer, orderId, code)));
        for (const res of answers) expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 409]);
        expect(answers.some((res) => res.status === 200)).to.equal(true);
        const live = await liveRedemptions(made.id);
        expect(live, `round ${round}`).to.have.length(1);
        expect((await knex()('promo_codes').where({ id: made.id }).first()).redeemed).to.equal(1);
        // The order carrying the code is the one with the live redemption; the other is at its price.
        expect(await knex()('orders').whereIn('id', orderIds).where({ promo_code: code }).pluck('id')).to.deep.equal([live[0].order_id]);
        const without = orderIds.find((id) => id !== live[0].order_id)!;
        const row = await orderRowOf(without);
        expect(row.total_minor).to.equal(row.subtotal_minor);
      }
    });
  });

  describe('checkouts and expiry', () => {
    it('a checkout opened before the code is not reused: the next one asks for the new total', async () => {
      const code = codeName('late');
      await createCode({ code, percentOff: 20 });
      const buyer = await loginAs('user');
      const orderId = await newOrderId(buyer);
      const before = (await api().post('/api/payment/createcheckoutsession').set(buyer.auth).send({ orderId }).expect(200)).body.url;
      expect((await apply(buyer, orderId, code).expect(200)).body).to.include({ total: 3.99 });
      const after = (await api().post('/api/payment/createcheckoutsession').set(buyer.auth).send({ orderId }).expect(200)).body.url;
      expect(after).to.not.equal(before);
      const amounts = (await knex()('payments').where({ order_id: orderId }).orderBy('id')).map((payment) => payment.amount_minor);
      expect(amounts).to.deep.equal([499, 399]);
      const token = decodeURIComponent(new URL(after).pathname.split('/').pop()!);
      await api().post('/api/webhook/demo').type('form').send({ token, outcome: 'paid' }).expect(303);
      expect(await knex()('payments').where({ order_id: orderId, status: 'paid' }).pluck('amount_minor')).to.deep.equal([399]);
    });

    it('an order that expires unpaid gives its redemption back', async () => {
      const code = codeName('back');
      const made = await createCode({ code, percentOff: 10, totalLimit: 1 });
      const buyer = await loginAs('user');
      const orderId = await newOrderId(buyer);
      await apply(buyer, orderId, code).expect(200);
      expect((await knex()('promo_codes').where({ id: made.id }).first()).redeemed).to.equal(1);
      harness().clock.advance(25 * 3600_000);
      await harness().container.get(CheckoutFlow).expireUnpaid();
      expect((await knex()('orders').where({ id: orderId }).first()).state).to.equal(4);
      expect((await knex()('promo_codes').where({ id: made.id }).first()).redeemed).to.equal(0);
      expect((await knex()('promo_redemptions').where({ order_id: orderId }).first()).released_at).to.not.equal(null);
      // Another buyer may now use the one redemption.
      const next = await loginAs('user');
      await apply(next, await newOrderId(next), code).expect(200);
    });
  });

  describe('limits', () => {
    it('50 buyers racing for a code with 10 redemptions: exactly 10 win, held by the database', async () => {
      const code = codeName('race');
      const made = await createCode({ code, percentOff: 10, totalLimit: 10 });
      const buyers = await Promise.all(Array.from({ length: 50 }, () => loginAs('user')));
      const orderIds = await Promise.all(buyers.map((buyer) => newOrderId(buyer)));
      const answers = await Promise.all(buyers.map((buyer, index) => apply(buyer, orderIds[index], code)));
      const statuses = answers.map((res) => (res.status === 200 ? 'won' : res.body.code));
      expect(statuses.filter((status) => status === 'won')).to.have.length(10);
      expect(statuses.filter((status) => status === 'promo_used_up')).to.have.length(40);
      expect((await knex()('promo_codes').where({ id: made.id }).first()).redeemed).to.equal(10);
      const live = await knex()('promo_redemptions').where({ promo_code_id: made.id }).whereNull('released_at');
      expect(live).to.have.length(10);
      expect(await knex()('orders').whereIn('id', orderIds).where({ promo_code: code }).pluck('id')).to.have.members(live.map((row) => row.order_id));
      // The limit is the database's: an eleventh count is refused whoever writes it.
      let refused: unknown;
      await knex()('promo_codes')
        .where({ id: made.id })
        .increment('redeemed', 1)
        .catch((error: unknown) => (refused = error));
      expect((refused as { constraint?: string }).constraint).to.equal('promo_codes_total_limit');
    });

    it('rate-limits guesses of unknown codes per buyer and per address; other refusals do not count', async () => {
      const used = codeName('full');
      await createCode({ code: used, percentOff: 10, totalLimit: 1 });
      const first = await loginAs('user');
      await apply(first, await newOrderId(first), used).expect(200);

      const guesser = await loginAs('user');
      const orderId = await newOrderId(guesser);
      for (let guess = 0; guess < 12; guess += 1) expect((await apply(guesser, orderId, used)).body.code).to.equal('promo_used_up');
      for (let guess = 0; guess < 10; guess += 1) expect((await apply(guesser, orderId, `WRONG-${guess}`)).body.code).to.equal('promo_unknown');
      const limited = await apply(guesser, orderId, 'WRONG-10').expect(429);
      expect(limited.body.code).to.equal('promo_guess_limit');
      expect(Number(limited.headers['retry-after'])).to.be.greaterThan(0);

      // Per address: buyers sharing one address, 30 unknown guesses in all.
      const address = '203.0.113.77';
      let answered = 0;
      for (let person = 0; person < 4; person += 1) {
        const buyer = await loginAs('user');
        const id = await newOrderId(buyer);
        for (let guess = 0; guess < 9; guess += 1) {
          const res = await apply(buyer, id, `NOPE-${person}-${guess}`, address);
          if (res.status === 404) answered += 1;
          else expect(res.body.code).to.equal('promo_guess_limit');
        }
      }
      expect(answered).to.equal(30);
    });

    it('an old checkout paid after a code took its credit back pays with that credit, not with credit that comes back again', async () => {
      const code = codeName('late');
      await createCode({ code, percentOff: 10 });
      const credit = harness().container.get(CreditService);
      const buyer = await loginAs('user');
      await knex().transaction((trx) => credit.earn(buyer.id, money(200, 'EUR'), { key: `test:late:${buyer.id}` }, trx));
      const orderId = await newOrderId(buyer);
      // A demo checkout (like CoinPal's or Payssion's, it cannot be closed) takes the €2.00 of credit.
      const oldToken = await openCheckout(buyer, orderId);
      await apply(buyer, orderId, code).expect(200);
      // The code gave that credit back; the new checkout takes it again.
      await openCheckout(buyer, orderId);
      const [oldPayment, newPayment] = await knex()('payments').where({ order_id: orderId }).orderBy('id');
      expect(newPayment.credit_minor).to.equal(200);

      // The buyer pays the old page after all (€4.99 less €2.00 at the provider).
      await api().post('/api/webhook/demo').type('form').send({ token: oldToken, outcome: 'paid' }).expect(303);
      expect((await orderRowOf(orderId)).state).to.equal(6);
      const rows = await knex()('credit_entries').where({ user_id: buyer.id }).orderBy('id');
      const held = (paymentId: number) =>
        rows
          .filter((row) => row.payment_id === paymentId)
          .reduce((sum, row) => sum + (row.kind === 'spent' ? row.amount_minor : row.kind === 'released' ? -row.amount_minor : 0), 0);
      // The paid payment holds its €2.00 again; the open one holds nothing, so its expiry gives nothing back.
      expect(held(oldPayment.id)).to.equal(200);
      expect(held(newPayment.id)).to.equal(0);
      expect((await credit.available(buyer.id, 'EUR')).amount).to.equal(0);
    });

    it('holds the guess limit exactly under a burst of parallel guesses, per buyer and per address', async () => {
      // 30 guesses at once from one buyer: the limit is reserved before each lookup, so exactly
      // 10 are answered (a check-then-count limit let all 30 through).
      const guesser = await loginAs('user');
      const orderId = await newOrderId(guesser);
      const burst = await Promise.all(Array.from({ length: 30 }, (_, guess) => apply(guesser, orderId, `BURST-${guess}`)));
      expect(burst.filter((res) => res.status === 404 && res.body.code === 'promo_unknown')).to.have.length(10);
      expect(burst.filter((res) => res.status === 429 && res.body.code === 'promo_guess_limit')).to.have.length(20);

      // A right code after the burst is refused too: the hour's ten guesses are spent.
      const right = codeName('right');
      await createCode({ code: right, percentOff: 10 });
      expect((await apply(guesser, orderId, right).expect(429)).body.code).to.equal('promo_guess_limit');

      // Eight buyers behind one address, 48 guesses at once: exactly 30 answered.
      const address = '203.0.113.78';
      const buyers = await Promise.all(Array.from({ length: 8 }, () => loginAs('user')));
      const orders = await Promise.all(buyers.map((buyer) => newOrderId(buyer)));
      const shared = await Promise.all(
        buyers.flatMap((buyer, person) => Array.from({ length: 6 }, (_, guess) => apply(buyer, orders[person], `SHARED-${person}-${guess}`, address))),
      );
      expect(shared.filter((res) => res.status === 404)).to.have.length(30);
      expect(shared.filter((res) => res.status === 429)).to.have.length(18);
    });
  });
});
