/**
 * The storefront's forms without script (issue 24): POST /display stores the language or
 * currency in its display cookie and goes back; GET /checkout sends a verified caller to
 * /payment with the choice (and a promotion code the link carried, issue 37) and anyone else to /login with that address as the return URL.
 */
import { expect } from 'chai';
import { api, loginAs } from '../support/agent.js';

describe('api: the storefront forms (/display, /checkout)', () => {
  it('stores a language choice in the display cookie and goes back without ?lang', async () => {
    const res = await api().post('/display').type('form').send({ lang: 'ko', return: '/platform/1?lang=en&duration=3' }).expect(303);
    expect(res.headers.location).to.equal('/platform/1?duration=3');
    const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    expect(cookies.some((cookie) => /^subshare_lang=2;/.test(cookie) && /Max-Age=31536000/.test(cookie) && /SameSite=Lax/.test(cookie))).to.equal(true);
  });

  it('stores a currency choice, and goes home for a return address off the site', async () => {
    for (const away of ['//evil.example/x', 'https://evil.example/', '/login?returnUrl=/x']) {
      const res = await api().post('/display').type('form').send({ currency: 'krw', return: away }).expect(303);
      expect(res.headers.location, away).to.equal('/');
      expect(([] as string[]).concat(res.headers['set-cookie'] ?? []).some((cookie) => cookie.startsWith('subshare_currency=KRW;'))).to.equal(true);
    }
  });

  it('refuses an unknown language or currency, or no choice at all, as JSON 400', async () => {
    for (const body of [{ lang: 'fr' }, { currency: 'USD' }, {}]) {
      const res = await api().post('/display').type('form').send(body).expect(400);
      expect(res.body.code, JSON.stringify(body)).to.equal('validation');
      expect(res.headers['set-cookie']).to.equal(undefined);
    }
  });

  it('sends a visitor to /login with the payment as the return URL', async () => {
    const res = await api().get('/checkout?platform=1&type=1&duration=3').expect(303);
    const location = new URL(res.headers.location!, 'http://shop.test');
    expect(location.pathname).to.equal('/login');
    expect(location.searchParams.get('returnUrl')).to.equal('/payment?platform=1&type=1&duration=3');
  });

  it('sends a verified buyer to /payment, an unverified one to /login', async () => {
    const verified = await loginAs();
    const res = await api().get('/checkout?platform=1&type=1&duration=3').set(verified.auth).expect(303);
    expect(res.headers.location).to.equal('/payment?platform=1&type=1&duration=3');
    const unverified = await loginAs('user', { verified: false });
    const other = await api().get('/checkout?platform=2&type=1&duration=1').set(unverified.auth).expect(303);
    expect(other.headers.location).to.equal('/login?returnUrl=%2Fpayment%3Fplatform%3D2%26type%3D1%26duration%3D1');
  });

  it('carries a promotion code (`code`) on to /payment, and drops one that cannot be a code', async () => {
    const verified = await loginAs();
    const res = await api().get('/checkout?platform=1&type=1&duration=3&code=Launch-10').set(verified.auth).expect(303);
    expect(res.headers.location).to.equal('/payment?platform=1&type=1&duration=3&code=Launch-10');
    const visitor = await api().get('/checkout?platform=1&type=1&duration=3&code=%20SPRING%20').expect(303);
    expect(new URL(visitor.headers.location!, 'http://shop.test').searchParams.get('returnUrl')).to.equal('/payment?platform=1&type=1&duration=3&code=SPRING');
    for (const junk of ['a%3Cscript%3E', 'x'.repeat(65), '']) {
      const dropped = await api().get(`/checkout?platform=1&type=1&duration=3&code=${junk}`).set(verified.auth).expect(303);
      expect(dropped.headers.location, junk).to.equal('/payment?platform=1&type=1&duration=3');
    }
  });

  it('refuses a choice with a missing or malformed field as JSON 400', async () => {
    for (const query of ['platform=1&type=1', 'platform=x&type=1&duration=1', 'platform=0&type=1&duration=1', 'platform=1&type=1&duration=-2']) {
      const res = await api().get(`/checkout?${query}`).expect(400);
      expect(res.body.code, query).to.equal('invalid_choice');
    }
  });
});
