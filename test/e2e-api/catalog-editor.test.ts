import { expect } from 'chai';
import type { Express } from 'express';
import { CatalogService } from '@subshare/core';
import type * as wire from '@subshare/core/wire';

type Editable = wire.catalogAdmin.EditablePlatform;
type ListItem = wire.catalogAdmin.PlatformListItem;
type StorePlatform = wire.catalog.Platform;
import { api, loginAs, type TestUser } from '../support/agent.js';
import { harness } from '../support/harness.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4720000000049454e44ae426082',
  'hex',
);

/** A platform as the editor sends it: one month and one type, priced in EUR cents and KRW won. */
function newPlatform(name = `Editor ${Date.now()}`) {
  return {
    name: { en: name, ko: `${name} 한국어` },
    description: { en: 'Shared plan.', ko: '공유 요금제.' },
    howItWorks: [{ en: 'Pay', ko: '결제' }],
    faq: [{ question: { en: 'Is it legal?', ko: '합법인가요?' }, answer: { en: 'Yes.', ko: '네.' } }],
    colorOne: '#112233',
    colorTwo: '#445566',
    logoBase: '/media/platforms/netflix.svg',
    logoCarousel: '/media/platforms/netflix.svg',
    category: 0,
    slotsCount: 4,
    needsInvitation: false,
    isEnabled: true,
    durations: [
      { key: 'm1', name: { en: '1 Month', ko: '1개월' }, months: 1, isEnabled: true },
      { key: 'm3', name: { en: 'Quarter', ko: '3개월' }, months: 3, isEnabled: true },
    ],
    types: [{ key: 'std', name: { en: 'Standard', ko: '스탠다드' }, isEnabled: true }],
    prices: [
      { durationKey: 'm1', typeKey: 'std', eur: { price: 900, salePrice: 499 }, krw: { price: 9000, salePrice: 6900 } },
      { durationKey: 'm3', typeKey: 'std', eur: { price: 2500, salePrice: 1299 }, krw: { price: 25000, salePrice: 17900 } },
    ],
  };
}

/** The editable platform sent back as an update (the answer's fields the input takes). */
function asUpdate(platform: wire.catalogAdmin.EditablePlatform) {
  const { updatedAt: _updatedAt, ...rest } = platform;
  return {
    ...rest,
    durations: platform.durations.map(({ hasOrders: _hasOrders, ...d }) => d),
    types: platform.types.map(({ hasOrders: _hasOrders, ...t }) => t),
  };
}

describe('catalog editor (GET /api/catalog/platforms, platform; POST createplatform, updateplatform, setenabled, uploadlogo)', function () {
  this.timeout(60_000);
  let app: Express;
  let admin: TestUser;
  let otherAdmin: TestUser;
  let moderator: TestUser;
  let buyer: TestUser;

  before(async () => {
    app = harness().app;
    [admin, otherAdmin, moderator, buyer] = await Promise.all([loginAs('admin'), loginAs('admin'), loginAs('moderator'), loginAs('user')]);
  });

  const create = (body: unknown, who: TestUser = admin) =>
    api(app)
      .post('/api/catalog/createplatform')
      .set(who.auth)
      .send(body as object);

  it('creates a platform with prices in both currencies, which the storefront sells at once in EUR and KRW', async () => {
    const created: Editable = (await create(newPlatform()).expect(200)).body;
    expect(created.version).to.equal(1);
    expect(created.name.ko).to.contain('한국어');
    expect(created.durations.map((d) => [d.months, d.name.en, d.hasOrders])).to.deep.equal([
      [1, '1 Month', false],
      [3, 'Quarter', false],
    ]);
    const m3 = created.durations.find((d) => d.months === 3)!;
    const std = created.types[0];
    expect(created.prices.find((p) => p.durationKey === m3.key && p.typeKey === std.key)).to.deep.include({
      eur: { price: 2500, salePrice: 1299 },
      krw: { price: 25000, salePrice: 17900 },
    });

    const eur: StorePlatform = (await api(app).get('/api/platform/getplatform').query({ id: created.id, languageId: 1, currency: 'EUR' }).expect(200)).body
      .platform;
    expect(eur.name).to.equal(created.name.en);
    expect(eur.duration.map((d) => d.name)).to.deep.equal(['1 Month', 'Quarter']);
    const price = eur.prices.find((p) => p.durationId === m3.id && p.typeId === std.id)!;
    expect(price.salePrice).to.deep.include({ currencyId: 1, price: 12.99 });
    expect(price.salePrice).to.deep.include({ currencyId: 2, price: 17900 });
    const ko: StorePlatform = (await api(app).get('/api/platform/getplatform').query({ id: created.id, languageId: 2 }).expect(200)).body.platform;
    expect(ko.type[0].name).to.equal('스탠다드');
    expect(ko.faq[0].question).to.equal('합법인가요?');

    const list: ListItem[] = (await api(app).get('/api/catalog/platforms').set(admin.auth).expect(200)).body;
    expect(list.find((p) => p.id === created.id)).to.deep.include({ isEnabled: true, enabledDurations: 2, enabledTypes: 1, ordersCount: 0 });

    const audit = await harness()
      .knex('audit_log')
      .where({ action: 'catalog.platform_create', target_id: String(created.id) })
      .first();
    expect(audit.actor_user_id).to.equal(admin.id);
    expect(audit.details.before).to.equal(null);
    expect(audit.details.after.name.en).to.equal(created.name.en);
  });

  it('refuses bad input with a message per field', async () => {
    const base = newPlatform();
    const bad = {
      ...base,
      name: { en: 'Only English' },
      colorOne: 'red',
      category: 3,
      slotsCount: 'many',
      prices: [
        { ...base.prices[0], krw: { price: 9000.5, salePrice: 6900 } },
        { ...base.prices[1], eur: { price: 1000, salePrice: 1299 } },
      ],
    };
    const { body } = await create(bad).expect(400);
    expect(body.code).to.equal('validation');
    expect(body.errors).to.include.keys('name.ko', 'colorOne', 'category', 'slotsCount', 'prices[0].krw.price', 'prices[1].eur.salePrice');
    expect(body.errors['prices[0].krw.price']).to.match(/whole won/);
    expect(body.errors['prices[1].eur.salePrice']).to.match(/sale price cannot be higher/);

    const missing = (await create({ ...base, prices: [base.prices[0]] }).expect(400)).body;
    expect(missing.errors.prices).to.match(/missing for Quarter × Standard/);

    const wrongTypes = (await create({ ...base, durations: 'all', isEnabled: 'yes' }).expect(400)).body;
    expect(wrongTypes.errors).to.include.keys('durations', 'isEnabled');

    const nothingOnSale = (await create({ ...base, durations: base.durations.map((d) => ({ ...d, isEnabled: false })), prices: [] }).expect(400)).body;
    expect(nothingOnSale.errors.durations).to.match(/at least one enabled duration/);
    const hiddenEmpty: Editable = (
      await create({ ...base, isEnabled: false, durations: base.durations.map((d) => ({ ...d, isEnabled: false })), prices: [] }).expect(200)
    ).body;
    const shown = (await api(app).post('/api/catalog/setenabled').set(admin.auth).send({ id: hiddenEmpty.id, version: 1, isEnabled: true }).expect(400)).body;
    expect(shown.code).to.equal('nothing_on_sale');

    const proto = await api(app)
      .post('/api/catalog/createplatform')
      .set(admin.auth)
      .set('Content-Type', 'application/json')
      .send('{"__proto__":{"isAdmin":true}}')
      .expect(400);
    expect(proto.body.code).to.equal('forbidden_key');
  });

  it('names options per platform on shared rows: a type of the same English name is one shared type', async () => {
    const first: Editable = (await create(newPlatform()).expect(200)).body;
    const second: Editable = (await create({ ...newPlatform(), types: [{ key: 'std', name: { en: 'standard', ko: '기본' }, isEnabled: true }] }).expect(200))
      .body;
    expect(second.types[0]!.id).to.equal(first.types[0]!.id);
    expect(second.types[0]!.name).to.deep.equal({ en: 'standard', ko: '기본' });
    const ko: StorePlatform = (await api(app).get('/api/platform/getplatform').query({ id: first.id, languageId: 2 }).expect(200)).body.platform;
    expect(ko.type[0]!.name).to.equal('스탠다드');
    expect(ko.duration.map((d) => d.name)).to.deep.equal(['1개월', '3개월']);
  });

  it('takes a platform with long texts in both languages (a larger body limit than the 32 KiB of other calls)', async () => {
    const long = (n: number) => ({ en: 'E'.repeat(n), ko: '한'.repeat(n) });
    const body = { ...newPlatform(), faq: Array.from({ length: 20 }, () => ({ question: long(200), answer: long(2000) })) };
    expect(Buffer.byteLength(JSON.stringify(body))).to.be.above(100 * 1024);
    const created: Editable = (await create(body).expect(200)).body;
    expect(created.faq).to.have.length(20);
    expect(created.faq[19]!.answer.ko).to.have.length(2000);
    const tooLong = (await create({ ...body, faq: [{ question: long(201), answer: long(10) }] }).expect(400)).body;
    expect(tooLong.errors['faq[0].question.ko']).to.match(/at most 200/);
  });

  it('is for admins only: a moderator and a buyer get 403, a visitor 401', async () => {
    for (const who of [moderator, buyer]) {
      await create(newPlatform(), who).expect(403);
      await api(app).get('/api/catalog/platforms').set(who.auth).expect(403);
      await api(app).post('/api/catalog/uploadlogo').set(who.auth).set('Content-Type', 'image/png').send(PNG).expect(403);
    }
    await api(app).get('/api/catalog/platform').query({ id: 1 }).expect(401);
  });

  it('answers a stale version with 409 and what changed, so the second admin does not overwrite the first', async () => {
    const created: Editable = (await create(newPlatform()).expect(200)).body;
    const read: Editable = (await api(app).get('/api/catalog/platform').set(otherAdmin.auth).query({ id: created.id }).expect(200)).body;

    const first = asUpdate(created);
    first.prices[0].eur = { price: 900, salePrice: 599 };
    const saved: Editable = (await api(app).post('/api/catalog/updateplatform').set(admin.auth).send(first).expect(200)).body;
    expect(saved.version).to.equal(2);

    const second = { ...asUpdate(read), colorOne: '#abcdef' };
    const conflict = (await api(app).post('/api/catalog/updateplatform').set(otherAdmin.auth).send(second).expect(409)).body;
    expect(conflict.code).to.equal('catalog_conflict');
    expect(conflict.version).to.equal(2);
    // What the first admin changed since the second read it; not the second admin's own colour.
    expect(conflict.fields).to.deep.equal(['prices']);
    expect(conflict.current.prices[0].eur).to.deep.equal({ price: 900, salePrice: 599 });
    const stored = await harness().knex('platforms').where({ id: created.id }).first();
    expect(stored.color_one).to.equal('#112233');

    // Seen the change, saved on top of it.
    const again = (
      await api(app)
        .post('/api/catalog/updateplatform')
        .set(otherAdmin.auth)
        .send({ ...asUpdate(conflict.current), colorOne: '#abcdef' })
        .expect(200)
    ).body;
    expect(again.version).to.equal(3);

    const staleHide = (await api(app).post('/api/catalog/setenabled').set(admin.auth).send({ id: created.id, isEnabled: false, version: 2 }).expect(409)).body;
    expect(staleHide.fields).to.deep.equal(['colorOne']);
    expect(staleHide.current.colorOne).to.equal('#abcdef');
    const hidden = (await api(app).post('/api/catalog/setenabled').set(admin.auth).send({ id: created.id, isEnabled: false, version: 3 }).expect(200)).body;
    expect(hidden.isEnabled).to.equal(false);
    await api(app).get('/api/platform/getplatform').query({ id: created.id }).expect(404);

    const actions = await harness()
      .knex('audit_log')
      .where({ target_type: 'platform', target_id: String(created.id) })
      .orderBy('id')
      .pluck('action');
    expect(actions).to.deep.equal(['catalog.platform_create', 'catalog.platform_update', 'catalog.platform_update', 'catalog.platform_enable']);
    const update = await harness()
      .knex('audit_log')
      .where({ action: 'catalog.platform_update', target_id: String(created.id) })
      .orderBy('id')
      .first();
    expect(update.details.before.prices[0].eur.salePrice).to.equal(499);
    expect(update.details.after.prices[0].eur.salePrice).to.equal(599);
    expect(update.details.changed).to.deep.equal(['prices']);
  });

  it("keeps a buyer's order as sold when prices change, and an ordered option can be disabled but not removed", async () => {
    const created: Editable = (await create(newPlatform()).expect(200)).body;
    harness().container.get(CatalogService).invalidate();
    const m1 = created.durations.find((d) => d.months === 1)!;
    const order = (
      await api(app)
        .post('/api/order/insert')
        .set(buyer.auth)
        .send({ platformId: created.id, typeId: created.types[0].id, durationId: m1.id, languageId: 1, currency: 'KRW' })
        .expect(200)
    ).body;
    expect(order.total).to.equal(6900);

    const read: Editable = (await api(app).get('/api/catalog/platform').set(admin.auth).query({ id: created.id }).expect(200)).body;
    expect(read.durations.find((d) => d.months === 1)!.hasOrders).to.equal(true);
    expect(read.types[0].hasOrders).to.equal(true);
    expect(
      ((await api(app).get('/api/catalog/platforms').set(admin.auth).expect(200)).body as ListItem[]).find((p) => p.id === created.id)!.ordersCount,
    ).to.equal(1);

    const repriced = asUpdate(read);
    repriced.prices = repriced.prices.map((p) => ({ ...p, krw: { price: 20000, salePrice: 15000 } }));
    await api(app).post('/api/catalog/updateplatform').set(admin.auth).send(repriced).expect(200);
    const after = (await api(app).get('/api/order/getorder').set(buyer.auth).query({ id: order.id }).expect(200)).body;
    expect(after.total).to.equal(6900);
    const row = await harness().knex('orders').where({ id: order.id }).first();
    expect(Number(row.total_minor)).to.equal(6900);

    const current: Editable = (await api(app).get('/api/catalog/platform').set(admin.auth).query({ id: created.id }).expect(200)).body;
    const removed = asUpdate(current);
    removed.durations = removed.durations.filter((d) => d.months !== 1);
    removed.prices = removed.prices.filter((p) => p.durationKey !== String(m1.id));
    const refused = (await api(app).post('/api/catalog/updateplatform').set(admin.auth).send(removed).expect(409)).body;
    expect(refused.code).to.equal('option_has_orders');

    const disabled = asUpdate(current);
    disabled.durations = disabled.durations.map((d) => (d.months === 1 ? { ...d, isEnabled: false } : d));
    const saved: Editable = (await api(app).post('/api/catalog/updateplatform').set(admin.auth).send(disabled).expect(200)).body;
    expect(saved.durations.find((d) => d.months === 1)).to.deep.include({ isEnabled: false, hasOrders: true });
  });

  it('takes a logo by its real type, sanitises SVG, and serves it from the database with safe headers', async () => {
    const upload = (body: Buffer | string, type: string, who: TestUser = admin) =>
      api(app)
        .post('/api/catalog/uploadlogo')
        .set(who.auth)
        .set('Content-Type', type)
        .send(Buffer.isBuffer(body) ? body : Buffer.from(body));

    const png = (await upload(PNG, 'image/png').expect(200)).body;
    expect(png.url).to.match(/^\/media\/uploads\/[0-9a-f]{64}\.png$/);
    const served = await api(app).get(png.url).buffer(true).expect(200);
    expect(served.headers['content-type']).to.equal('image/png');
    expect(served.headers['cache-control']).to.contain('immutable');
    expect(served.headers['x-content-type-options']).to.equal('nosniff');
    expect(Buffer.compare(served.body, PNG)).to.equal(0);

    const mismatch = (await upload(PNG, 'image/svg+xml').expect(400)).body;
    expect(mismatch.code).to.equal('upload_type_mismatch');
    expect((await upload('<html><body>hi</body></html>', 'image/svg+xml').expect(400)).body.code).to.equal('upload_type_mismatch');
    expect((await upload(PNG, 'text/html').expect(400)).body.code).to.equal('upload_type_unsupported');
    await upload(Buffer.concat([PNG, Buffer.alloc(300 * 1024)]), 'image/png').expect(413);

    const hostile = `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)"><rect width="10" height="10" fill="#f00" onclick="alert(4)"/></a><use xlink:href="https://evil.example/x.svg#a"/><foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject><circle cx="5" cy="5" r="2" fill="url(#g)"/></svg>`;
    const svg = (await upload(hostile, 'image/svg+xml').expect(200)).body;
    expect(svg.sanitized).to.equal(true);
    const servedSvg = await api(app)
      .get(svg.url)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => done(null, text));
      });
    expect(servedSvg.status).to.equal(200);
    expect(servedSvg.headers['content-type']).to.equal('image/svg+xml');
    expect(servedSvg.headers['content-security-policy']).to.equal("default-src 'none'; style-src 'unsafe-inline'");
    const text = servedSvg.body as string;
    for (const bad of ['<script', 'onload', 'onclick', 'javascript:', 'foreignObject', 'evil.example']) expect(text).to.not.contain(bad);
    expect(text).to.contain('<rect width="10" height="10" fill="#f00"/>');
    expect(text).to.contain('fill="url(#g)"');

    const audit = await harness().knex('audit_log').where({ action: 'catalog.logo_upload', target_id: svg.sha256 }).first();
    expect(audit.details.after).to.deep.include({ url: svg.url, sanitized: true });
    await api(app)
      .get(`/media/uploads/${'0'.repeat(64)}.png`)
      .expect(404);

    const document = (await api(app).get('/api/openapi.json').expect(200)).body;
    expect(Object.keys(document.paths['/api/catalog/uploadlogo'].post.requestBody.content)).to.have.members(['image/svg+xml', 'image/png', 'image/webp']);
  });
});
