import { expect } from 'chai';
import request from 'supertest';
import { harness } from '../support/harness.js';
import { decoded, rawGet } from '../support/raw-http.js';
import { createPlatform } from '../support/shop.js';
import { waitFor } from '../support/wait.js';

interface WirePrice {
  currencyId: number;
  price: number;
}
interface WirePlatform {
  id: number;
  name: string;
  description: string;
  logoBase: string;
  logoCarousel: string;
  colorOne: string;
  colorTwo: string;
  howItWorks: string[];
  duration: Array<{ id: number; name: string; value: number; isEnable: boolean }>;
  type: Array<{ id: number; name: string; isEnable: boolean }>;
  prices: Array<{ durationId: number; typeId: number; price: WirePrice[]; salePrice: WirePrice[] }>;
  faq: Array<{ question: string; answer: string }>;
  slotsCount: number;
}

const SPEC_FIELDS = [
  'id',
  'name',
  'description',
  'logoBase',
  'logoCarousel',
  'colorOne',
  'colorTwo',
  'howItWorks',
  'duration',
  'type',
  'prices',
  'faq',
  'slotsCount',
];

describe('catalog API: GET /api/main/home and /api/platform/getplatform', () => {
  it('home answers every enabled platform with the spec fields and a currency code', async () => {
    const res = await request(harness().app).get('/api/main/home').query({ languageId: 1 }).expect(200).expect('Content-Type', /json/);
    expect(res.body.currencyCode).to.equal('EUR');
    expect(res.body.platforms).to.be.an('array').with.length.of.at.least(6);
    for (const platform of res.body.platforms as WirePlatform[]) {
      expect(platform).to.include.all.keys(...SPEC_FIELDS);
      expect(platform.duration[0]).to.have.all.keys('id', 'name', 'value', 'isEnable');
      expect(platform.type[0]).to.have.all.keys('id', 'name', 'isEnable');
      expect(platform.prices[0]).to.have.all.keys('durationId', 'typeId', 'price', 'salePrice');
    }
  });

  it('serves texts in Korean for languageId 2 and in English for 1', async () => {
    const en = await request(harness().app).get('/api/platform/getplatform').query({ id: 1, languageId: 1 }).expect(200);
    const ko = await request(harness().app).get('/api/platform/getplatform').query({ id: 1, languageId: 2 }).expect(200);
    expect(en.body.platform.description).to.not.equal(ko.body.platform.description);
    expect(ko.body.platform.description).to.match(/[\uac00-\ud7a3]/); // Hangul
    expect(en.body.platform.description).to.not.match(/[\uac00-\ud7a3]/);
    expect(ko.body.platform.duration[0].name).to.match(/개월$/);
    expect(en.body.platform.duration[0].name).to.match(/Month/);
  });

  it('prices travel as major units: EUR with cents, KRW in whole won', async () => {
    const res = await request(harness().app).get('/api/platform/getplatform').query({ id: 1 }).expect(200);
    const platform = res.body.platform as WirePlatform;
    const first = platform.prices[0];
    const eur = first.salePrice.find((p) => p.currencyId === 1)!;
    const krw = first.salePrice.find((p) => p.currencyId === 2)!;
    expect(eur.price).to.be.a('number').above(0).and.below(1000);
    expect(Math.round(eur.price * 100)).to.be.closeTo(eur.price * 100, 1e-6);
    expect(Number.isInteger(krw.price)).to.equal(true);
    expect(krw.price).to.be.above(eur.price * 100);
    const [{ count }] = await harness()
      .knex('platform_prices')
      .where({ platform_id: 1, duration_id: first.durationId, plan_type_id: first.typeId, currency: 'EUR' })
      .select('sale_price_minor as count');
    expect(Math.round(eur.price * 100)).to.equal(count);
  });

  it('Korean visitors get KRW by default; the currency query parameter overrides it', async () => {
    const korean = await request(harness().app).get('/api/main/home').set('Accept-Language', 'ko-KR,ko;q=0.9').expect(200);
    expect(korean.body.currencyCode).to.equal('KRW');
    const chosen = await request(harness().app).get('/api/main/home').set('Accept-Language', 'ko-KR').query({ currency: 'eur' }).expect(200);
    expect(chosen.body.currencyCode).to.equal('EUR');
    const platform = await request(harness().app).get('/api/platform/getplatform').query({ id: 2, currency: 'KRW' }).expect(200);
    expect(platform.body.currencyCode).to.equal('KRW');
  });

  it('shows disabled options flagged, so the client can hide them', async () => {
    const res = await request(harness().app).get('/api/main/home').expect(200);
    const platforms = res.body.platforms as WirePlatform[];
    expect(platforms.some((p) => p.duration.some((d) => !d.isEnable))).to.equal(true);
    expect(platforms.some((p) => p.type.some((t) => !t.isEnable))).to.equal(true);
    expect(platforms.some((p) => p.faq.length === 0)).to.equal(true);
  });

  it('answers 404 with a JSON error for an unknown platform and 400 for a malformed id', async () => {
    const missing = await request(harness().app).get('/api/platform/getplatform').query({ id: 999999 }).expect(404);
    expect(missing.body).to.deep.equal({ message: 'This platform does not exist.', code: 'platform_not_found' });
    const malformed = await request(harness().app).get('/api/platform/getplatform').query({ id: '1; drop table users' }).expect(400);
    expect(malformed.body.code).to.equal('validation');
    expect(malformed.body.errors).to.have.property('id');
    const absent = await request(harness().app).get('/api/platform/getplatform').expect(400);
    expect(absent.body.errors.id).to.equal('id is required');
    const badLanguage = await request(harness().app).get('/api/platform/getplatform').query({ id: 1, languageId: 7 }).expect(400);
    expect(badLanguage.body.errors).to.have.property('languageId');
  });

  it('does not show a disabled platform', async () => {
    const { knex } = harness();
    const [{ id }] = await knex('platforms')
      .insert({
        slug: `hidden-${Date.now()}`,
        category: 1,
        logo_base: '/x.svg',
        logo_carousel: '/x.svg',
        color_one: '#000000',
        color_two: '#111111',
        slots_count: 2,
        is_enabled: false,
      })
      .returning('id');
    await request(harness().app).get('/api/platform/getplatform').query({ id }).expect(404);
    const home = await request(harness().app).get('/api/main/home').expect(200);
    expect((home.body.platforms as WirePlatform[]).map((p) => p.id)).to.not.include(id);
  });
});

describe('catalog API in both languages and currencies, served from memory', () => {
  const hangul = /[\uac00-\ud7a3]/;

  /** The raw answer as a browser gets it: status, headers and the body bytes as sent. */
  it('answers home in every language and currency combination with the same platforms and prices', async () => {
    const answers = [];
    for (const languageId of [1, 2]) {
      for (const currency of ['EUR', 'KRW']) {
        const res = await request(harness().app).get('/api/main/home').query({ languageId, currency }).expect(200);
        expect(res.body.currencyCode).to.equal(currency);
        const platforms = res.body.platforms as WirePlatform[];
        const texts = platforms.map((p) => p.description).join(' ');
        if (languageId === 2) expect(texts).to.match(hangul);
        else expect(texts).to.not.match(hangul);
        for (const platform of platforms) {
          for (const price of platform.prices) expect(price.salePrice.map((p) => p.currencyId).sort()).to.deep.equal([1, 2]);
        }
        answers.push(platforms.map((p) => ({ id: p.id, prices: p.prices })));
      }
    }
    for (const answer of answers) expect(answer).to.deep.equal(answers[0]);
  });

  it('takes the currency in any case and refuses an unknown one', async () => {
    const lower = await request(harness().app).get('/api/platform/getplatform').query({ id: 1, currency: 'krw' }).expect(200);
    expect(lower.body.currencyCode).to.equal('KRW');
    const bad = await request(harness().app).get('/api/main/home').query({ currency: 'USD' }).expect(400);
    expect(bad.body.errors).to.have.property('currency');
  });

  it('follows Accept-Language for language and currency when the query names neither, and says so in Vary', async () => {
    const ko = await request(harness().app).get('/api/platform/getplatform').query({ id: 1 }).set('Accept-Language', 'ko-KR,ko;q=0.9').expect(200);
    expect(ko.body.currencyCode).to.equal('KRW');
    expect(ko.body.platform.description).to.match(hangul);
    expect(ko.headers.vary)
      .to.match(/Accept-Language/i)
      .and.match(/Accept-Encoding/i);
    const en = await request(harness().app).get('/api/platform/getplatform').query({ id: 1 }).set('Accept-Language', 'en-US').expect(200);
    expect(en.body.currencyCode).to.equal('EUR');
    expect(en.body.platform.description).to.not.match(hangul);
  });

  it('sends the same bytes with an ETag, answers 304 to a current copy, and another ETag in another language', async () => {
    const first = await rawGet('/api/main/home?languageId=1&currency=EUR', { 'accept-encoding': 'identity' });
    const second = await rawGet('/api/main/home?languageId=1&currency=EUR', { 'accept-encoding': 'identity' });
    expect(first.status).to.equal(200);
    expect(first.headers.etag).to.be.a('string');
    expect(second.headers.etag).to.equal(first.headers.etag);
    expect(second.body.equals(first.body)).to.equal(true);
    expect(first.headers['cache-control']).to.not.contain('no-store');
    expect(first.headers['content-type']).to.equal('application/json; charset=utf-8');
    const notModified = await rawGet('/api/main/home?languageId=1&currency=EUR', { 'if-none-match': first.headers.etag! });
    expect(notModified.status).to.equal(304);
    expect(notModified.body.length).to.equal(0);
    const korean = await rawGet('/api/main/home?languageId=2&currency=EUR', { 'accept-encoding': 'identity' });
    expect(korean.headers.etag).to.not.equal(first.headers.etag);
  });

  it('sends brotli or gzip as the client accepts, and plain JSON otherwise, all with the same content', async () => {
    const path = '/api/main/home?languageId=2&currency=KRW';
    const plain = await rawGet(path, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).to.equal(undefined);
    const br = await rawGet(path, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).to.equal('br');
    expect(decoded(br).equals(plain.body)).to.equal(true);
    expect(Number(br.headers['content-length']))
      .to.equal(br.body.length)
      .and.below(plain.body.length / 3);
    const gzip = await rawGet(path, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).to.equal('gzip');
    expect(decoded(gzip).equals(plain.body)).to.equal(true);
    expect(JSON.parse(plain.body.toString('utf8')).currencyCode).to.equal('KRW');
    expect(br.headers['content-security-policy'], 'security headers as on every call').to.contain("default-src 'self'");
  });

  describe('cacheable by any HTTP cache (a CDN in front serves them at the edge)', () => {
    for (const path of ['/api/main/home?languageId=1&currency=EUR', '/api/platform/getplatform?id=1&languageId=1&currency=EUR']) {
      it(`says who may keep ${path.split('?')[0]} and for how long, and answers 304 with the same headers to a current copy`, async () => {
        const first = await rawGet(path, { 'accept-encoding': 'br' });
        expect(first.status).to.equal(200);
        const cacheControl = String(first.headers['cache-control']);
        expect(cacheControl).to.match(/(^|, )public(,|$)/);
        expect(cacheControl).to.match(/(^|, )s-maxage=[1-9]\d*(,|$)/);
        expect(cacheControl).to.match(/(^|, )stale-while-revalidate=[1-9]\d*(,|$)/);
        expect(cacheControl).to.not.match(/no-store|private/);
        expect(first.headers.etag).to.match(/^"[^"]+"$/);
        const revalidated = await rawGet(path, { 'accept-encoding': 'br', 'if-none-match': `W/${first.headers.etag!}, "other"` });
        expect(revalidated.status).to.equal(304);
        expect(revalidated.body.length).to.equal(0);
        expect(revalidated.headers.etag).to.equal(first.headers.etag);
        expect(revalidated.headers['cache-control']).to.equal(cacheControl);
        expect(revalidated.headers.vary).to.match(/Accept-Encoding/i);
      });
    }

    it('keeps errors out of shared caches', async () => {
      const missing = await rawGet('/api/platform/getplatform?id=999999', { 'accept-encoding': 'identity' });
      expect(missing.status).to.equal(404);
      expect(missing.headers['cache-control']).to.equal('no-store');
    });

    it('gives a new ETag once the catalog version moves with a changed answer: a cached copy is then refreshed (200, not 304)', async () => {
      const path = '/api/main/home?languageId=1&currency=EUR';
      const before = await rawGet(path, { 'accept-encoding': 'identity' });
      const platform = await createPlatform();
      const after = await waitFor(
        async () => {
          const answer = await rawGet(path, { 'accept-encoding': 'identity', 'if-none-match': before.headers.etag! });
          return answer.status === 200 ? answer : undefined;
        },
        { what: 'the home answer to change after the catalog version moved', timeoutMs: 10_000 },
      );
      expect(after.headers.etag).to.not.equal(before.headers.etag);
      expect(JSON.parse(after.body.toString('utf8')).platforms.map((entry: { id: number }) => entry.id)).to.include(platform.id);
      expect((await rawGet(path, { 'accept-encoding': 'identity', 'if-none-match': after.headers.etag! })).status).to.equal(304);
    });
  });
});
