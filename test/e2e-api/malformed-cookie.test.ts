/**
 * A cookie the shop did not write (a browser extension, another app on the domain, a hand-edited
 * value) may be malformed: `subshare_lang=%E0%A4%A` is not valid percent-encoding. The display
 * cookies are read with the `cookie` package, which keeps such a value as it came instead of
 * throwing: the storefront still renders on the server, the demo checkout page still answers,
 * and nothing is logged as an error (issue 36).
 */
import { Writable } from 'node:stream';
import { expect } from 'chai';
import request from 'supertest';
import { buildContainer, createLogger, PgBossJobQueue } from '@subshare/core';
import { createApp } from '@subshare/http';
import { api, loginAs } from '../support/agent.js';
import { harness } from '../support/harness.js';
import { ensureWebBuilt } from '../support/web-build.js';

const MALFORMED = ['subshare_lang=%E0%A4%A', 'subshare_currency=%E0; subshare_lang=%', 'subshare_lang=%E0%A4%A; subshare_currency=KRW'];

describe('api: a malformed cookie', function () {
  this.timeout(60_000);
  let written = '';
  const errors = () =>
    written
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter((line) => line.level >= 50);
  const app = () => {
    const { config, knex, boss, clock } = harness();
    const sink = new Writable({
      write(chunk, _encoding, done) {
        written += chunk.toString();
        done();
      },
    });
    return createApp(buildContainer({ config, knex, logger: createLogger('warn', sink), jobQueue: new PgBossJobQueue(boss), clock }), { accessLog: false });
  };

  before(function () {
    this.timeout(180_000);
    ensureWebBuilt();
  });

  it('leaves the storefront rendered on the server, in the language the rest of the request names, and logs no error', async () => {
    const shop = app();
    for (const cookie of MALFORMED) {
      const page = await request(shop).get('/').set('Cookie', cookie).set('Accept-Language', 'ko-KR,ko;q=0.9').expect(200).expect('Content-Type', /html/);
      const root = page.text.slice(page.text.indexOf('<div id="root">'));
      expect(root, `${cookie}: rendered on the server, not the empty shell`).to.not.match(/^<div id="root"><\/div>/);
      expect(page.text, cookie).to.contain('<html lang="ko"');
    }
    // The well-formed cookie beside a malformed one still counts.
    const chosen = await request(shop).get('/').set('Cookie', 'subshare_currency=%E0; subshare_lang=1').set('Accept-Language', 'ko').expect(200);
    expect(chosen.text).to.contain('<html lang="en"');
    expect(errors()).to.deep.equal([]);
  });

  it('leaves the demo checkout page answering 200 in the visitor language', async () => {
    const buyer = await loginAs('user');
    const order = await api()
      .post('/api/order/insert')
      .set(buyer.auth)
      .send({ platformId: 1, typeId: 1, durationId: 1, languageId: 2, currency: 'KRW' })
      .expect(200);
    const { body } = await api().post('/api/payment/createcheckoutsession').set(buyer.auth).send({ orderId: order.body.id }).expect(200);
    const path = new URL(body.url).pathname;
    const shop = app();
    for (const cookie of MALFORMED) {
      const page = await request(shop).get(path).set('Cookie', cookie).set('Accept-Language', 'ko').expect(200);
      expect(page.text, cookie).to.contain('<html lang="ko">');
    }
    expect(errors()).to.deep.equal([]);
  });
});
