import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { signToken, verifyToken } from '@subshare/core';

/** verifyToken keeps the tokens jose verified; these are the checks a kept token must still pass. */
describe('login token verification, kept tokens included', () => {
  const issued = new Date('2027-03-01T10:00:00Z');
  const expires = new Date('2027-03-03T10:00:00Z');
  const claims = () => ({ userId: 42, sessionId: randomUUID() });

  async function refusal(secret: Uint8Array, token: string, at: Date): Promise<string | undefined> {
    try {
      await verifyToken(secret, token, at);
      return undefined;
    } catch (error) {
      return (error as { code?: string }).code;
    }
  }

  it('answers the same claims every time, and expires a kept token at its exp as jose does', async () => {
    const secret = randomBytes(32);
    const expected = claims();
    const token = await signToken(secret, expected, issued, expires);
    expect(await verifyToken(secret, token, issued)).to.deep.equal(expected);
    expect(await verifyToken(secret, token, new Date(expires.getTime() - 1_000))).to.deep.equal(expected);
    expect(await refusal(secret, token, expires)).to.equal('token_expired');
    // A token never seen before is refused the same way (jose's own check).
    const fresh = await signToken(secret, claims(), issued, expires);
    expect(await refusal(secret, fresh, expires)).to.equal('token_expired');
  });

  it('refuses a kept token under another secret, and a tampered copy of it', async () => {
    const secret = randomBytes(32);
    const token = await signToken(secret, claims(), issued, expires);
    await verifyToken(secret, token, issued);
    expect(await refusal(randomBytes(32), token, issued)).to.equal('invalid_token');
    const [header, payload, signature] = token.split('.');
    const other = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: '1' })).toString('base64url');
    expect(await refusal(secret, `${header}.${other}.${signature}`, issued)).to.equal('invalid_token');
    expect(await refusal(secret, `${token}x`, issued)).to.equal('invalid_token');
  });

  it('accepts one spelling of a signature only (base64url leaves two bits of its last character unused)', async () => {
    const secret = randomBytes(32);
    const token = await signToken(secret, claims(), issued, expires);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(token.slice(-1));
    const sameBytes = [0, 1, 2, 3].map((low) => alphabet[(last & ~3) | low]).filter((char) => char !== token.slice(-1));
    expect(sameBytes).to.have.length(3);
    for (const char of sameBytes) expect(await refusal(secret, token.slice(0, -1) + char, issued)).to.equal('invalid_token');
    expect(await refusal(secret, token, issued)).to.equal(undefined);
  });
});
