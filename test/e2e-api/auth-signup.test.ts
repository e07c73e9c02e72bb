import { expect } from 'chai';
import { api, createUser, uniqueEmail, uniqueIp } from '../support/agent.js';
import { harness, useWorker } from '../support/harness.js';
import { waitFor } from '../support/wait.js';

useWorker();

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1];

async function register(email: string, password = 'good-pass-1', languageId = 1) {
  const res = await api().post('/api/user/register').send({ email, password, languageId }).expect(200);
  return res.body as { id: number; token: string; tokenExpiration: string; isEmailVerified: boolean; photoUrl: string | null; role: number };
}

/** Asks for a code and reads it from the e-mail that arrives by SMTP (the newest one). */
async function requestCode(token: string, email: string) {
  const before = harness().smtp.messagesTo(email).length;
  await api().post('/api/user/sendverificationcode').set('Authorization', `Bearer ${token}`).send({ email }).expect(200);
  const mail = await waitFor(() => harness().smtp.messagesTo(email)[before], { what: `a code e-mail to ${email}` });
  return { code: codeIn(mail.text)!, mail };
}

describe('sign-up and e-mail verification (through the API and a real SMTP server)', () => {
  it('takes a new buyer from checkemail to a verified login', async () => {
    const email = uniqueEmail('signup');
    expect((await api().get('/api/user/checkemail').query({ email }).expect(200)).body).to.equal(false);

    const registered = await register(email);
    expect(registered).to.have.all.keys('id', 'token', 'tokenExpiration', 'isEmailVerified', 'photoUrl', 'role');
    expect(registered.isEmailVerified).to.equal(false);
    expect(registered.role).to.equal(0);
    const lifetime = new Date(registered.tokenExpiration).getTime() - harness().clock.now().getTime();
    expect(lifetime).to.be.within(2 * 24 * 3600_000 - 60_000, 2 * 24 * 3600_000 + 60_000);
    expect((await api().get('/api/user/checkemail').query({ email: email.toUpperCase() }).expect(200)).body).to.equal(true);

    const { code, mail } = await requestCode(registered.token, email);
    expect(mail.subject).to.not.equal('');
    expect(mail.html).to.contain(code);
    const stored = await harness().knex('verification_codes').where({ email }).first();
    expect(stored.code_hash).to.not.contain(code);

    const verified = await api().post('/api/user/sendverificationcodecallback').send({ email, code }).expect(200);
    expect(verified.body.isEmailVerified).to.equal(true);
    expect(verified.body.token).to.be.a('string').and.not.equal(registered.token);
    expect((await harness().knex('users').where({ email }).first()).is_email_verified).to.equal(true);
    // The welcome e-mail follows the verification.
    await harness().mailTo(email, (m) => codeIn(m.text) === undefined || m.subject !== mail.subject);

    // The code is single use.
    const again = await api().post('/api/user/sendverificationcodecallback').send({ email, code }).expect(400);
    expect(again.body.code).to.equal('invalid_code');
  });

  it('sends the code in Korean to a Korean buyer', async () => {
    const email = uniqueEmail('ko');
    const registered = await register(email, 'good-pass-1', 2);
    const { mail } = await requestCode(registered.token, email);
    expect(mail.text + mail.subject).to.match(/[\uac00-\ud7a3]/);
  });

  it('refuses a duplicate e-mail with 409 and keeps the first account', async () => {
    const email = uniqueEmail('dup');
    await register(email);
    const res = await api().post('/api/user/register').send({ email: email.toUpperCase(), password: 'other-pass-2', languageId: 1 }).expect(409);
    expect(res.body.code).to.equal('email_taken');
  });

  it('applies every validation rule of the spec with field errors', async () => {
    const cases: Array<[object, string, string]> = [
      [{ password: 'good-pass-1' }, 'email', 'This field is required.'],
      [{ email: 'not-an-email', password: 'good-pass-1' }, 'email', 'Enter a valid e-mail address.'],
      [{ email: uniqueEmail(), password: 'short' }, 'password', 'Use at least 8 characters.'],
      [{ email: uniqueEmail(), password: 'x'.repeat(19) }, 'password', 'Use at most 18 characters.'],
      [{ email: uniqueEmail() }, 'password', 'This field is required.'],
      [{ email: 42, password: 'good-pass-1' }, 'email', 'Enter a valid e-mail address.'],
    ];
    for (const [body, field, message] of cases) {
      const res = await api().post('/api/user/register').send(body).expect(400);
      expect(res.body.code).to.equal('validation');
      expect(res.body.errors[field], JSON.stringify(body)).to.equal(message);
    }
    const badCode = await api().post('/api/user/sendverificationcodecallback').send({ email: uniqueEmail(), code: '1234567' }).expect(400);
    expect(badCode.body.errors.code).to.equal('Use at most 6 characters.');
    const badLanguage = await api().post('/api/user/register').send({ email: uniqueEmail(), password: 'good-pass-1', languageId: 9 }).expect(400);
    expect(badLanguage.body.errors).to.have.property('languageId');
    const noEmail = await api().get('/api/user/checkemail').expect(400);
    expect(noEmail.body.errors.email).to.equal('This field is required.');
  });

  it('accepts passwords of exactly 8 and 18 characters', async () => {
    await register(uniqueEmail('p8'), '12345678');
    await register(uniqueEmail('p18'), '123456789012345678');
  });

  it('lets an unverified user log in, and says so', async () => {
    const user = await createUser({ verified: false });
    const res = await api().post('/api/user/authenticate').send({ email: user.email, password: user.password }).expect(200);
    expect(res.body.isEmailVerified).to.equal(false);
  });

  it('only sends codes to the caller, and not once verified', async () => {
    const email = uniqueEmail('mine');
    const registered = await register(email);
    const other = await api()
      .post('/api/user/sendverificationcode')
      .set('Authorization', `Bearer ${registered.token}`)
      .send({ email: uniqueEmail() })
      .expect(403);
    expect(other.body.code).to.equal('not_your_email');
    await api().post('/api/user/sendverificationcode').send({ email }).expect(401);
    const verified = await createUser({ verified: true });
    const login = await api().post('/api/user/authenticate').send({ email: verified.email, password: verified.password }).expect(200);
    const res = await api()
      .post('/api/user/sendverificationcode')
      .set('Authorization', `Bearer ${login.body.token}`)
      .send({ email: verified.email })
      .expect(409);
    expect(res.body.code).to.equal('already_verified');
  });
});

describe('verification code rules', () => {
  const minute = 60_000;

  it('expires a code after 10 minutes', async () => {
    const email = uniqueEmail('expiry');
    const registered = await register(email);
    const { code } = await requestCode(registered.token, email);
    harness().clock.advance(10 * minute + 1_000);
    const res = await api().post('/api/user/sendverificationcodecallback').send({ email, code }).expect(400);
    expect(res.body.code).to.equal('invalid_code');
  });

  it("gives a source 5 tries an hour; a stranger's wrong codes do not lock the owner out", async () => {
    const email = uniqueEmail('lock');
    const registered = await register(email);
    const { code } = await requestCode(registered.token, email);
    const wrong = code === '000000' ? '111111' : '000000';
    const stranger = uniqueIp();
    const check = (value: string, ip: string) => api(undefined, ip).post('/api/user/sendverificationcodecallback').send({ email, code: value });
    for (let attempt = 1; attempt <= 4; attempt++) {
      const res = await check(wrong, stranger).expect(400);
      expect(res.body.code).to.equal('invalid_code');
      expect(res.body.message).to.contain(`${5 - attempt} ${5 - attempt === 1 ? 'try' : 'tries'} left`);
    }
    const locked = await check(wrong, stranger).expect(429);
    expect(Number(locked.headers['retry-after'])).to.be.within(3500, 3600);
    // That source is done for the hour, even with the right code.
    await check(code, stranger).expect(429);

    // The owner, elsewhere, is not touched: the code still works.
    const res = await check(code, uniqueIp()).expect(200);
    expect(res.body.isEmailVerified).to.equal(true);

    // After an hour the stranger's slate is clean.
    harness().clock.advance(61 * minute);
    await check(wrong, stranger).expect(400);
  });

  it('bounds guessing spread over many sources at 30 an hour per address; sources that logged in are exempt', async () => {
    const user = await createUser({ verified: false });
    const home = uniqueIp();
    const login = await api(undefined, home).post('/api/user/authenticate').send({ email: user.email, password: user.password }).expect(200);
    const check = (value: string, ip: string) => api(undefined, ip).post('/api/user/sendverificationcodecallback').send({ email: user.email, code: value });
    const statuses: number[] = [];
    for (let source = 0; source < 8; source++) {
      const ip = uniqueIp();
      for (let attempt = 0; attempt < 4; attempt++) statuses.push((await check('000000', ip)).status);
    }
    expect(statuses.slice(0, 30)).to.deep.equal(Array(30).fill(400));
    expect(statuses.slice(30)).to.deep.equal([429, 429]);
    // A new device waits; the owner at home does not.
    await check('000000', uniqueIp()).expect(429);
    await api().post('/api/user/sendverificationcode').set('Authorization', `Bearer ${login.body.token}`).send({ email: user.email }).expect(200);
    const mail = await harness().mailTo(user.email);
    const res = await check(codeIn(mail.text)!, home).expect(200);
    expect(res.body.isEmailVerified).to.equal(true);
  });

  it('sends at most one code a minute and ten a day per address', async () => {
    const email = uniqueEmail('resend');
    const registered = await register(email);
    const send = () => api().post('/api/user/sendverificationcode').set('Authorization', `Bearer ${registered.token}`).send({ email });
    await send().expect(200);
    const tooSoon = await send().expect(429);
    expect(tooSoon.body.message).to.equal('Please wait a minute before asking for a new code.');
    expect(Number(tooSoon.headers['retry-after'])).to.be.within(1, 60);
    for (let sent = 2; sent <= 10; sent++) {
      harness().clock.advance(61_000);
      await send().expect(200);
    }
    harness().clock.advance(61_000);
    const tooMany = await send().expect(429);
    expect(tooMany.body.message).to.contain('too many codes today');
    const stored = await harness().knex('verification_codes').where({ email }).count<{ count: number }[]>('id as count');
    expect(Number(stored[0].count)).to.equal(10);
  });

  it('does not tell whether an e-mail exists through the code check: a known address answers like an unknown one', async () => {
    // Each address is tried from a source of its own, as an outsider would probe them.
    const answersFor = async (email: string, codes: string[]) => {
      const ip = uniqueIp();
      const answers: string[] = [];
      for (const code of codes) {
        const res = await api(undefined, ip).post('/api/user/sendverificationcodecallback').send({ email, code });
        answers.push(`${res.status} ${res.body.code} ${res.body.message} ${JSON.stringify(res.body.errors)}`);
      }
      return answers;
    };
    const guesses = ['123456', '234567', '345678', '456789', '567890', '678901'];
    const unknown = await answersFor(uniqueEmail('ghost'), guesses);
    expect(unknown[0]).to.match(/^400 invalid_code /);
    expect(unknown[4]).to.match(/^429 /);

    // A known address with no code at all.
    const noCode = await register(uniqueEmail('nocode'));
    expect(await answersFor((await harness().knex('users').where({ id: noCode.id }).first()).email, guesses)).to.deep.equal(unknown);

    // A known address whose code has expired (its right code is among the guesses), and one whose code was spent.
    const expiredEmail = uniqueEmail('expired');
    const expired = await register(expiredEmail);
    const { code: stale } = await requestCode(expired.token, expiredEmail);
    harness().clock.advance(10 * 60_000 + 1_000);
    expect(await answersFor(expiredEmail, [stale, ...guesses.slice(1)])).to.deep.equal(unknown);

    const spentEmail = uniqueEmail('spent');
    const spent = await register(spentEmail);
    const { code: used } = await requestCode(spent.token, spentEmail);
    await api().post('/api/user/sendverificationcodecallback').send({ email: spentEmail, code: used }).expect(200);
    expect(await answersFor(spentEmail, [used, ...guesses.slice(1)])).to.deep.equal(unknown);
  });
});
