import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import request from 'supertest';
import { createUser, loginAs } from '../support/agent.js';
import { harness } from '../support/harness.js';
import { decoded, rawGet } from '../support/raw-http.js';
import { buyer, createOrder, createPlatform } from '../support/shop.js';
import { ensureWebBuilt } from '../support/web-build.js';

const WEB_DIST = fileURLToPath(new URL('../../packages/web/dist/', import.meta.url));

describe('HTTP basics: errors, limits, headers, health', () => {
  it('GET /api/health reports the database and migrations', async () => {
    const res = await request(harness().app).get('/api/health').expect(200);
    expect(res.body).to.include({ status: 'ok', database: 'ok', pendingMigrations: 0 });
  });

  it('answers unknown /api paths with a JSON 404, whatever the method', async () => {
    const get = await request(harness().app).get('/api/does/not/exist').expect(404).expect('Content-Type', /json/);
    expect(get.body).to.deep.equal({ message: 'There is no GET /api/does/not/exist.', code: 'route_not_found' });
    const post = await request(harness().app).post('/api/does/not/exist').send({}).expect(404);
    expect(post.body.code).to.equal('route_not_found');
  });

  it('answers malformed JSON with 400 and oversized bodies with 413, as JSON', async () => {
    const malformed = await request(harness().app).post('/api/anything').set('Content-Type', 'application/json').send('{"email": ').expect(400);
    expect(malformed.body).to.deep.equal({ message: 'The request body is not valid JSON.', code: 'malformed_json' });
    const big = JSON.stringify({ blob: 'x'.repeat(64 * 1024) });
    const tooLarge = await request(harness().app).post('/api/anything').set('Content-Type', 'application/json').send(big).expect(413);
    expect(tooLarge.body.code).to.equal('payload_too_large');
  });

  it('sets security headers and never says what runs it', async () => {
    const res = await request(harness().app).get('/api/main/home').expect(200);
    expect(res.headers).to.not.have.property('x-powered-by');
    expect(res.headers['x-content-type-options']).to.equal('nosniff');
    expect(res.headers['content-security-policy']).to.contain("default-src 'self'").and.contain("frame-ancestors 'none'");
    // The catalog reads are public (catalog.test.ts); every other API answer is no-store.
    const other = await request(harness().app).get('/api/main/getcountry').expect(200);
    expect(other.headers['cache-control']).to.equal('no-store');
    expect(other.headers['x-content-type-options']).to.equal('nosniff');
  });

  it('sends a built script only the headers that act on a script; pages keep the document headers', async () => {
    ensureWebBuilt();
    const script = readdirSync(path.join(WEB_DIST, 'assets')).find((file) => file.endsWith('.js'))!;
    const asset = await request(harness().app).get(`/assets/${script}`).expect(200);
    expect(asset.headers['x-content-type-options']).to.equal('nosniff');
    expect(asset.headers['cross-origin-resource-policy']).to.equal('same-origin');
    for (const documentOnly of ['content-security-policy', 'x-frame-options', 'cross-origin-opener-policy', 'referrer-policy', 'origin-agent-cluster'])
      expect(asset.headers, documentOnly).to.not.have.property(documentOnly);
    const page = await request(harness().app).get('/platform/1').expect(200);
    expect(page.headers['content-security-policy']).to.contain("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).to.equal('SAMEORIGIN');
    expect(page.headers['x-content-type-options']).to.equal('nosniff');
  });

  it('compresses responses when the client accepts it', async () => {
    const res = await request(harness().app).get('/api/main/home').set('Accept-Encoding', 'gzip').expect(200);
    expect(res.headers['content-encoding']).to.equal('gzip');
  });

  it('compresses a per-request JSON answer from 1 KB as the client accepts (br, gzip), and a small one not at all', async () => {
    const admin = await loginAs('admin');
    await Promise.all(Array.from({ length: 12 }, () => createUser()));
    const ask = async (encoding: string, limit = 20) => {
      const res = await rawGet(`/api/user/getusers?page=1&limit=${limit}`, { ...admin.auth, 'Accept-Encoding': encoding });
      if (res.status !== 200) throw new Error(`status ${res.status}`);
      return res;
    };
    const plain = await ask('identity');
    expect(plain.headers['content-encoding']).to.equal(undefined);
    expect(plain.body.length).to.be.greaterThan(1024);
    const users = JSON.parse(plain.body.toString('utf8'));
    const br = await ask('gzip, deflate, br');
    expect(br.headers['content-encoding']).to.equal('br');
    expect(JSON.parse(decoded(br).toString('utf8'))).to.deep.equal(users);
    const gzip = await ask('gzip');
    expect(gzip.headers['content-encoding']).to.equal('gzip');
    expect(JSON.parse(decoded(gzip).toString('utf8'))).to.deep.equal(users);
    for (const res of [plain, br, gzip]) {
      expect(res.headers.vary).to.match(/Accept-Encoding/);
      expect(res.headers['cache-control']).to.equal('no-store');
      expect(Number(res.headers['content-length'])).to.equal(res.body.length);
    }
    const small = await ask('gzip, br', 1);
    expect(small.headers['content-encoding']).to.equal(undefined);
    expect(JSON.parse(small.body.toString('utf8'))).to.have.length(1);
  });

  it('compresses a JSON answer over 32 KB (off the event loop) and a CSV export (through the middleware) as the client accepts', async () => {
    const admin = await loginAs('admin');
    const document = await rawGet(`/api/openapi.json`, { 'Accept-Encoding': 'identity' });
    expect(document.status).to.equal(200);
    expect(document.body.length).to.be.greaterThan(32 * 1024);
    for (const encoding of ['br', 'gzip'] as const) {
      const res = await rawGet(`/api/openapi.json`, { 'Accept-Encoding': encoding });
      expect(res.headers['content-encoding']).to.equal(encoding);
      expect(Number(res.headers['content-length'])).to.equal(res.body.length);
      expect(res.body.length).to.be.lessThan(document.body.length / 3);
      expect(decoded(res).equals(document.body)).to.equal(true);
    }
    // Enough orders for an export over 1 KB (the middleware's threshold).
    const platform = await createPlatform();
    // One buyer each: a buyer's second order of the same choice within the hour is the first one again.
    await Promise.all(Array.from({ length: 12 }, async () => createOrder(await buyer(), platform)));
    const csv = await rawGet(`/api/order/export.csv`, { ...admin.auth, 'Accept-Encoding': 'identity' });
    expect(csv.status).to.equal(200);
    const gzipped = await rawGet(`/api/order/export.csv`, { ...admin.auth, 'Accept-Encoding': 'gzip' });
    expect(csv.body.length).to.be.greaterThan(1024);
    expect(gzipped.headers['content-type']).to.match(/^text\/csv/);
    expect(gzipped.headers['content-encoding']).to.equal('gzip');
    expect(decoded(gzipped).equals(csv.body)).to.equal(true);
  });

  it('getcountry and loginpagedata follow Accept-Language when no country header is trusted', async () => {
    const ko = await request(harness().app).get('/api/main/getcountry').set('Accept-Language', 'ko-KR,en;q=0.5').expect(200);
    expect(ko.body).to.equal(2);
    const en = await request(harness().app).get('/api/main/getcountry').set('Accept-Language', 'en-GB').expect(200);
    expect(en.body).to.equal(1);
    const page = await request(harness().app).get('/api/main/loginpagedata').set('Accept-Language', 'ko').expect(200);
    expect(page.body).to.deep.equal({ country: 'KR' });
    // The header is negotiated, not read from its first entry: weights count, and so do the
    // languages after one the shop does not speak; `*` and none at all are English.
    const weighed: Array<[string, number]> = [
      ['en;q=0.4, ko-KR', 2],
      ['fr-FR, ko;q=0.8, en;q=0.5', 2],
      ['de, en;q=0.9, ko;q=0.8', 1],
      ['ko;q=0, *', 1],
      ['*', 1],
      ['', 1],
    ];
    for (const [header, language] of weighed) {
      const answer = await request(harness().app).get('/api/main/getcountry').set('Accept-Language', header).expect(200);
      expect(answer.body, header).to.equal(language);
    }
  });

  it('believes a configured country header before Accept-Language', async () => {
    const { app } = harness().appWith({ COUNTRY_HEADER: 'CF-IPCountry' });
    const korea = await request(app).get('/api/main/loginpagedata').set('CF-IPCountry', 'KR').set('Accept-Language', 'en-US').expect(200);
    expect(korea.body).to.deep.equal({ country: 'KR' });
    expect((await request(app).get('/api/main/getcountry').set('CF-IPCountry', 'kr').expect(200)).body).to.equal(2);
    const abroad = await request(app).get('/api/main/getcountry').set('CF-IPCountry', 'DE').set('Accept-Language', 'ko-KR').expect(200);
    expect(abroad.body).to.equal(1);
    // Without the header, Accept-Language decides.
    expect((await request(app).get('/api/main/getcountry').set('Accept-Language', 'ko').expect(200)).body).to.equal(2);
    // An unconfigured app ignores the header: anyone can send it.
    expect((await request(harness().app).get('/api/main/getcountry').set('CF-IPCountry', 'KR').set('Accept-Language', 'en').expect(200)).body).to.equal(1);
  });

  it('serves the business details from configuration', async () => {
    const res = await request(harness().app).get('/api/main/business').expect(200);
    expect(res.body).to.have.all.keys('name', 'registrationNumber', 'mailOrderNumber', 'address', 'representative', 'supportPhone', 'supportEmail');
  });
});
