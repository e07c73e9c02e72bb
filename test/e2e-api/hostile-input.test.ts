/**
 * The hostile inputs that once answered 500, one by one (the generated sweep over every call is
 * fuzz.test.ts): operator objects where strings belong, prototype keys, 5,000-deep JSON, repeated
 * query parameters, NUL bytes, and two sign-ups racing for one e-mail.
 */
import { expect } from 'chai';
import { api, createUser, loginAs, uniqueEmail } from '../support/agent.js';
import { harness } from '../support/harness.js';

const DEPTH = 5_000;

function expectCleanError(res: { status: number; body: { message?: unknown; code?: unknown } }, status = 400) {
  expect(res.status).to.equal(status);
  expect(res.body.message).to.be.a('string');
  expect(res.body.code).to.be.a('string');
}

describe('hostile input answers a clean 4xx, never a 500', () => {
  it('refuses operator objects where the login expects strings, and lets nobody in', async () => {
    const victim = await createUser();
    const res = await api()
      .post('/api/user/authenticate')
      .send({ email: { $ne: null }, password: { $ne: null } });
    expectCleanError(res);
    expect(res.body.code).to.equal('validation');
    expect(res.body.errors).to.have.keys('email', 'password');
    expect(res.body).to.not.have.property('token');
    // The same with one real address and an operator for the password.
    const half = await api()
      .post('/api/user/authenticate')
      .send({ email: victim.email, password: { $gt: '' } });
    expectCleanError(half);
    expect(half.body.errors).to.have.keys('password');
  });

  it('refuses arrays, objects and booleans where strings belong instead of casting them', async () => {
    for (const email of [['a@example.test', 'b@example.test'], { $ne: null }, true]) {
      const res = await api().post('/api/user/register').send({ email, password: 'good-pass-1' });
      expectCleanError(res);
      expect(res.body.errors).to.have.property('email');
    }
    const checkemail = await api().get('/api/user/checkemail?email=a%40example.test&email=b%40example.test');
    expectCleanError(checkemail);
  });

  it('refuses JSON with __proto__ or constructor keys with 400, and Object.prototype stays clean', async () => {
    const email = uniqueEmail('proto');
    const proto = await api()
      .post('/api/user/register')
      .set('Content-Type', 'application/json')
      .send(`{"__proto__":{"isAdmin":true,"role":2},"email":"${email}","password":"good-pass-1"}`);
    expectCleanError(proto);
    expect(proto.body.code).to.equal('forbidden_key');
    const ctor = await api()
      .post('/api/user/authenticate')
      .set('Content-Type', 'application/json')
      .send(`{"constructor":{"prototype":{"isAdmin":true}},"email":"${email}","password":"good-pass-1"}`);
    expectCleanError(ctor);
    expect(ctor.body.code).to.equal('forbidden_key');
    const query = await api().get('/api/main/home?__proto__=x');
    expectCleanError(query);
    expect(({} as Record<string, unknown>).isAdmin).to.equal(undefined);
    expect(await harness().knex('users').where({ email }).first()).to.equal(undefined);
  });

  it('refuses 5,000-deep JSON with 400', async () => {
    const buyer = await loginAs('user');
    const deepObject = '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH);
    const deepArray = '['.repeat(DEPTH) + ']'.repeat(DEPTH);
    for (const body of [deepObject, deepArray, `{"orderId":${deepObject}}`]) {
      const res = await api().post('/api/payment/process').set(buyer.auth).set('Content-Type', 'application/json').send(body);
      expectCleanError(res);
      expect(res.body.code).to.be.oneOf(['too_deep', 'validation']);
    }
  });

  it('refuses NUL bytes and broken UTF-16 in strings before they reach the database', async () => {
    const admin = await loginAs('admin');
    const nul = await api().get('/api/user/getusersbyemail?email=a%00b').set(admin.auth);
    expectCleanError(nul);
    const surrogate = await api()
      .post('/api/user/authenticate')
      .set('Content-Type', 'application/json')
      .send('{"email":"a@example.test","password":"\\ud800-long-enough"}');
    expectCleanError(surrogate);
    expect(surrogate.body.errors).to.have.keys('password');
  });

  it('refuses numbers beyond what an id can be', async () => {
    const admin = await loginAs('admin');
    const res = await api()
      .post('/api/subscribe/insert')
      .set(admin.auth)
      .send({
        email: uniqueEmail('acct'),
        password: 'secret-1',
        platformId: 1e308,
        slotsCount: 2,
        femail: uniqueEmail('fwd'),
      });
    expectCleanError(res);
    expect(res.body.errors).to.have.keys('platformId');
  });

  it('two sign-ups racing on one e-mail: one account, the others 409, never 500', async () => {
    const email = uniqueEmail('race');
    const answers = await Promise.all(Array.from({ length: 10 }, () => api().post('/api/user/register').send({ email, password: 'good-pass-1' })));
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses, JSON.stringify(answers.map((res) => res.body))).to.deep.equal([200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    for (const res of answers.filter((r) => r.status === 409)) expect(res.body.code).to.equal('email_taken');
    expect(Number((await harness().knex('users').where({ email }).count({ n: '*' }))[0].n)).to.equal(1);
  });
});
