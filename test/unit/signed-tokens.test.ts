import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { readRenewalLink, signRenewalLink, signToken as signLoginToken, verifyToken as verifyLoginToken } from '@subshare/core';
import { DemoProvider, signDemoToken } from '../../packages/core/src/modules/payments/providers/demo.js';
import { readToken, signToken, TOKEN_PURPOSES, type TokenPurpose } from '../../packages/core/src/shared/signed-tokens.js';
import { money } from '../../packages/core/src/shared/money.js';
import { ManualClock } from '../../packages/core/src/shared/clock.js';

/**
 * The tokens that work without a login (renewal links, demo checkout, OAuth state) are one kind
 * of JWT whose audience is its purpose: each is refused as any other purpose and as a login
 * token, a login token is refused as each of them, and any change to a token is refused.
 */
describe('signed tokens: one format, bound to one purpose', () => {
  const secret = randomBytes(32);
  const now = new Date('2027-03-01T10:00:00Z');
  const expires = new Date('2027-03-02T10:00:00Z');

  /** The token with one character of `part` (0 header, 1 claims, 2 signature) changed. */
  function tampered(token: string, part: number): string {
    const parts = token.split('.');
    const text = parts[part]!;
    const at = Math.floor(text.length / 2);
    parts[part] = `${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;
    return parts.join('.');
  }

  for (const purpose of TOKEN_PURPOSES) {
    it(`a ${purpose} token is read as ${purpose} only, and never as a login token`, async () => {
      const token = await signToken(secret, purpose, { sub: '7' }, expires);
      expect((await readToken(secret, purpose, token, now))?.sub).to.equal('7');
      for (const other of TOKEN_PURPOSES.filter((candidate) => candidate !== purpose)) {
        expect(await readToken(secret, other, token, now), `${purpose} read as ${other}`).to.equal(undefined);
      }
      const asLogin = await verifyLoginToken(secret, token, now).then(
        () => 'accepted',
        (error: { code?: string }) => error.code,
      );
      expect(asLogin).to.equal('invalid_token');
    });
  }

  it('a login token is read as no purpose', async () => {
    const login = await signLoginToken(secret, { userId: 7, sessionId: randomUUID() }, now, expires);
    expect(await verifyLoginToken(secret, login, now)).to.include({ userId: 7 });
    for (const purpose of TOKEN_PURPOSES) expect(await readToken(secret, purpose, login, now), purpose).to.equal(undefined);
  });

  it('refuses a tampered header, claims or signature, another secret, and a token at or past its expiry', async () => {
    const purpose: TokenPurpose = 'renewal-pay';
    const token = await signToken(secret, purpose, { sub: '7' }, expires);
    for (const part of [0, 1, 2]) expect(await readToken(secret, purpose, tampered(token, part), now), `part ${part}`).to.equal(undefined);
    // The claims rewritten to another subscription, the signature kept.
    const [header, claims, signature] = token.split('.');
    const other = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(claims!, 'base64url').toString()), sub: '8' })).toString('base64url');
    expect(await readToken(secret, purpose, `${header}.${other}.${signature}`, now)).to.equal(undefined);
    // An unsigned token ("alg": "none") is not accepted.
    const none = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    expect(await readToken(secret, purpose, `${none}.${claims}.`, now)).to.equal(undefined);
    expect(await readToken(randomBytes(32), purpose, token, now)).to.equal(undefined);
    expect(await readToken(secret, purpose, token, new Date(expires.getTime() - 1_000))).to.not.equal(undefined);
    expect(await readToken(secret, purpose, token, expires)).to.equal(undefined);
    for (const junk of ['', 'a.b.c', 'not-a-token', 'x'.repeat(9000)])
      expect(await readToken(secret, purpose, junk, now), junk.slice(0, 12)).to.equal(undefined);
  });

  it('a renewal cancel link cannot pay, nor a pay link cancel; a link keeps its subscription, period and expiry', async () => {
    const link = { subscriptionId: 12, periodEnd: Date.parse('2027-04-01T00:00:00Z'), expiresAt: expires.getTime() };
    const cancel = await signRenewalLink({ ...link, purpose: 'cancel' }, secret);
    const pay = await signRenewalLink({ ...link, purpose: 'pay' }, secret);
    expect(await readRenewalLink(cancel, 'cancel', secret, now)).to.deep.equal({ ...link, purpose: 'cancel' });
    expect(await readRenewalLink(pay, 'pay', secret, now)).to.deep.equal({ ...link, purpose: 'pay' });
    expect(await readRenewalLink(cancel, 'pay', secret, now)).to.equal(undefined);
    expect(await readRenewalLink(pay, 'cancel', secret, now)).to.equal(undefined);
    expect(await readRenewalLink(tampered(pay, 1), 'pay', secret, now)).to.equal(undefined);
    expect(await readRenewalLink(pay, 'pay', secret, expires)).to.equal(undefined);
  });

  it('a renewal link is no demo checkout token, and a demo checkout token is no renewal link', async () => {
    const demo = new DemoProvider({ publicUrl: 'http://shop.test', secret, clock: new ManualClock(now) });
    const link = await signRenewalLink({ purpose: 'pay', subscriptionId: 12, periodEnd: expires.getTime(), expiresAt: expires.getTime() }, secret);
    const error = await demo.verifyToken(link).then(
      () => undefined,
      (refusal: Error) => refusal,
    );
    expect(error?.name).to.equal('SignatureError');
    const checkout = await signDemoToken(
      {
        reference: 'ref-1',
        orderId: 12,
        method: 1,
        amount: money(1000, 'EUR'),
        description: 'Netflix',
        expiresAt: expires,
        successUrl: 'http://shop.test/ok',
        cancelUrl: 'http://shop.test/no',
        notifyUrl: 'http://shop.test/api/webhook/demo',
      },
      secret,
    );
    expect(await demo.verifyToken(checkout)).to.include({ orderId: 12, reference: 'ref-1' });
    expect(await readRenewalLink(checkout, 'pay', secret, now)).to.equal(undefined);
  });
});
