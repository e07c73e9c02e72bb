import { expect } from 'chai';
import type { Express } from 'express';
import { api, createUser, uniqueEmail } from '../support/agent.js';
import { FakeGoogle } from '../support/fake-google.js';
import { FakeKakao } from '../support/fake-kakao.js';
import { FakeNaver } from '../support/fake-naver.js';
import { harness } from '../support/harness.js';

/** Google, Naver and Kakao sign-in through our API, against local servers that speak their protocols. */
describe('social login (API against local provider servers)', () => {
  const google = new FakeGoogle();
  const naver = new FakeNaver();
  const kakao = new FakeKakao();
  let app: Express;
  let publicUrl: string;
  const stops: Array<() => Promise<void>> = [];

  before(async () => {
    for (const fake of [google, naver, kakao]) stops.push((await fake.start()).stop);
    const world = harness().appWith({
      ...google.env,
      ...naver.env,
      ...kakao.env,
    });
    app = world.app;
    publicUrl = world.config.publicUrl;
  });
  after(async () => {
    for (const stop of stops) await stop();
  });

  const stateFrom = (authorizeUrl: string) => new URL(authorizeUrl).searchParams.get('state')!;
  /** ID tokens dated by the test clock (which other tests move forward), like Google's would be. */
  const nowSeconds = () => Math.floor(harness().clock.now().getTime() / 1000);
  const idToken = (claims: Record<string, unknown> = {}, options?: Parameters<FakeGoogle['issueIdToken']>[1]) =>
    google.issueIdToken({ iat: nowSeconds(), nbf: nowSeconds(), exp: nowSeconds() + 3600, ...claims }, options);

  it('tells the login page which providers are configured, and hides the rest', async () => {
    const configured = await api(app).get('/api/user/socialproviders').expect(200);
    expect(configured.body.google).to.deep.equal({ clientId: google.clientId });
    const naverUrl = new URL(configured.body.naver.authorizeUrl);
    expect(naverUrl.origin + naverUrl.pathname).to.equal(`${naver.baseUrl}/oauth2.0/authorize`);
    expect(naverUrl.searchParams.get('client_id')).to.equal(naver.clientId);
    expect(naverUrl.searchParams.get('redirect_uri')).to.equal(`${publicUrl}/naver/callback`);
    // A signed JWT (shared/signed-tokens.ts): header, claims, signature.
    expect(naverUrl.searchParams.get('state')).to.match(/^[\w-]+\.[\w-]+\.[\w-]+$/);

    const none = await api().get('/api/user/socialproviders').expect(200);
    expect(none.body).to.deep.equal({ google: null, naver: null, kakao: null });
    const disabled = await api()
      .post('/api/user/googleauthenticate')
      .send({ idToken: await idToken() })
      .expect(404);
    expect(disabled.body.code).to.equal('provider_disabled');
  });

  describe('Google', () => {
    it('creates a verified user from a valid ID token and logs the same person in again', async () => {
      const email = uniqueEmail('google');
      const sub = google.newSubject();
      const first = await api(app)
        .post('/api/user/googleauthenticate')
        .send({ idToken: await idToken({ sub, email, name: 'G User' }), provider: 'GOOGLE' })
        .expect(200);
      expect(first.body).to.have.all.keys('id', 'token', 'tokenExpiration', 'isEmailVerified', 'photoUrl', 'role');
      expect(first.body.isEmailVerified).to.equal(true);
      // The e-mail may change at Google; the person is found by their Google id.
      const again = await api(app)
        .post('/api/user/googleauthenticate')
        .send({ idToken: await idToken({ sub, email: uniqueEmail('changed') }) })
        .expect(200);
      expect(again.body.id).to.equal(first.body.id);
      const identities = await harness().knex('social_identities').where({ provider: 'google', provider_user_id: sub });
      expect(identities).to.have.length(1);
    });

    it('links to the existing account with the same verified e-mail', async () => {
      const existing = await createUser({ verified: false });
      const res = await api(app)
        .post('/api/user/googleauthenticate')
        .send({ idToken: await idToken({ email: existing.email }) })
        .expect(200);
      expect(res.body.id).to.equal(existing.id);
      expect(res.body.isEmailVerified).to.equal(true);
    });

    it('refuses a bad signature, a wrong audience, an expired token and an unverified e-mail', async () => {
      const now = nowSeconds();
      const forged = [
        await idToken({}, { signWith: 'stranger' }),
        await idToken({ aud: 'someone-else.apps.googleusercontent.com' }),
        await idToken({ iat: now - 7200, exp: now - 3600 }),
        await idToken({}, { alg: 'none' }),
      ];
      for (const idToken of forged) {
        const res = await api(app).post('/api/user/googleauthenticate').send({ idToken }).expect(401);
        expect(res.body.code).to.equal('google_token_invalid');
      }
      const unverified = await api(app)
        .post('/api/user/googleauthenticate')
        .send({ idToken: await idToken({ email_verified: false }) })
        .expect(401);
      expect(unverified.body.code).to.equal('google_email_not_verified');
      await api(app).post('/api/user/googleauthenticate').send({}).expect(400);
    });
  });

  describe('Naver', () => {
    it('exchanges code and state for a login', async () => {
      const { body } = await api(app).get('/api/user/socialproviders').expect(200);
      const state = stateFrom(body.naver.authorizeUrl);
      const email = uniqueEmail('naver');
      const code = naver.issueCode({ email, name: '네이버 사용자' }, state);
      const res = await api(app).post('/api/user/navercallback').send({ code, state }).expect(200);
      expect(res.body.isEmailVerified).to.equal(true);
      const user = await harness().knex('users').where({ id: res.body.id }).first();
      expect(user.email).to.equal(email);
      // The code is single use at Naver.
      await api(app).post('/api/user/navercallback').send({ code, state }).expect(401);
    });

    it('refuses a state we did not issue, a tampered one, or an expired one', async () => {
      const { body } = await api(app).get('/api/user/socialproviders').expect(200);
      const state = stateFrom(body.naver.authorizeUrl);
      // A signed JWT (shared/signed-tokens.ts): its expiry pushed back, its signature changed, or Kakao's state used for Naver.
      const [header, claims, mac] = state.split('.');
      const later = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(claims, 'base64url').toString()), exp: 4_000_000_000 })).toString('base64url');
      const kakaoState = stateFrom(body.kakao.authorizeUrl);
      for (const bad of ['made-up-state', `${header}.${later}.${mac}`, `${header}.${claims}.${mac.slice(0, -2)}xx`, kakaoState]) {
        const res = await api(app)
          .post('/api/user/navercallback')
          .send({ code: naver.issueCode({ email: uniqueEmail() }, bad), state: bad })
          .expect(401);
        expect(res.body.code).to.equal('invalid_state');
      }
      harness().clock.advance(11 * 60_000);
      const late = await api(app)
        .post('/api/user/navercallback')
        .send({ code: naver.issueCode({ email: uniqueEmail() }, state), state })
        .expect(401);
      expect(late.body.code).to.equal('invalid_state');
    });

    it('refuses a code Naver does not know', async () => {
      const { body } = await api(app).get('/api/user/socialproviders').expect(200);
      const res = await api(app)
        .post('/api/user/navercallback')
        .send({ code: 'not-a-naver-code', state: stateFrom(body.naver.authorizeUrl) })
        .expect(401);
      expect(res.body.code).to.equal('naver_login_failed');
    });
  });

  describe('an account registered by someone else with the same e-mail (issue 10)', () => {
    /** Someone registers the address with their own password, never verifies it, and keeps the token. */
    async function preRegister(email: string) {
      const password = 'attacker-pass-1';
      const res = await api(app).post('/api/user/register').send({ email, password }).expect(200);
      expect(res.body.isEmailVerified).to.equal(false);
      return { id: res.body.id as number, password, token: res.body.token as string };
    }

    /** The buyer's own panel: any call that needs a live session. */
    const panel = (user: { id: number }, token: string) =>
      api(app).get('/api/user/getuserpanel').query({ id: user.id, languageId: 1 }).set('Authorization', `Bearer ${token}`);

    async function expectTakenBackBy(
      owner: { body: { id: number; isEmailVerified: boolean } },
      attacker: Awaited<ReturnType<typeof preRegister>>,
      email: string,
    ) {
      expect(owner.body.id).to.equal(attacker.id);
      expect(owner.body.isEmailVerified).to.equal(true);
      // The pre-registered password and every session made with it are gone.
      const login = await api(app).post('/api/user/authenticate').send({ email, password: attacker.password }).expect(401);
      expect(login.body.code).to.equal('invalid_credentials');
      const oldToken = await panel(attacker, attacker.token).expect(401);
      expect(oldToken.body.code).to.equal('session_ended');
      const stored = await harness().knex('users').where({ id: attacker.id }).first();
      expect(stored.password_hash).to.equal(null);
    }

    it('Naver: the owner signing in takes the account back; the password and sessions made before are void', async () => {
      const email = uniqueEmail('victim');
      const attacker = await preRegister(email);
      await panel(attacker, attacker.token).expect(200);
      const { body } = await api(app).get('/api/user/socialproviders').expect(200);
      const state = stateFrom(body.naver.authorizeUrl);
      const owner = await api(app)
        .post('/api/user/navercallback')
        .send({ code: naver.issueCode({ email, name: '진짜 주인' }, state), state })
        .expect(200);
      await expectTakenBackBy(owner, attacker, email);
      // The owner's own login keeps working.
      await panel(owner.body, owner.body.token).expect(200);
    });

    it('Google: the same', async () => {
      const email = uniqueEmail('victim');
      const attacker = await preRegister(email);
      const owner = await api(app)
        .post('/api/user/googleauthenticate')
        .send({ idToken: await idToken({ email }) })
        .expect(200);
      await expectTakenBackBy(owner, attacker, email);
    });

    it('keeps the password of an account whose owner verified the address', async () => {
      const existing = await createUser({ verified: true });
      await api(app)
        .post('/api/user/googleauthenticate')
        .send({ idToken: await idToken({ email: existing.email }) })
        .expect(200);
      await api(app).post('/api/user/authenticate').send({ email: existing.email, password: existing.password }).expect(200);
    });
  });

  describe('hostile provider answers (issue 10)', () => {
    it('refuses a provider e-mail that is not an address, and creates no account', async () => {
      const hostile = ['victim\r\nbcc-1@example.test', '<script>alert(1)</script>@example.test', 'no-at-sign.example.test', 'a@b@example.test'];
      for (const email of hostile) {
        const { body } = await api(app).get('/api/user/socialproviders').expect(200);
        const state = stateFrom(body.naver.authorizeUrl);
        const res = await api(app)
          .post('/api/user/navercallback')
          .send({ code: naver.issueCode({ email }, state), state })
          .expect(400);
        expect(res.body.code, email).to.equal('provider_email_invalid');
        const google = await api(app)
          .post('/api/user/googleauthenticate')
          .send({ idToken: await idToken({ email }) })
          .expect(400);
        expect(google.body.code, email).to.equal('provider_email_invalid');
        expect(await harness().knex('users').where({ email: email.toLowerCase() }).first(), email).to.equal(undefined);
      }
    });

    it('Naver: a state works once, even with a new code', async () => {
      const { body } = await api(app).get('/api/user/socialproviders').expect(200);
      const state = stateFrom(body.naver.authorizeUrl);
      await api(app)
        .post('/api/user/navercallback')
        .send({ code: naver.issueCode({ email: uniqueEmail('naver') }, state), state })
        .expect(200);
      const replay = await api(app)
        .post('/api/user/navercallback')
        .send({ code: naver.issueCode({ email: uniqueEmail('naver') }, state), state })
        .expect(401);
      expect(replay.body.code).to.equal('invalid_state');
    });
  });

  describe('Kakao (server only, not on the screen)', () => {
    it('exchanges a code for a login', async () => {
      const { body } = await api(app).get('/api/user/socialproviders').expect(200);
      const state = stateFrom(body.kakao.authorizeUrl);
      const email = uniqueEmail('kakao');
      const code = kakao.issueCode({ email, nickname: '카카오' }, `${publicUrl}/kakao/callback`);
      const res = await api(app).post('/api/user/kakaocallback').send({ code, state }).expect(200);
      expect((await harness().knex('users').where({ id: res.body.id }).first()).email).to.equal(email);
    });

    it('cannot create an account without a verified e-mail', async () => {
      const { body } = await api(app).get('/api/user/socialproviders').expect(200);
      const state = stateFrom(body.kakao.authorizeUrl);
      const code = kakao.issueCode({ email: uniqueEmail(), isEmailVerified: false }, `${publicUrl}/kakao/callback`);
      const res = await api(app).post('/api/user/kakaocallback').send({ code, state }).expect(400);
      expect(res.body.code).to.equal('email_required');
    });
  });
});
