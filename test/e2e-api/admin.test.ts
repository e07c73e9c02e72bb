import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { type AuthenticatedUser } from '@subshare/core';
import { api, createUser, loginAs, uniqueEmail, uniqueIp, type TestUser } from '../support/agent.js';
import { harness } from '../support/harness.js';
import { activation, buyer, createAccount, createOrder, createPlatform, markPaidQuietly, orders, refreshCatalog, type TestPlatform } from '../support/shop.js';

const ORDER_KEYS = [
  'id',
  'userId',
  'email',
  'total',
  'currencyId',
  'currencyCode',
  'paymentMethod',
  'createdDate',
  'paymentMethods',
  'state',
  'totalEur',
  'paidDate',
  'completedDate',
  'items',
  'subtotal',
  'discount',
  'discountSource',
  'promoCode',
  'creditApplied',
  'toPay',
  'creditAvailable',
  'minimumToPay',
];
const USER_KEYS = ['id', 'email', 'isEmailVerified', 'name', 'role', 'subscribersCount', 'createdDate'];
const CSV_HEADER = 'id,created,state,userId,email,platform,type,duration,quantity,total,currency,totalEur,paymentMethod,paid,completed,refunded';
const HOUR_MS = 3_600_000;

/** RFC 4180 records (CRLF line ends, quoted fields with doubled quotes inside). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else field += char;
  }
  expect(field, 'the file ends with CRLF').to.equal('');
  expect(record).to.deep.equal([]);
  return records;
}

const cents = (value: number) => Math.round(value * 100);

/**
 * The admin area's server side through the real API: the spec's staff lists (orders, users,
 * platforms) with their paging, totals in EUR, and beyond the spec the CSV export, the
 * dashboard and the audit log, each with its guard.
 */
describe('admin area calls (orders, users, platforms, CSV export, dashboard, audit log)', function () {
  this.timeout(120_000);
  const knex = () => harness().knex;
  const now = () => harness().clock.now();
  let moderator: TestUser;
  let admin: TestUser;
  let customer: TestUser;

  before(async () => {
    [moderator, admin, customer] = await Promise.all([loginAs('moderator'), loginAs('admin'), loginAs('user')]);
  });

  const staffGet = (path: string, who: TestUser = moderator) => api().get(path).set(who.auth);

  /** A buyer with a chosen e-mail, as the orders service sees a logged-in user. */
  async function buyerWithEmail(email: string): Promise<AuthenticatedUser> {
    const user = await createUser({ email });
    return { id: user.id, email, name: 'Test User', photoUrl: null, role: 0, isEmailVerified: true, languageId: 1, sessionId: randomUUID() };
  }

  /** A platform of the test's own that sells up to 5 at once. */
  async function platformForQuantities(): Promise<TestPlatform> {
    const platform = await createPlatform();
    await knex()('platforms').where({ id: platform.id }).update({ max_quantity: 5 });
    refreshCatalog();
    return platform;
  }

  async function orderIn(user: AuthenticatedUser, platform: TestPlatform, currency: 'EUR' | 'KRW', quantity = 1): Promise<number> {
    const order = await orders().createOrder(
      user,
      { platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId, languageId: 1, quantity, currency },
      currency,
    );
    return order.id;
  }

  /**
   * An order paid as a buyer pays with the demo provider (its checkout page posts the signed
   * "paid"): state 6, as no worker activates it in this file.
   */
  async function paidWithDemo(platform: TestPlatform, currency: 'EUR' | 'KRW', quantity = 1): Promise<number> {
    const user = await loginAs('user');
    const { body: order } = await api()
      .post('/api/order/insert')
      .set(user.auth)
      .send({ platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId, quantity, currency })
      .expect(200);
    const { body } = await api().post('/api/payment/createcheckoutsession').set(user.auth).send({ orderId: order.id }).expect(200);
    const token = decodeURIComponent(new URL(body.url).pathname.split('/').pop()!);
    await api().post('/api/webhook/demo').type('form').send({ token, outcome: 'paid' }).expect(303);
    expect((await knex()('orders').where({ id: order.id }).first()).state).to.equal(6);
    return order.id as number;
  }

  /** Refunded by an admin under the default policy (5 % fee, 24 hours): the refund's amount in major units. */
  async function refundedByAdmin(orderId: number, overrideWindow = false): Promise<number> {
    const { body } = await api().post('/api/order/refund').set(admin.auth).send({ orderId, reason: 'the buyer asked', overrideWindow }).expect(200);
    expect(body).to.include({ orderId, state: 5 });
    return body.refund.amount as number;
  }

  describe('guards', () => {
    const STAFF = [
      '/api/order/getbystate?state=2',
      '/api/order/getorders',
      '/api/order/getorderspages',
      '/api/user/getusers',
      '/api/user/getusersbyemail?email=a',
      '/api/user/getuserspages',
      '/api/platform/getplatforms',
      '/api/order/export.csv?state=2',
      '/api/admin/dashboard',
    ];
    const ADMIN = ['/api/audit/log', '/api/audit/logpages'];

    it('staff calls: 401 without a token, 403 for a buyer, 200 for a moderator and an admin', async () => {
      for (const path of STAFF) {
        const anonymous = await api().get(path);
        expect([anonymous.status, anonymous.body.code], path).to.deep.equal([401, 'missing_token']);
        const bought = await staffGet(path, customer);
        expect([bought.status, bought.body.code], path).to.deep.equal([403, 'forbidden']);
        expect((await staffGet(path, moderator)).status, path).to.equal(200);
        expect((await staffGet(path, admin)).status, path).to.equal(200);
      }
    });

    it('the audit log is for admins only: a moderator gets 403', async () => {
      for (const path of ADMIN) {
        expect((await api().get(path)).status, path).to.equal(401);
        expect((await staffGet(path, customer)).status, path).to.equal(403);
        const moderated = await staffGet(path, moderator);
        expect([moderated.status, moderated.body.code], path).to.deep.equal([403, 'forbidden']);
        expect((await staffGet(path, admin)).status, path).to.equal(200);
      }
    });
  });

  describe('orders: getbystate, getorders, getorderspages, getorder', () => {
    let platform: TestPlatform;
    let eurOrder: number;
    let krwOrder: number;

    before(async () => {
      platform = await platformForQuantities(); // 4.99 EUR or 6900 KRW a month
      const user = await buyer();
      eurOrder = await orderIn(user, platform, 'EUR', 2);
      krwOrder = await orderIn(user, platform, 'KRW', 1);
      // Payment failed (state 3): no background work touches them, and they are the newest in that state.
      await knex()('orders').whereIn('id', [eurOrder, krwOrder]).update({ state: 3, payment_method: 1 });
    });

    it('getbystate answers the orders of one state, newest first, each with its total in EUR', async () => {
      const { body } = await staffGet('/api/order/getbystate?state=3&page=1&limit=2').expect(200);
      expect(body.map((order: { id: number }) => order.id)).to.deep.equal([krwOrder, eurOrder]);
      const [krw, eur] = body;
      expect(eur).to.have.all.keys(...ORDER_KEYS);
      expect(eur).to.include({
        state: 3,
        currencyCode: 'EUR',
        currencyId: 1,
        total: 9.98,
        totalEur: 9.98,
        paymentMethod: 1,
        paidDate: null,
        completedDate: null,
      });
      expect(krw).to.include({ state: 3, currencyCode: 'KRW', currencyId: 2, total: 6900, totalEur: 4.99 });
      expect(krw.items).to.have.length(1);
      expect(krw.items[0]).to.include({ platformId: platform.id, platformName: platform.name, typeName: 'Standard', durationName: '1 Month', quantity: 1 });
      expect(await knex()('orders').where({ id: krwOrder }).first('total_eur_minor')).to.deep.equal({ total_eur_minor: 499 });
    });

    it('the EUR total is the catalog EUR price when the order was made, whatever the catalog says later', async () => {
      await knex()('platform_prices').where({ platform_id: platform.id, currency: 'EUR' }).update({ sale_price_minor: 599 });
      refreshCatalog();
      const later = await orderIn(await buyer(), platform, 'KRW', 2);
      const { body } = await staffGet(`/api/order/getorder?id=${later}`).expect(200);
      expect(body).to.include({ total: 13800, currencyCode: 'KRW', totalEur: 11.98 });
      expect((await staffGet(`/api/order/getorder?id=${krwOrder}`).expect(200)).body.totalEur).to.equal(4.99);
      // A buyer still sees their own order the same way, and not another's.
      expect((await api().get(`/api/order/getorder?id=${krwOrder}`).set(customer.auth)).status).to.equal(404);
    });

    it('getorders pages through every order, newest first; getorderspages counts them (limits 10, 20, 50, 100)', async () => {
      // Enough orders for several pages of 10 whatever ran before.
      // A buyer each: one buyer's same choice while their order is open (state 0) would be that order again.
      for (let i = 0; i < 12; i += 1) await createOrder(await buyer(), platform);
      for (const limit of [10, 20, 50, 100]) {
        const [{ n }] = await knex()('orders').count<Array<{ n: number }>>('id as n');
        const count = Number(n);
        const pages = Math.ceil(count / limit);
        expect((await staffGet(`/api/order/getorderspages?limit=${limit}`).expect(200)).body).to.deep.equal({ pages, count });

        const first = (await staffGet(`/api/order/getorders?page=1&limit=${limit}`).expect(200)).body;
        expect(first).to.have.length(Math.min(limit, count));
        const dates = first.map((order: { createdDate: string }) => order.createdDate);
        expect(dates).to.deep.equal([...dates].sort().reverse());
        const last = (await staffGet(`/api/order/getorders?page=${pages}&limit=${limit}`).expect(200)).body;
        expect(last).to.have.length(count - (pages - 1) * limit);
        expect((await staffGet(`/api/order/getorders?page=${pages + 1}&limit=${limit}`).expect(200)).body).to.deep.equal([]);
      }
      // Page 2 follows page 1 without overlap or gap.
      const both = (await staffGet('/api/order/getorders?page=1&limit=20').expect(200)).body.map((order: { id: number }) => order.id);
      const one = (await staffGet('/api/order/getorders?page=1&limit=10').expect(200)).body.map((order: { id: number }) => order.id);
      const two = (await staffGet('/api/order/getorders?page=2&limit=10').expect(200)).body.map((order: { id: number }) => order.id);
      expect([...one, ...two]).to.deep.equal(both);
      // Defaults: page 1, 20 a page.
      expect((await staffGet('/api/order/getorders').expect(200)).body.map((order: { id: number }) => order.id)).to.deep.equal(both);
    });

    it('getorderspages counts one state when given; getbystate beyond the last page is empty', async () => {
      const [{ n }] = await knex()('orders').where({ state: 3 }).count<Array<{ n: number }>>('id as n');
      const count = Number(n);
      expect((await staffGet('/api/order/getorderspages?state=3&limit=1').expect(200)).body).to.deep.equal({ pages: count, count });
      expect((await staffGet('/api/order/getorderspages?state=3').expect(200)).body).to.deep.equal({ pages: Math.ceil(count / 20), count });
      const last = (await staffGet(`/api/order/getbystate?state=3&page=${count}&limit=1`).expect(200)).body;
      expect(last).to.have.length(1);
      expect(last[0].state).to.equal(3);
      expect((await staffGet(`/api/order/getbystate?state=3&page=${count + 1}&limit=1`).expect(200)).body).to.deep.equal([]);
    });

    it('bad paging or state answers 400 naming the field', async () => {
      const cases: Array<[string, string]> = [
        ['/api/order/getbystate', 'state'],
        ['/api/order/getbystate?state=7', 'state'],
        ['/api/order/getbystate?state=abc', 'state'],
        ['/api/order/getbystate?state=2&page=0', 'page'],
        ['/api/order/getbystate?state=2&page=-1', 'page'],
        ['/api/order/getbystate?state=2&page=1.5', 'page'],
        ['/api/order/getbystate?state=2&limit=0', 'limit'],
        ['/api/order/getbystate?state=2&limit=101', 'limit'],
        ['/api/order/getorders?page=abc', 'page'],
        ['/api/order/getorders?limit=1000', 'limit'],
        ['/api/order/getorderspages?limit=0', 'limit'],
        ['/api/order/getorderspages?state=9', 'state'],
        ['/api/order/export.csv?state=x', 'state'],
      ];
      for (const [path, field] of cases) {
        const res = await staffGet(path);
        expect([res.status, res.body.code], path).to.deep.equal([400, 'validation']);
        expect(res.body.errors, path).to.have.property(field);
      }
    });
  });

  describe('users: getusers, getusersbyemail, getuserspages', () => {
    it('getusers answers the newest users first with the spec fields; subscribersCount counts subscriptions held now', async () => {
      const platform = await createPlatform({ slotsCount: 3 });
      await createAccount(platform.id, 3);
      const older = await buyer();
      const newer = await buyer();
      // Each order is paid before the next is made: the same choice while one is open (state 0) is that order again.
      for (let i = 0; i < 2; i += 1) {
        const orderId = await createOrder(newer, platform);
        await markPaidQuietly(orderId);
        await activation().activate(orderId);
      }
      const held = await knex()('subscriptions').where({ user_id: newer.id, status: 'active' });
      // Renewal extends the first subscription: one subscription, held now.
      expect(held).to.have.length(1);

      const { body } = await staffGet('/api/user/getusers?page=1&limit=2').expect(200);
      expect(body.map((user: { id: number }) => user.id)).to.deep.equal([newer.id, older.id]);
      expect(body[0]).to.have.all.keys(...USER_KEYS);
      expect(body[0]).to.include({ id: newer.id, email: newer.email, isEmailVerified: true, name: 'Test User', role: 0, subscribersCount: 1 });
      expect(body[1].subscribersCount).to.equal(0);
      expect(new Date(body[0].createdDate).toISOString()).to.equal(body[0].createdDate);

      // A subscription past its end no longer counts, even before the expiry job marks it.
      await knex()('subscriptions')
        .where({ id: held[0].id })
        .update({ starts_at: new Date(now().getTime() - 48 * HOUR_MS), ends_at: new Date(now().getTime() - HOUR_MS) });
      expect((await staffGet('/api/user/getusers?limit=1').expect(200)).body[0]).to.include({ id: newer.id, subscribersCount: 0 });
      // Staff roles are shown as numbers.
      const [mod] = (await staffGet(`/api/user/getusersbyemail?email=${encodeURIComponent(moderator.email)}`).expect(200)).body;
      expect(mod).to.include({ id: moderator.id, role: 1 });
    });

    it('getuserspages counts every user; pages of 10, 20, 50 and 100; beyond the last page is empty', async () => {
      for (const limit of [10, 20, 50, 100]) {
        const [{ n }] = await knex()('users').count<Array<{ n: number }>>('id as n');
        const count = Number(n);
        const pages = Math.ceil(count / limit);
        expect((await staffGet(`/api/user/getuserspages?limit=${limit}`).expect(200)).body).to.deep.equal({ pages, count });
        expect((await staffGet(`/api/user/getusers?page=1&limit=${limit}`).expect(200)).body).to.have.length(Math.min(limit, count));
        expect((await staffGet(`/api/user/getusers?page=${pages}&limit=${limit}`).expect(200)).body).to.have.length(count - (pages - 1) * limit);
        expect((await staffGet(`/api/user/getusers?page=${pages + 1}&limit=${limit}`).expect(200)).body).to.deep.equal([]);
      }
      const [{ n }] = await knex()('users').count<Array<{ n: number }>>('id as n');
      expect((await staffGet('/api/user/getuserspages').expect(200)).body).to.deep.equal({ pages: Math.ceil(Number(n) / 20), count: Number(n) });
      for (const path of [
        '/api/user/getusers?page=0',
        '/api/user/getusers?limit=101',
        '/api/user/getuserspages?limit=abc',
        '/api/user/getusersbyemail',
        '/api/user/getusersbyemail?email=%20%20',
      ]) {
        const res = await staffGet(path);
        expect([res.status, res.body.code], path).to.deep.equal([400, 'validation']);
      }
    });

    it('getusersbyemail finds a fragment in any case, newest first, wildcard characters taken literally', async () => {
      const token = randomUUID().slice(0, 8);
      const email = (local: string) => `${local}@example.test`;
      const first = await createUser({ email: email(`find-${token}-a_b`) });
      const second = await createUser({ email: email(`find-${token}-axb`) });
      const percent = await createUser({ email: email(`find-${token}-50%`) });
      const fifty = await createUser({ email: email(`find-${token}-500`) });
      const search = async (text: string) =>
        (await staffGet(`/api/user/getusersbyemail?email=${encodeURIComponent(text)}`).expect(200)).body.map((user: { id: number }) => user.id);

      expect(await search(`FIND-${token.toUpperCase()}`)).to.deep.equal([fifty.id, percent.id, second.id, first.id]);
      expect(await search(`${token}-a_b`)).to.deep.equal([first.id]);
      expect(await search(`${token}-50%`)).to.deep.equal([percent.id]);
      expect(await search(`${token}-%`)).to.deep.equal([]);
      expect(await search(`${token}\\`)).to.deep.equal([]);
      expect(await search(` ${email(`find-${token}-axb`).toUpperCase()} `)).to.deep.equal([second.id]);
      const [found] = (await staffGet(`/api/user/getusersbyemail?email=${token}-axb`).expect(200)).body;
      expect(found).to.have.all.keys(...USER_KEYS);
      expect(found).to.include({ id: second.id, email: email(`find-${token}-axb`), subscribersCount: 0 });
    });

    it('getusersbyemail answers at most 100 users', async () => {
      const token = randomUUID().slice(0, 8);
      await knex()('users').insert(Array.from({ length: 105 }, (_, i) => ({ email: `many-${token}-${i}@example.test`, role: 0, name: 'Many' })));
      const { body } = await staffGet(`/api/user/getusersbyemail?email=many-${token}`).expect(200);
      expect(body).to.have.length(100);
    });
  });

  describe('platforms: getplatforms', () => {
    it('lists every platform in English with slotsCount, logo, colour and types, disabled ones too', async () => {
      const onSale = await createPlatform({ slotsCount: 7 });
      const offSale = await createPlatform({ slotsCount: 2 });
      await knex()('platforms').where({ id: offSale.id }).update({ is_enabled: false });
      refreshCatalog();
      const { body } = await staffGet('/api/platform/getplatforms').expect(200);
      const mine = body.find((platform: { id: number }) => platform.id === onSale.id);
      expect(mine).to.include({
        id: onSale.id,
        name: onSale.name,
        slotsCount: 7,
        logoBase: onSale.logoBase,
        colorOne: '#112233',
        platformType: 0,
        isEnabled: true,
      });
      expect(mine.type).to.deep.equal([{ id: onSale.typeId, name: 'Standard', isEnable: true }]);
      expect(mine).to.include.keys('duration', 'prices', 'colorTwo', 'description');
      expect(body.find((platform: { id: number }) => platform.id === offSale.id)).to.include({ slotsCount: 2, isEnabled: false });
      // Seeded platforms come in English.
      expect(body.filter((platform: { name: string }) => /[가-힣]/.test(platform.name))).to.deep.equal([]);
    });
  });

  describe('CSV export (GET /api/order/export.csv)', () => {
    it('streams the orders of a state as RFC 4180 CSV, newest first, formulas made inert, and audits the export', async () => {
      const platform = await platformForQuantities();
      const rename = async (name: string) => {
        await knex()('platform_texts').where({ platform_id: platform.id, language_id: 1 }).update({ name });
        refreshCatalog();
      };
      const token = randomUUID().slice(0, 8);
      const names = ['=HYPERLINK("http://evil.test","click"), now', '+1+1', '-2+3', '@SUM(A1:A2)', '\tTabbed', 'Two\r\nlines', `Plain ${token}`];
      const ids: number[] = [];
      const buyers: AuthenticatedUser[] = [];
      for (const [index, name] of names.entries()) {
        await rename(name);
        const user = await buyerWithEmail(index === 0 ? `=cmd-${token}@example.test` : `csv-${token}-${index}@example.test`);
        buyers.push(user);
        ids.push(await orderIn(user, platform, index === 6 ? 'KRW' : 'EUR', index === 6 ? 2 : 1));
      }
      // Refunded (5): paid, then money back; a state only this test fills now.
      const paidAt = new Date(now().getTime() - 2 * HOUR_MS);
      await knex()('orders').whereIn('id', ids).update({ state: 5, paid_at: paidAt, payment_method: 3 });
      const [{ n }] = await knex()('orders').where({ state: 5 }).count<Array<{ n: number }>>('id as n');

      const ip = uniqueIp();
      const res = await api(harness().app, ip)
        .get('/api/order/export.csv?state=5')
        .set(moderator.auth)
        .buffer(true)
        .parse((response, done) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => done(null, text));
        });
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).to.match(/^attachment; filename="orders-state-5-\d{4}-\d\d-\d\d\.csv"$/);
      const text = res.body as string;
      expect(text.startsWith('\uFEFF' + CSV_HEADER + '\r\n')).to.equal(true);
      const [header, ...rows] = parseCsv(text.slice(1));
      expect(header.join(',')).to.equal(CSV_HEADER);
      expect(rows).to.have.length(Number(n));
      expect(rows.every((row) => row.length === header.length && row[2] === '5')).to.equal(true);
      const exported = rows.map((row) => Number(row[0]));
      expect(exported.slice(0, names.length)).to.deep.equal([...ids].reverse());

      const row = (orderId: number) => rows.find((candidate) => candidate[0] === String(orderId))!;
      expect(row(ids[0])[4]).to.equal(`'=cmd-${token}@example.test`);
      expect(row(ids[0])[5]).to.equal(`'=HYPERLINK("http://evil.test","click"), now`);
      expect(text).to.contain(`"'=HYPERLINK(""http://evil.test"",""click""), now"`);
      expect([1, 2, 3, 4].map((index) => row(ids[index])[5])).to.deep.equal(["'+1+1", "'-2+3", "'@SUM(A1:A2)", "'\tTabbed"]);
      expect(row(ids[5])[5]).to.equal('Two\r\nlines');
      const created = (await knex()('orders').where({ id: ids[6] }).first()).created_at as Date;
      expect(row(ids[6])).to.deep.equal([
        String(ids[6]),
        created.toISOString(),
        '5',
        String(buyers[6].id),
        buyers[6].email,
        `Plain ${token}`,
        'Standard',
        '1 Month',
        '2',
        '13800',
        'KRW',
        '9.98',
        'KakaoPay',
        paidAt.toISOString(),
        '',
        '', // set to 5 by hand: no refund recorded, nothing went back
      ]);
      expect(row(ids[1]).slice(8, 13)).to.deep.equal(['1', '4.99', 'EUR', '4.99', 'KakaoPay']);

      // Audited before the first line went out: who, from where, what.
      const entry = await knex()('audit_log').where({ action: 'orders.export', actor_user_id: moderator.id }).orderBy('id', 'desc').first();
      expect(entry).to.include({ actor_label: moderator.email, target_type: 'orders', ip });
      expect(entry.details).to.deep.equal({ state: 5, count: Number(n), format: 'csv' });
    });

    it('refunded: what went back to the buyer, in the order currency (whole won for KRW); empty when nothing did', async () => {
      const platform = await platformForQuantities(); // 4.99 EUR or 6900 KRW a month
      const krw = await paidWithDemo(platform, 'KRW', 2);
      const eur = await paidWithDemo(platform, 'EUR');
      const notRefunded = await paidWithDemo(platform, 'EUR');
      // 5 % of ₩13800 is ₩690; 5 % of €4.99 is 24.95 cents, rounded half up to 25.
      expect(await refundedByAdmin(krw)).to.equal(13110);
      expect(await refundedByAdmin(eur)).to.equal(4.74);

      const text = async (state: number) =>
        (
          await staffGet(`/api/order/export.csv?state=${state}`)
            .buffer(true)
            .parse((response, done) => {
              let body = '';
              response.setEncoding('utf8');
              response.on('data', (chunk: string) => (body += chunk));
              response.on('end', () => done(null, body));
            })
            .expect(200)
        ).body as string;
      const [header, ...refundedRows] = parseCsv((await text(5)).slice(1));
      const column = header.indexOf('refunded');
      expect(column).to.equal(header.length - 1);
      const refundedOf = (rows: string[][], orderId: number) => rows.find((row) => row[0] === String(orderId))![column];
      expect(refundedOf(refundedRows, krw)).to.equal('13110');
      expect(refundedOf(refundedRows, eur)).to.equal('4.74');
      const krwRow = refundedRows.find((row) => row[0] === String(krw))!;
      expect([krwRow[9], krwRow[10], krwRow[11]]).to.deep.equal(['13800', 'KRW', '9.98']); // the totals stay what was paid
      const [, ...waitingRows] = parseCsv((await text(6)).slice(1));
      expect(refundedOf(waitingRows, notRefunded)).to.equal('');
    });

    it('reads a long list in batches without losing or repeating an order (same timestamps too); no state: every order', async () => {
      const user = await buyer();
      const at = now();
      const inserted = await knex()('orders')
        .insert(
          Array.from({ length: 520 }, () => ({
            user_id: user.id,
            email: user.email,
            currency: 'EUR',
            total_minor: 100,
            subtotal_minor: 100,
            total_eur_minor: 100,
            state: 4,
            created_at: at,
            updated_at: at,
          })),
        )
        .returning('id');
      const [{ n }] = await knex()('orders').where({ state: 4 }).count<Array<{ n: number }>>('id as n');
      const res = await staffGet('/api/order/export.csv?state=4')
        .buffer(true)
        .parse((response, done) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => done(null, text));
        });
      const ids = parseCsv((res.body as string).slice(1))
        .slice(1)
        .map((row) => Number(row[0]));
      expect(ids).to.have.length(Number(n));
      expect(new Set(ids).size).to.equal(ids.length);
      expect(ids).to.include.members(inserted.map((row: { id: number }) => row.id));
      // Same created_at: the newer id first.
      const mine = ids.filter((id) => inserted.some((row: { id: number }) => row.id === id));
      expect(mine).to.deep.equal([...mine].sort((a, b) => b - a));

      const all = await staffGet('/api/order/export.csv?state=')
        .buffer(true)
        .parse((response, done) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => done(null, text));
        });
      expect(all.headers['content-disposition']).to.match(/filename="orders-all-/);
      const [{ total }] = await knex()('orders').count<Array<{ total: number }>>('id as total');
      expect(parseCsv((all.body as string).slice(1))).to.have.length(Number(total) + 1);
    });
  });

  describe('dashboard (GET /api/admin/dashboard)', () => {
    type Dashboard = {
      revenueEur: Array<{ day: string; totalEur: number }>;
      ordersByState: Record<string, number>;
      slotOccupancy: Array<{ platformId: number; name: string; slots: number; used: number }>;
      waitingPast24h: Array<{ orderId: number; paidAt: string; hours: number }>;
      accountHealth: Record<'ok' | 'attention' | 'broken', number>;
      outstandingCredit: Array<{ amount: number; currencyCode: string }>;
      discountsGranted: Array<{
        source: 'code' | 'welcome';
        code: string | null;
        paidOrders: number;
        granted: Array<{ amount: number; currencyCode: string }>;
      }>;
      doublePayments: { refunded: number; refundedAmounts: Array<{ amount: number; currencyCode: string }>; waiting: number; failed: number };
    };
    const dashboard = async (): Promise<Dashboard> => (await staffGet('/api/admin/dashboard').expect(200)).body;
    const day = (offsetDays: number) => new Date(now().getTime() - offsetDays * 24 * HOUR_MS).toISOString().slice(0, 10);

    it('has the four figures: 30 days of revenue ending today, every state, occupancy, late orders', async () => {
      const body = await dashboard();
      expect(body).to.have.all.keys(
        'revenueEur',
        'ordersByState',
        'slotOccupancy',
        'waitingPast24h',
        'waitingMoneyEvents',
        'accountHealth',
        'renewals',
        'doublePayments',
        'outstandingCredit',
        'discountsGranted',
      );
      expect(body.outstandingCredit).to.be.an('array');
      expect(body.discountsGranted[0]).to.include({ source: 'welcome', code: null });
      expect(body.accountHealth).to.have.all.keys('ok', 'attention', 'broken');
      expect(body.doublePayments).to.have.all.keys('refunded', 'refundedAmounts', 'waiting', 'failed');
      expect(body.revenueEur).to.have.length(30);
      expect(body.revenueEur[29].day).to.equal(day(0));
      expect(body.revenueEur[0].day).to.equal(day(29));
      expect(Object.keys(body.ordersByState)).to.deep.equal(['0', '1', '2', '3', '4', '5', '6']);
    });

    it('discounts granted: each code its paid orders used and the welcome discount, per currency; unpaid orders do not count', async () => {
      const platform = await platformForQuantities(); // 4.99 EUR or 6900 KRW a month
      const code = `DASH${randomUUID().slice(0, 8).toUpperCase()}`;
      await api().post('/api/promo/create').set(admin.auth).send({ code, percentOff: 20, perBuyerLimit: 5 }).expect(200);
      const before = await dashboard();
      const welcomeBefore = before.discountsGranted[0];
      /** A buyer's order (with the code, typed in lower case, when asked), paid with the demo provider. */
      const pays = async (who: TestUser, currency: 'EUR' | 'KRW', promoCode?: string) => {
        const { body: order } = await api()
          .post('/api/order/insert')
          .set(who.auth)
          .send({ platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId, currency, ...(promoCode ? { promoCode } : {}) })
          .expect(200);
        const { body } = await api().post('/api/payment/createcheckoutsession').set(who.auth).send({ orderId: order.id }).expect(200);
        const token = decodeURIComponent(new URL(body.url).pathname.split('/').pop()!);
        await api().post('/api/webhook/demo').type('form').send({ token, outcome: 'paid' }).expect(303);
        return order as { id: number; discount: number; discountSource: string | null };
      };
      // Two buyers pay with the code (one in EUR, one in KRW); a third applies it and never pays.
      expect((await pays(await loginAs('user'), 'EUR', code.toLowerCase())).discount).to.equal(1); // 20 % of 4.99, half up
      expect((await pays(await loginAs('user'), 'KRW', code)).discount).to.equal(1380);
      await api()
        .post('/api/order/insert')
        .set((await loginAs('user')).auth)
        .send({ platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId, currency: 'EUR', promoCode: code })
        .expect(200);
      // A friend signs up by a buyer's link and pays: the welcome discount (10 %).
      const inviter = await loginAs('user');
      const { body: referral } = await api().get('/api/user/referral').set(inviter.auth).expect(200);
      const email = uniqueEmail('friend');
      const { body: registered } = await api().post('/api/user/register').send({ email, password: 'friend-pass-1', referralCode: referral.code }).expect(200);
      await knex()('users').where({ id: registered.id }).update({ is_email_verified: true });
      const friend = { id: registered.id, email, password: 'friend-pass-1', token: registered.token, auth: { Authorization: `Bearer ${registered.token}` } };
      expect(await pays(friend, 'EUR')).to.include({ discount: 0.5, discountSource: 'welcome' });

      const after = await dashboard();
      expect(after.discountsGranted.find((line) => line.code === code)).to.deep.equal({
        source: 'code',
        code,
        paidOrders: 2,
        granted: [
          { currencyCode: 'EUR', amount: 1 },
          { currencyCode: 'KRW', amount: 1380 },
        ],
      });
      const welcome = after.discountsGranted[0];
      expect(welcome).to.include({ source: 'welcome', code: null });
      expect(welcome.paidOrders - welcomeBefore.paidOrders).to.equal(1);
      const eur = (line: typeof welcome) => cents(line.granted.find((entry) => entry.currencyCode === 'EUR')?.amount ?? 0);
      expect(eur(welcome) - eur(welcomeBefore)).to.equal(50);
      expect(after.discountsGranted.filter((line) => line.source === 'welcome')).to.have.length(1);
      // Revenue is net of the discounts: €3.99, a KRW order at ₩5,520 of ₩6,900 (worth €4.99) counts €3.99, and €4.49.
      expect(cents(after.revenueEur[29].totalEur) - cents(before.revenueEur[29].totalEur)).to.equal(399 + 399 + 449);
    });

    it('revenue: paid orders by the day they were paid, in EUR, older ones left out', async () => {
      const platform = await platformForQuantities();
      const user = await buyer();
      const before = await dashboard();
      // Each is paid before the next is made: the same choice while one is open (state 0) is that order again.
      const paidOrderIn = async (currency: 'EUR' | 'KRW', quantity: number) => {
        const id = await orderIn(user, platform, currency, quantity);
        await markPaidQuietly(id);
        return id;
      };
      // Paid today: 2 × 4.99 EUR, and one in KRW worth 4.99 EUR.
      await paidOrderIn('EUR', 2);
      await paidOrderIn('KRW', 1);
      const paidEarlier = await paidOrderIn('EUR', 1);
      const tooOld = await paidOrderIn('EUR', 1);
      await orderIn(user, platform, 'EUR', 1); // unpaid: no revenue
      await knex()('orders')
        .where({ id: paidEarlier })
        .update({ paid_at: new Date(now().getTime() - 2 * 24 * HOUR_MS) });
      await knex()('orders')
        .where({ id: tooOld })
        .update({ paid_at: new Date(now().getTime() - 31 * 24 * HOUR_MS) });
      const after = await dashboard();
      expect(after.revenueEur.map((entry) => entry.day)).to.deep.equal(before.revenueEur.map((entry) => entry.day));

      const delta = after.revenueEur.map((entry, index) => cents(entry.totalEur) - cents(before.revenueEur[index].totalEur));
      expect(delta[29]).to.equal(2 * 499 + 499); // 9.98 EUR + a KRW order worth 4.99 EUR
      expect(delta[27]).to.equal(499);
      expect(delta.filter((_, index) => index !== 29 && index !== 27)).to.deep.equal(Array(28).fill(0));
      expect(after.ordersByState['0'] - before.ordersByState['0']).to.equal(1); // the unpaid one
      expect(after.ordersByState['6'] - before.ordersByState['6']).to.equal(4);
    });

    it("revenue is net of refunds: a refund lowers the day it was made by its EUR value, not the order's whole total; the payment stays on its own day", async () => {
      const platform = await platformForQuantities(); // 4.99 EUR or 6900 KRW a month
      const before = await dashboard();
      // Paid today in KRW (₩13800, worth €9.98 when ordered) and refunded today less the 5 % fee.
      const krw = await paidWithDemo(platform, 'KRW', 2);
      // Paid two days ago in EUR (€4.99), refunded today past the window.
      const eur = await paidWithDemo(platform, 'EUR');
      await knex()('orders')
        .where({ id: eur })
        .update({ paid_at: new Date(now().getTime() - 2 * 24 * HOUR_MS) });
      expect(await refundedByAdmin(krw)).to.equal(13110);
      expect(await refundedByAdmin(eur, true)).to.equal(4.74);
      const after = await dashboard();

      const delta = after.revenueEur.map((entry, index) => cents(entry.totalEur) - cents(before.revenueEur[index].totalEur));
      // Today: +998 paid; −948 (₩13110 of ₩13800 is 13110 × 998 / 13800 = 948.1 cents) and −474 refunded.
      expect(delta[29]).to.equal(998 - 948 - 474);
      // Two days ago: the refunded order's payment is still that day's revenue.
      expect(delta[27]).to.equal(499);
      expect(delta.filter((_, index) => index !== 29 && index !== 27)).to.deep.equal(Array(28).fill(0));
      expect(after.ordersByState['5'] - before.ordersByState['5']).to.equal(2);
    });

    it('orders by state follow the orders as they move', async () => {
      const platform = await createPlatform({ needsInvitation: true });
      const before = await dashboard();
      // Three buyers: one buyer's same choice while their order is open (state 0) would be that order again.
      const ids = [await createOrder(await buyer(), platform), await createOrder(await buyer(), platform), await createOrder(await buyer(), platform)];
      const created = await dashboard();
      expect(created.ordersByState['0'] - before.ordersByState['0']).to.equal(3);
      await markPaidQuietly(ids[0]);
      await knex()('orders').where({ id: ids[1] }).update({ state: 3 });
      const moved = await dashboard();
      expect(
        Object.fromEntries(Object.keys(moved.ordersByState).map((state) => [state, moved.ordersByState[state] - before.ordersByState[state]])),
      ).to.deep.equal({ '0': 1, '1': 0, '2': 0, '3': 1, '4': 0, '5': 0, '6': 1 });
    });

    it('slot occupancy per platform: slots on active accounts and those held now (a whole account counts whole); a broken account has none free', async () => {
      const platform = await createPlatform({ slotsCount: 3 });
      const empty = await createPlatform();
      await createAccount(platform.id, 3);
      const single = await createAccount(platform.id, 1);
      const inactive = await createAccount(platform.id, 5);
      await knex()('platform_accounts').where({ id: inactive.id }).update({ is_active: false });
      const occupancy = async (platformId: number) => (await dashboard()).slotOccupancy.find((entry) => entry.platformId === platformId);

      expect(await occupancy(platform.id)).to.deep.equal({ platformId: platform.id, name: platform.name, slots: 4, used: 0, free: 4, broken: 0 });
      expect(await occupancy(empty.id)).to.deep.equal({ platformId: empty.id, name: empty.name, slots: 0, used: 0, free: 0, broken: 0 });
      // In the staff member's language when they give it: the Korean name for a Korean admin.
      const korean = (await staffGet('/api/admin/dashboard').query({ languageId: 2 }).expect(200)).body as Dashboard;
      expect(korean.slotOccupancy.find((entry) => entry.platformId === platform.id)?.name).to.equal(`${platform.name} (KO)`);

      for (let i = 0; i < 4; i += 1) {
        const orderId = await createOrder(await buyer(), platform);
        await markPaidQuietly(orderId);
        await activation().activate(orderId);
      }
      expect(await occupancy(platform.id)).to.deep.equal({ platformId: platform.id, name: platform.name, slots: 4, used: 4, free: 0, broken: 0 });

      // A subscription that has ended frees its slot at once.
      const [first] = await knex()('subscriptions')
        .join('platform_accounts', 'platform_accounts.id', 'subscriptions.platform_account_id')
        .where('platform_accounts.platform_id', platform.id)
        .where('subscriptions.slot', 0)
        .select('subscriptions.id');
      await knex()('subscriptions').where({ id: first.id }).update({ status: 'ended', ended_at: now() });
      expect(await occupancy(platform.id)).to.include({ slots: 4, used: 3, free: 1, broken: 0 });

      // Issue 33: staff mark the account with the free slot broken; its slot is no longer free.
      await api()
        .post('/api/subscribe/setaccounthealth')
        .set(moderator.auth)
        .send({ accountId: single.id, state: 'broken', reason: 'owner changed the password' })
        .expect(200);
      expect(await occupancy(platform.id)).to.include({ slots: 4, used: 3, free: 0, broken: 1 });
    });

    it('waiting past 24 hours: paid orders not activated a day after payment, oldest first, with whole hours', async () => {
      const platform = await createPlatform({ needsInvitation: true }); // waits for staff
      const user = await buyer();
      // Each is paid before the next is made: the same choice while one is open (state 0) is that order again.
      const paidOrder = async () => {
        const id = await createOrder(user, platform);
        await markPaidQuietly(id);
        return id;
      };
      const [late, later, recent] = [await paidOrder(), await paidOrder(), await paidOrder()];
      const paid = (hoursAgo: number) => new Date(now().getTime() - hoursAgo * HOUR_MS - 60_000);
      const times = { [late]: paid(50), [later]: paid(30), [recent]: paid(23) };
      for (const id of [late, later, recent]) await knex()('orders').where({ id }).update({ paid_at: times[id] });

      const { waitingPast24h } = await dashboard();
      const mine = waitingPast24h.filter((entry) => [late, later, recent].includes(entry.orderId));
      expect(mine.map((entry) => [entry.orderId, entry.hours])).to.deep.equal([
        [late, 50],
        [later, 30],
      ]);
      expect(mine.map((entry) => entry.paidAt)).to.deep.equal([times[late].toISOString(), times[later].toISOString()]);
      const paidTimes = waitingPast24h.map((entry) => entry.paidAt);
      expect(paidTimes).to.deep.equal([...paidTimes].sort());

      // Once activated, an order is no longer late.
      await createAccount(platform.id, 3);
      await api().post('/api/webhook/activatesubscribe').set(moderator.auth).send({ orderId: late }).expect(200);
      expect((await dashboard()).waitingPast24h.map((entry) => entry.orderId)).to.not.include(late);
    });
  });

  describe('audit log (GET /api/audit/log, /api/audit/logpages)', () => {
    it('lists entries newest first with actor, action, target, details, IP and time; pages like the other lists', async () => {
      const ip = uniqueIp();
      await api(harness().app, ip).get('/api/order/export.csv?state=2').set(moderator.auth).expect(200);
      const { body } = await staffGet('/api/audit/log?page=1&limit=10', admin).expect(200);
      expect(body).to.have.length.at.most(10);
      expect(body[0]).to.have.all.keys('id', 'at', 'actor', 'action', 'target', 'details', 'ip');
      expect(body[0]).to.deep.include({
        actor: { userId: moderator.id, label: moderator.email },
        action: 'orders.export',
        target: { type: 'orders', id: null },
        ip,
      });
      expect(body[0].details).to.include({ state: 2, format: 'csv' });
      expect(new Date(body[0].at).toISOString()).to.equal(body[0].at);
      const ids = body.map((entry: { id: number }) => entry.id);
      expect(ids).to.deep.equal([...ids].sort((a, b) => b - a));

      for (const limit of [10, 20, 50, 100]) {
        const [{ n }] = await knex()('audit_log').count<Array<{ n: number }>>('id as n');
        const count = Number(n);
        const pages = Math.ceil(count / limit);
        expect((await staffGet(`/api/audit/logpages?limit=${limit}`, admin).expect(200)).body).to.deep.equal({ pages, count });
        expect((await staffGet(`/api/audit/log?page=${pages}&limit=${limit}`, admin).expect(200)).body).to.have.length(count - (pages - 1) * limit);
        expect((await staffGet(`/api/audit/log?page=${pages + 1}&limit=${limit}`, admin).expect(200)).body).to.deep.equal([]);
      }
    });

    it('filters by action; nothing found is { pages: 0, count: 0 }; bad paging is 400', async () => {
      const exports = (await staffGet('/api/audit/log?action=orders.export&limit=100', admin).expect(200)).body;
      expect(exports.length).to.be.greaterThan(0);
      expect(exports.every((entry: { action: string }) => entry.action === 'orders.export')).to.equal(true);
      expect((await staffGet('/api/audit/logpages?action=no.such.action', admin).expect(200)).body).to.deep.equal({ pages: 0, count: 0 });
      expect((await staffGet('/api/audit/log?action=no.such.action', admin).expect(200)).body).to.deep.equal([]);
      for (const path of ['/api/audit/log?page=0', '/api/audit/log?limit=101', '/api/audit/logpages?limit=0']) {
        const res = await staffGet(path, admin);
        expect([res.status, res.body.code], path).to.deep.equal([400, 'validation']);
      }
    });
  });
});
