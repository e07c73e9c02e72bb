import { expect } from 'chai';
import { SignJWT, UnsecuredJWT } from 'jose';
import { randomUUID } from 'node:crypto';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '@subshare/core';
import { api, createUser, loginAs, uniqueIp } from '../support/agent.js';
import { harness } from '../support/harness.js';

const DAY = 24 * 3600_000;
/** Forged tokens are dated by the test clock, which earlier tests moved forward. */
const nowSeconds = () => Math.floor(harness().clock.now().getTime() / 1000);
/** Any call that needs a logged-in user will do to test tokens; logout is the simplest one. */
const STAFF_CALL = '/api/email/outbox';

async function sessionOf(token: string): Promise<{ sub: string; jti: string }> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
}

describe('login tokens', () => {
  it('are refused without a token, with a malformed header, or with garbage', async () => {
    const missing = await api().get(STAFF_CALL).expect(401);
    expect(missing.body).to.deep.equal({ message: 'You need to log in.', code: 'missing_token' });
    await api().get(STAFF_CALL).set('Authorization', 'Token abc').expect(401);
    const garbage = await api().get(STAFF_CALL).set('Authorization', 'Bearer not.a.jwt').expect(401);
    expect(garbage.body.code).to.equal('invalid_token');
  });

  it('expire after 2 days, or 14 days with remember me', async () => {
    const user = await createUser({ role: 'moderator' });
    const short = await api().post('/api/user/authenticate').send({ email: user.email, password: user.password }).expect(200);
    const long = await api().post('/api/user/authenticate').send({ email: user.email, password: user.password, rememberMe: true }).expect(200);
    const lifetime = (body: { tokenExpiration: string }) => new Date(body.tokenExpiration).getTime() - harness().clock.now().getTime();
    expect(lifetime(short.body)).to.be.within(2 * DAY - 60_000, 2 * DAY);
    expect(lifetime(long.body)).to.be.within(14 * DAY - 60_000, 14 * DAY);

    await api().get(STAFF_CALL).set('Authorization', `Bearer ${short.body.token}`).expect(200);
    harness().clock.advance(2 * DAY + 1_000);
    const expired = await api().get(STAFF_CALL).set('Authorization', `Bearer ${short.body.token}`).expect(401);
    expect(expired.body.code).to.equal('token_expired');
    await api().get(STAFF_CALL).set('Authorization', `Bearer ${long.body.token}`).expect(200);
  });

  it('are revoked at logout', async () => {
    const staff = await loginAs('moderator');
    await api().get(STAFF_CALL).set(staff.auth).expect(200);
    await api().post('/api/user/logout').set(staff.auth).expect(204);
    const after = await api().get(STAFF_CALL).set(staff.auth).expect(401);
    expect(after.body.code).to.equal('session_ended');
  });

  it('are all revoked when the password changes, and the new password works', async () => {
    const user = await createUser({ role: 'moderator' });
    const first = await api().post('/api/user/authenticate').send({ email: user.email, password: user.password }).expect(200);
    const second = await api().post('/api/user/authenticate').send({ email: user.email, password: user.password }).expect(200);
    const wrong = await api()
      .post('/api/user/changepassword')
      .set('Authorization', `Bearer ${first.body.token}`)
      .send({ currentPassword: 'nope-nope', newPassword: 'brand-new-pass' })
      .expect(401);
    expect(wrong.body.code).to.equal('invalid_credentials');
    const changed = await api()
      .post('/api/user/changepassword')
      .set('Authorization', `Bearer ${first.body.token}`)
      .send({ currentPassword: user.password, newPassword: 'brand-new-pass' })
      .expect(200);
    await api().get(STAFF_CALL).set('Authorization', `Bearer ${first.body.token}`).expect(401);
    await api().get(STAFF_CALL).set('Authorization', `Bearer ${second.body.token}`).expect(401);
    await api().get(STAFF_CALL).set('Authorization', `Bearer ${changed.body.token}`).expect(200);
    await api().post('/api/user/authenticate').send({ email: user.email, password: user.password }).expect(401);
    await api().post('/api/user/authenticate').send({ email: user.email, password: 'brand-new-pass' }).expect(200);
  });

  describe('forgeries', () => {
    let real: Awaited<ReturnType<typeof loginAs>>;
    let claims: { sub: string; jti: string };
    before(async () => {
      real = await loginAs('admin');
      claims = await sessionOf(real.token);
    });

    const refused = async (token: string) => {
      const res = await api().get(STAFF_CALL).set('Authorization', `Bearer ${token}`).expect(401);
      expect(res.body.code).to.be.oneOf(['invalid_token', 'session_ended']);
    };

    it('refuses alg: none', async () => {
      const unsigned = new UnsecuredJWT({})
        .setSubject(claims.sub)
        .setJti(claims.jti)
        .setIssuer(TOKEN_ISSUER)
        .setAudience(TOKEN_AUDIENCE)
        .setIssuedAt(nowSeconds())
        .setExpirationTime(nowSeconds() + 3600)
        .encode();
      await refused(unsigned);
    });

    it('refuses a token signed with another secret', async () => {
      const forged = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.sub)
        .setJti(claims.jti)
        .setIssuer(TOKEN_ISSUER)
        .setAudience(TOKEN_AUDIENCE)
        .setIssuedAt(nowSeconds())
        .setExpirationTime(nowSeconds() + 3600)
        .sign(new TextEncoder().encode('a-secret-that-is-not-ours-at-all-000'));
      await refused(forged);
    });

    it('refuses another algorithm even with our secret, and wrong issuer or audience', async () => {
      const secret = harness().config.tokenSecret;
      const build = () =>
        new SignJWT({})
          .setSubject(claims.sub)
          .setJti(claims.jti)
          .setIssuedAt(nowSeconds())
          .setExpirationTime(nowSeconds() + 3600);
      await refused(await build().setProtectedHeader({ alg: 'HS512' }).setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE).sign(secret));
      await refused(await build().setProtectedHeader({ alg: 'HS256' }).setIssuer('someone-else').setAudience(TOKEN_AUDIENCE).sign(secret));
      await refused(await build().setProtectedHeader({ alg: 'HS256' }).setIssuer(TOKEN_ISSUER).setAudience('another-app').sign(secret));
    });

    it('refuses a tampered payload (another user id in a real token)', async () => {
      const [header, , signature] = real.token.split('.');
      const payload = Buffer.from(JSON.stringify({ ...(await sessionOf(real.token)), sub: String(Number(claims.sub) + 1) })).toString('base64url');
      await refused(`${header}.${payload}.${signature}`);
    });

    it('refuses a validly signed token whose session does not exist', async () => {
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.sub)
        .setJti(randomUUID())
        .setIssuer(TOKEN_ISSUER)
        .setAudience(TOKEN_AUDIENCE)
        .setIssuedAt(nowSeconds())
        .setExpirationTime(nowSeconds() + 3600)
        .sign(harness().config.tokenSecret);
      const res = await api().get(STAFF_CALL).set('Authorization', `Bearer ${token}`).expect(401);
      expect(res.body.code).to.equal('session_ended');
    });
  });
});

describe('roles, checked on the server', () => {
  it('staff calls: 401 without a token, 403 for a buyer, 200 for a moderator and an admin', async () => {
    await api().get(STAFF_CALL).expect(401);
    const buyer = await loginAs('user');
    const forbidden = await api().get(STAFF_CALL).set(buyer.auth).expect(403);
    expect(forbidden.body).to.deep.equal({ message: 'You are not allowed to do this.', code: 'forbidden' });
    await api()
      .get(STAFF_CALL)
      .set((await loginAs('moderator')).auth)
      .expect(200);
    await api()
      .get(STAFF_CALL)
      .set((await loginAs('admin')).auth)
      .expect(200);
  });

  it('a demoted admin loses access on the next request, with the same token', async () => {
    const admin = await loginAs('admin');
    await api().get(STAFF_CALL).set(admin.auth).expect(200);
    await harness().knex('users').where({ id: admin.id }).update({ role: 0 });
    await api().get(STAFF_CALL).set(admin.auth).expect(403);
  });
});

describe('login attempts', () => {
  it('answer the same for an unknown e-mail and a wrong password', async () => {
    const user = await createUser();
    const unknown = await api()
      .post('/api/user/authenticate')
      .send({ email: `nobody-${randomUUID()}@example.test`, password: 'whatever-1' })
      .expect(401);
    const wrong = await api().post('/api/user/authenticate').send({ email: user.email, password: 'whatever-1' }).expect(401);
    expect(unknown.body).to.deep.equal(wrong.body);
    expect(wrong.body).to.deep.equal({ message: 'The e-mail or password is not correct.', code: 'invalid_credentials' });
  });

  const login = (email: string, password: string, ip = uniqueIp()) => api(undefined, ip).post('/api/user/authenticate').send({ email, password });

  it('stop one source after 5 failures on an account, and it only: the owner elsewhere still logs in', async () => {
    const user = await createUser();
    const stranger = uniqueIp();
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 10; attempt++) statuses.push((await login(user.email, `wrong-pass-${attempt}`, stranger)).status);
    expect(statuses).to.deep.equal([401, 401, 401, 401, 401, 429, 429, 429, 429, 429]);
    const blocked = await login(user.email, user.password, stranger).expect(429);
    expect(blocked.body).to.deep.equal({ message: 'Too many failed logins for this account. Try again in a few minutes.', code: 'too_many_failed_logins' });
    expect(Number(blocked.headers['retry-after'])).to.be.within(1, 15 * 60);
    // Ten wrong passwords from strangers do not lock the owner out (NIST 800-63B: limit per account and source).
    await login(user.email, user.password).expect(200);
    harness().clock.advance(15 * 60_000 + 1_000);
    await login(user.email, user.password, stranger).expect(200);
  });

  it('cannot be raced: a parallel burst from many sources checks at most 30 passwords, and the guesses after it are refused', async () => {
    const user = await createUser();
    // The owner logged in from home before the attack.
    const home = uniqueIp();
    await login(user.email, user.password, home).expect(200);
    const burst = await Promise.all(Array.from({ length: 60 }, (_, i) => login(user.email, `burst-wrong-${i}`)));
    const counts = burst.reduce<Record<number, number>>((acc, res) => ({ ...acc, [res.status]: (acc[res.status] ?? 0) + 1 }), {});
    // Each 401 is a password that was checked; every other guess got 429 before argon2 ran. The
    // account allows 30 tries from sources it does not know, and the owner's first login was one.
    expect(counts).to.deep.equal({ 401: 29, 429: 31 });
    // The attacker's right guess from yet another source is not checked either.
    await login(user.email, user.password).expect(429);
    // The owner, from a source that logged in to this account before, still gets in.
    await login(user.email, user.password, home).expect(200);
    harness().clock.advance(15 * 60_000 + 1_000);
    await login(user.email, user.password).expect(200);
  });

  it('are limited per IP', async () => {
    const ip = uniqueIp();
    for (let attempt = 0; attempt < 30; attempt++) {
      await api(undefined, ip)
        .post('/api/user/authenticate')
        .send({ email: `x${attempt}-${randomUUID()}@example.test`, password: 'wrong-pass-1' })
        .expect(401);
    }
    await api(undefined, ip).post('/api/user/authenticate').send({ email: 'a@example.test', password: 'wrong-pass-1' }).expect(429);
    await api(undefined, uniqueIp()).post('/api/user/authenticate').send({ email: 'a@example.test', password: 'wrong-pass-1' }).expect(401);
  });

  it('trust X-Forwarded-For only when configured', async () => {
    const { app } = harness().appWith({}); // no TRUST_PROXY
    // Every request comes from loopback; a spoofed header must not buy a fresh IP budget.
    for (let attempt = 0; attempt < 60; attempt++) {
      await api(app, uniqueIp()).get('/api/user/checkemail').query({ email: 'a@example.test' }).expect(200);
    }
    await api(app, uniqueIp()).get('/api/user/checkemail').query({ email: 'a@example.test' }).expect(429);
    harness().clock.advance(15 * 60_000 + 1_000);
  });
});

describe('the outbox for staff', () => {
  it('lists e-mails for staff and audits every read of one', async () => {
    // An e-mail of this file's own to list: a buyer asks for a verification code.
    const unverified = await loginAs('user', { verified: false });
    await api().post('/api/user/sendverificationcode').set(unverified.auth).send({ email: unverified.email }).expect(200);
    const staff = await loginAs('moderator');
    const list = await api().get('/api/email/outbox').set(staff.auth).query({ limit: 5 }).expect(200);
    expect(list.body.items).to.be.an('array').with.length.within(1, 5);
    const [first] = list.body.items;
    expect(first).to.not.have.property('html');
    const one = await api().get(`/api/email/outbox/${first.id}`).set(staff.auth).expect(200);
    expect(one.body).to.include.keys('html', 'text');
    const audit = await harness().knex('audit_log').where({ action: 'email.read', actor_user_id: staff.id });
    expect(audit).to.have.length(1);
    expect(audit[0]).to.include({ target_type: 'email', target_id: String(first.id), actor_label: staff.email });
    await api().get('/api/email/outbox/999999999').set(staff.auth).expect(404);
    await api().get('/api/email/outbox/abc').set(staff.auth).expect(400);
    await api()
      .get(`/api/email/outbox/${first.id}`)
      .set((await loginAs('user')).auth)
      .expect(403);
  });
});
