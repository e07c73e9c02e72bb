/**
 * The Google, Naver and Kakao adapters against local servers that speak those providers'
 * protocols (test/support/fake-*.ts): what a good login yields, and every way a bad one is refused.
 */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type DomainError, UnauthenticatedError, UnavailableError, ValidationError } from '@subshare/core';
// The adapters are not part of identity's public surface; this suite tests them directly.
import { GoogleIdTokens } from '../../packages/core/src/modules/identity/providers/google.js';
import { KakaoOAuth } from '../../packages/core/src/modules/identity/providers/kakao.js';
import { NaverOAuth } from '../../packages/core/src/modules/identity/providers/naver.js';
import { FakeGoogle } from '../support/fake-google.js';
import { FakeKakao } from '../support/fake-kakao.js';
import { FakeNaver } from '../support/fake-naver.js';

type ErrorClass = new (...args: never[]) => DomainError;

async function refused(promise: Promise<unknown>, type: ErrorClass, code: string): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(type);
    expect((error as DomainError).code).to.equal(code);
    return error as DomainError;
  }
  expect.fail(`expected a ${type.name} (${code})`);
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A server that accepts connections and never answers: for timeouts. */
async function startSilentServer(): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const server: Server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('social login providers', function () {
  describe('Google ID tokens', function () {
    const google = new FakeGoogle({ clientId: '1234567890-test.apps.googleusercontent.com' });
    let verifier: GoogleIdTokens;

    before(async function () {
      await google.start();
    });
    after(async function () {
      await google.stop();
    });
    beforeEach(function () {
      google.certsStatus = 200;
      verifier = new GoogleIdTokens({ clientId: google.clientId, apiBase: google.baseUrl });
    });

    const invalid = (token: string | Promise<string>) =>
      refused(
        Promise.resolve(token).then((t) => verifier.verify(t)),
        UnauthenticatedError,
        'google_token_invalid',
      );

    it('turns a valid token into a profile keyed by sub, with the e-mail lower-cased', async function () {
      const sub = google.newSubject();
      const token = await google.issueIdToken({ sub, email: 'Mixed.Case@Gmail.com', name: 'Kim Minji', picture: 'https://lh3.googleusercontent.com/a/x' });
      expect(await verifier.verify(token)).to.deep.equal({
        provider: 'google',
        providerUserId: sub,
        email: 'mixed.case@gmail.com',
        emailVerified: true,
        name: 'Kim Minji',
        photoUrl: 'https://lh3.googleusercontent.com/a/x',
      });
    });

    it('accepts both issuer spellings, email_verified as the string "true", and no name or picture', async function () {
      const profile = await verifier.verify(
        await google.issueIdToken({ iss: 'accounts.google.com', email_verified: 'true', name: undefined, picture: undefined }),
      );
      expect(profile.emailVerified).to.equal(true);
      expect(profile.name).to.equal(null);
      expect(profile.photoUrl).to.equal(null);
    });

    it('fetches the keys once and reuses them', async function () {
      const before = google.requests.certs;
      await verifier.verify(await google.issueIdToken());
      await verifier.verify(await google.issueIdToken());
      await verifier.verify(await google.issueIdToken());
      expect(google.requests.certs - before).to.equal(1);
    });

    it('refuses a token for another audience, or for ours and others', async function () {
      await invalid(google.issueIdToken({ aud: 'someone-else.apps.googleusercontent.com' }));
      await invalid(google.issueIdToken({ aud: [google.clientId, 'someone-else.apps.googleusercontent.com'] }));
      await invalid(google.issueIdToken({ aud: undefined }));
    });

    it('refuses a token from another issuer', async function () {
      await invalid(google.issueIdToken({ iss: 'https://evil.example.com' }));
      await invalid(google.issueIdToken({ iss: 'https://accounts.google.com.evil.example.com' }));
      await invalid(google.issueIdToken({ iss: undefined }));
    });

    it('refuses an expired token, allowing 300 s of clock skew', async function () {
      const now = nowSeconds();
      await invalid(google.issueIdToken({ iat: now - 4000, exp: now - 400 }));
      const skewed = await verifier.verify(await google.issueIdToken({ iat: now - 3700, exp: now - 100 }));
      expect(skewed.provider).to.equal('google');
    });

    it('checks expiry against the injected clock', async function () {
      const token = await google.issueIdToken();
      const later = new GoogleIdTokens({ clientId: google.clientId, apiBase: google.baseUrl, now: () => new Date(Date.now() + 2 * 3600_000) });
      await refused(later.verify(token), UnauthenticatedError, 'google_token_invalid');
    });

    it('refuses tokens issued in the future, living longer than a day, or without sub, iat or exp', async function () {
      const now = nowSeconds();
      await invalid(google.issueIdToken({ iat: now + 600, exp: now + 4200 }));
      await invalid(google.issueIdToken({ exp: now + 2 * 86_400 }));
      await invalid(google.issueIdToken({ sub: undefined }));
      await invalid(google.issueIdToken({ iat: undefined }));
      await invalid(google.issueIdToken({ exp: undefined }));
    });

    it('refuses a token signed by a key Google never published, whatever kid it names', async function () {
      await invalid(google.issueIdToken({}, { signWith: 'stranger' }));
      await invalid(google.issueIdToken({}, { signWith: 'stranger', kid: 'kid-nobody-published' }));
      await invalid(google.issueIdToken({}, { signWith: 'stranger', kid: null }));
    });

    it('refuses alg none and HS256 keyed with the public key', async function () {
      await invalid(google.issueIdToken({}, { alg: 'none' }));
      await invalid(google.issueIdToken({}, { alg: 'HS256' }));
    });

    it('refuses a token whose payload was changed after signing', async function () {
      const [header, , signature] = (await google.issueIdToken()).split('.');
      const payload = Buffer.from(JSON.stringify({ ...google.defaultClaims(), sub: 'attacker' })).toString('base64url');
      await invalid(`${header}.${payload}.${signature}`);
    });

    it('refuses malformed tokens', async function () {
      for (const token of ['', 'not-a-token', 'a.b.c', 'a.b', '...', `${'x'.repeat(9000)}.y.z`]) await invalid(token);
      await invalid(undefined as unknown as string);
    });

    it('refuses a Google account without a verified e-mail address', async function () {
      await refused(verifier.verify(await google.issueIdToken({ email_verified: false })), UnauthenticatedError, 'google_email_not_verified');
      await refused(verifier.verify(await google.issueIdToken({ email_verified: 'false' })), UnauthenticatedError, 'google_email_not_verified');
      await refused(verifier.verify(await google.issueIdToken({ email_verified: undefined })), UnauthenticatedError, 'google_email_not_verified');
      await refused(verifier.verify(await google.issueIdToken({ email: undefined })), UnauthenticatedError, 'google_email_not_verified');
    });

    it('says "unavailable" when the keys cannot be fetched, and recovers when they can', async function () {
      google.certsStatus = 500;
      const token = await google.issueIdToken();
      await refused(verifier.verify(token), UnavailableError, 'google_unavailable');
      google.certsStatus = 200;
      expect((await verifier.verify(token)).provider).to.equal('google');
    });

    it('says "unavailable" when the key server does not answer', async function () {
      const token = await google.issueIdToken();
      const gone = new FakeGoogle({ clientId: google.clientId });
      const { baseUrl, stop } = await gone.start();
      await stop();
      await refused(new GoogleIdTokens({ clientId: google.clientId, apiBase: baseUrl }).verify(token), UnavailableError, 'google_unavailable');
    });

    it('never puts the token in an error', async function () {
      const token = await google.issueIdToken({ aud: 'other' });
      const error = await invalid(token);
      expect(JSON.stringify({ message: error.message, code: error.code })).not.to.contain(token.split('.')[1]);
    });
  });

  describe('Naver OAuth', function () {
    const naver = new FakeNaver();
    const state = 'state-7f3a9c';
    let client: NaverOAuth;

    before(async function () {
      await naver.start();
    });
    after(async function () {
      await naver.stop();
    });
    beforeEach(function () {
      naver.expiresInAs = 'string';
      naver.tokenErrorStatus = 200;
      client = new NaverOAuth({ clientId: naver.clientId, clientSecret: naver.clientSecret, apiBase: naver.baseUrl });
    });

    const failed = (promise: Promise<unknown>) => refused(promise, UnauthenticatedError, 'naver_login_failed');

    it('builds the authorize URL', function () {
      const url = new URL(client.authorizeUrl('s t&ate', 'https://shop.example/naver/callback'));
      expect(`${url.origin}${url.pathname}`).to.equal(`${naver.baseUrl}/oauth2.0/authorize`);
      expect(Object.fromEntries(url.searchParams)).to.deep.equal({
        response_type: 'code',
        client_id: naver.clientId,
        redirect_uri: 'https://shop.example/naver/callback',
        state: 's t&ate',
      });
      const real = new URL(new NaverOAuth({ clientId: 'id', clientSecret: 'secret' }).authorizeUrl('s', 'https://x/cb'));
      expect(real.origin).to.equal('https://nid.naver.com');
    });

    it('exchanges code and state for the profile', async function () {
      const code = naver.issueCode(
        { id: '32742776', email: 'OpenAPI@naver.com', name: '오픈 API', nickname: 'OpenAPI', profile_image: 'https://ssl.pstatic.net/p.gif' },
        state,
      );
      expect(await client.exchange(code, state)).to.deep.equal({
        provider: 'naver',
        providerUserId: '32742776',
        email: 'openapi@naver.com',
        emailVerified: true,
        name: '오픈 API',
        photoUrl: 'https://ssl.pstatic.net/p.gif',
      });
      expect(naver.lastTokenRequest?.method).to.equal('POST');
      expect(naver.lastTokenRequest?.params).to.deep.equal({
        grant_type: 'authorization_code',
        client_id: naver.clientId,
        client_secret: naver.clientSecret,
        code,
        state,
      });
    });

    it('takes expires_in as a number too, and a profile without e-mail or name', async function () {
      naver.expiresInAs = 'number';
      const profile = await client.exchange(naver.issueCode({ email: undefined, name: undefined, nickname: 'nick', profile_image: undefined }, state), state);
      expect(profile).to.include({ email: null, emailVerified: false, name: 'nick', photoUrl: null });
    });

    it('follows the authorize page round trip', async function () {
      naver.loginAs({ id: '555', email: 'round@naver.com' });
      const response = await fetch(client.authorizeUrl(state, 'http://127.0.0.1:9/naver/callback'), { redirect: 'manual' });
      expect(response.status).to.equal(302);
      const callback = new URL(response.headers.get('location') as string);
      expect(callback.searchParams.get('state')).to.equal(state);
      const profile = await client.exchange(callback.searchParams.get('code') as string, state);
      expect(profile.providerUserId).to.equal('555');
    });

    it('refuses a wrong state', async function () {
      await failed(client.exchange(naver.issueCode({}, state), 'another-state'));
    });

    it('refuses a code the second time', async function () {
      const code = naver.issueCode({}, state);
      await client.exchange(code, state);
      await failed(client.exchange(code, state));
    });

    it('refuses an unknown code, also when errors come with a 4xx status', async function () {
      await failed(client.exchange('made-up-code', state));
      naver.tokenErrorStatus = 400;
      await failed(client.exchange('made-up-code', state));
    });

    it('refuses a wrong client secret', async function () {
      const wrong = new NaverOAuth({ clientId: naver.clientId, clientSecret: 'not-the-secret', apiBase: naver.baseUrl });
      await failed(wrong.exchange(naver.issueCode({}, state), state));
    });

    it('refuses when the profile API rejects the token', async function () {
      naver.failNext('me', 401, { resultcode: '024', message: 'Authentication failed' });
      await failed(client.exchange(naver.issueCode({}, state), state));
      naver.failNext('me', 200, { resultcode: '024', message: 'Authentication failed' });
      await failed(client.exchange(naver.issueCode({}, state), state));
    });

    it('says "unavailable" on server errors, network failures and timeouts', async function () {
      naver.failNext('token', 500);
      await refused(client.exchange(naver.issueCode({}, state), state), UnavailableError, 'naver_unavailable');
      naver.failNext('token', 200, { error: 'server_error', error_description: 'Internal Server Error' });
      await refused(client.exchange(naver.issueCode({}, state), state), UnavailableError, 'naver_unavailable');
      naver.failNext('me', 500, { resultcode: '500', message: 'Internal Server Error' });
      await refused(client.exchange(naver.issueCode({}, state), state), UnavailableError, 'naver_unavailable');

      const silent = await startSilentServer();
      try {
        const slow = new NaverOAuth({ clientId: naver.clientId, clientSecret: naver.clientSecret, apiBase: silent.baseUrl, timeoutMs: 200 });
        await refused(slow.exchange('code', state), UnavailableError, 'naver_unavailable');
      } finally {
        await silent.stop();
      }
      const gone = new FakeNaver();
      const { baseUrl, stop } = await gone.start();
      await stop();
      await refused(new NaverOAuth({ clientId: 'a', clientSecret: 'b', apiBase: baseUrl }).exchange('code', state), UnavailableError, 'naver_unavailable');
    });

    it('rejects a missing code or state before calling Naver', async function () {
      const before = naver.requests.token;
      await refused(client.exchange('', state), ValidationError, 'validation');
      await refused(client.exchange('code', ''), ValidationError, 'validation');
      expect(naver.requests.token).to.equal(before);
    });
  });

  describe('Kakao OAuth', function () {
    const kakao = new FakeKakao({ clientSecret: 'kakao-client-secret' });
    const redirectUri = 'https://shop.example/kakao/callback';
    let client: KakaoOAuth;

    before(async function () {
      await kakao.start();
    });
    after(async function () {
      await kakao.stop();
    });
    beforeEach(function () {
      client = new KakaoOAuth({ restApiKey: kakao.restApiKey, clientSecret: 'kakao-client-secret', apiBase: kakao.baseUrl });
    });

    const failed = (promise: Promise<unknown>) => refused(promise, UnauthenticatedError, 'kakao_login_failed');

    it('builds the authorize URL', function () {
      const url = new URL(client.authorizeUrl('st', redirectUri));
      expect(`${url.origin}${url.pathname}`).to.equal(`${kakao.baseUrl}/oauth/authorize`);
      expect(Object.fromEntries(url.searchParams)).to.deep.equal({
        client_id: kakao.restApiKey,
        redirect_uri: redirectUri,
        response_type: 'code',
        state: 'st',
      });
      expect(new URL(new KakaoOAuth({ restApiKey: 'k' }).authorizeUrl('s', redirectUri)).origin).to.equal('https://kauth.kakao.com');
    });

    it('exchanges a code for the profile, keeping a 64-bit id exact', async function () {
      const code = kakao.issueCode(
        { id: 9007199254740993n, email: 'Kim@Kakao.com', nickname: '김민지', profileImageUrl: 'https://k.kakaocdn.net/p.jpg' },
        redirectUri,
      );
      expect(await client.exchange(code, redirectUri)).to.deep.equal({
        provider: 'kakao',
        providerUserId: '9007199254740993',
        email: 'kim@kakao.com',
        emailVerified: true,
        name: '김민지',
        photoUrl: 'https://k.kakaocdn.net/p.jpg',
      });
      expect(kakao.lastTokenRequest?.contentType).to.equal('application/x-www-form-urlencoded;charset=utf-8');
      expect(kakao.lastTokenRequest?.params).to.deep.equal({
        grant_type: 'authorization_code',
        client_id: kakao.restApiKey,
        redirect_uri: redirectUri,
        code,
        client_secret: 'kakao-client-secret',
      });
    });

    it('drops an e-mail that is not both valid and verified, and a default image', async function () {
      const unverified = await client.exchange(
        kakao.issueCode({ email: 'a@kakao.com', isEmailVerified: false, isDefaultImage: true }, redirectUri),
        redirectUri,
      );
      expect(unverified).to.include({ email: null, emailVerified: false, photoUrl: null });
      const invalid = await client.exchange(kakao.issueCode({ email: 'b@kakao.com', isEmailValid: false }, redirectUri), redirectUri);
      expect(invalid).to.include({ email: null, emailVerified: false });
      const none = await client.exchange(kakao.issueCode({ email: null, nickname: null }, redirectUri), redirectUri);
      expect(none).to.include({ email: null, emailVerified: false, name: null });
    });

    it('refuses a reused code, another redirect URI, a wrong key or secret', async function () {
      const code = kakao.issueCode({}, redirectUri);
      await client.exchange(code, redirectUri);
      await failed(client.exchange(code, redirectUri));
      await failed(client.exchange(kakao.issueCode({}, redirectUri), 'https://evil.example/cb'));
      await failed(
        new KakaoOAuth({ restApiKey: 'wrong', clientSecret: 'kakao-client-secret', apiBase: kakao.baseUrl }).exchange(
          kakao.issueCode({}, redirectUri),
          redirectUri,
        ),
      );
      await failed(new KakaoOAuth({ restApiKey: kakao.restApiKey, apiBase: kakao.baseUrl }).exchange(kakao.issueCode({}, redirectUri), redirectUri));
    });

    it('refuses when user info rejects the token, and says "unavailable" on server errors', async function () {
      kakao.failNext('me', 401, { msg: 'this access token does not exist', code: -401 });
      await failed(client.exchange(kakao.issueCode({}, redirectUri), redirectUri));
      kakao.failNext('me', 500);
      await refused(client.exchange(kakao.issueCode({}, redirectUri), redirectUri), UnavailableError, 'kakao_unavailable');
      kakao.failNext('token', 503, 'Service Unavailable');
      await refused(client.exchange(kakao.issueCode({}, redirectUri), redirectUri), UnavailableError, 'kakao_unavailable');
    });
  });
});
