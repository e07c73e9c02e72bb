import { expect } from 'chai';
import request from 'supertest';
import { harness } from '../support/harness.js';
import { ensureWebBuilt } from '../support/web-build.js';

describe('serving the web app', () => {
  before(function () {
    this.timeout(180_000);
    ensureWebBuilt();
  });

  it('answers client routes with the app shell, revalidated on every load', async () => {
    for (const path of ['/', '/platform/1', '/user/5', '/jve/orders/2', '/termsandconditions']) {
      const res = await request(harness().app).get(path).expect(200).expect('Content-Type', /html/);
      expect(res.headers['cache-control']).to.equal('no-cache');
      expect(res.text).to.contain('<div id="root">');
    }
  });

  it('serves hashed assets as immutable for a year, compressed', async () => {
    const shell = await request(harness().app).get('/').expect(200);
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(shell.text)?.[1];
    expect(script, 'the shell links a hashed script').to.be.a('string');
    const res = await request(harness().app).get(script!).set('Accept-Encoding', 'gzip').expect(200);
    expect(res.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).to.equal('gzip');
  });

  it('answers a missing asset with 404 instead of the app shell', async () => {
    await request(harness().app).get('/assets/does-not-exist-123.js').expect(404);
    await request(harness().app).get('/media/platforms/nope.svg').expect(404);
  });

  it('serves the icon at /favicon.svg and at /favicon.ico, where browsers look without a <link rel=icon>', async () => {
    const svg = await request(harness().app).get('/favicon.svg').expect(200);
    for (const path of ['/favicon.ico', '/favicon.ico?v=2']) {
      const res = await request(harness().app).get(path).expect(200);
      expect(res.headers['content-type'], path).to.contain('image/svg+xml');
      expect(res.body.toString(), path).to.equal(svg.body.toString()).and.to.contain('<svg');
    }
  });

  it('serves platform logos from /media', async () => {
    const res = await request(harness().app).get('/media/platforms/orbitview.svg').expect(200);
    expect(res.headers['content-type']).to.contain('image/svg+xml');
  });
});
