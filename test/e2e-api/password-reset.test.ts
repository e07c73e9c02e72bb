import { expect } from 'chai';
import { api, createUser, loginAs, uniqueEmail, uniqueIp } from '../support/agent.js';
import { harness, useWorker } from '../support/harness.js';
import { waitFor } from '../support/wait.js';

useWorker();

const minute = 60_000;
const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1];

/** Asks for a reset code and reads it from the e-mail that arrives by SMTP (the newest one). */
async function requestResetCode(email: string, ip = uniqueIp()) {
  const before = harness().smtp.messagesTo(email).length;
  const res = await api(undefined, ip).post('/api/user/forgotpassword').send({ email }).expect(200);
  expect(res.body).to.equal(true);
  const mail = await waitFor(() => harness().smtp.messagesTo(email)[before], { what: `a reset e-mail to ${email}` });
  return { code: codeIn(mail.text)!, mail };
}

const reset = (body: object, ip = uniqueIp()) => api(undefined, ip).post('/api/user/resetpassword').send(body);
const login = (email: string, password: string) => api().post('/api/user/authenticate').send({ email, password });

describe('password reset (through the API and a real SMTP server)', function () {
  // Several tests wait for two or three e-mails to go through the outbox and SMTP.
  this.timeout(60_000);

  it('mails a code that sets a new password, verifies the address, ends every session and logs in', async () => {
    const user = await createUser({ verified: false });
    const old = (await login(user.email, user.password).expect(200)).body.token as string;
    const { code, mail } = await requestResetCode(user.email);
    expect(mail.subject).to.contain('password reset code').and.not.contain(code);
    const stored = await harness().knex('verification_codes').where({ email: user.email }).first();
    expect(stored.purpose).to.equal('password_reset');
    expect(stored.code_hash).to.not.contain(code);

    const res = await reset({ email: user.email.toUpperCase(), code, password: 'fresh-pass-12' }).expect(200);
    expect(res.body).to.have.all.keys('id', 'token', 'tokenExpiration', 'isEmailVerified', 'photoUrl', 'role');
    expect(res.body.id).to.equal(user.id);
    expect(res.body.isEmailVerified).to.equal(true);
    const panel = (token: string) => api().get('/api/user/getuserpanel').query({ id: user.id }).set('Authorization', `Bearer ${token}`);
    await panel(res.body.token).expect(200);
    const ended = await panel(old).expect(401);
    expect(ended.body.code).to.equal('session_ended');

    await login(user.email, 'fresh-pass-12').expect(200);
    await login(user.email, user.password).expect(401);
    // The code works once.
    const again = await reset({ email: user.email, code, password: 'other-pass-123' }).expect(400);
    expect(again.body.code).to.equal('invalid_code');
  });

  it('answers an unknown address exactly like a known one, and mails nothing', async () => {
    const known = await createUser();
    const unknown = uniqueEmail('nobody');
    const ask = (email: string) => api().post('/api/user/forgotpassword').send({ email });
    const [a, b] = [await ask(known.email), await ask(unknown)];
    expect([a.status, b.status]).to.deep.equal([200, 200]);
    expect(a.body).to.deep.equal(b.body);
    // The per-address limit holds for both, with the same answer.
    const [a2, b2] = [await ask(known.email), await ask(unknown)];
    expect([a2.status, b2.status]).to.deep.equal([429, 429]);
    expect(a2.body).to.deep.equal(b2.body);
    await harness().mailTo(known.email);
    expect(harness().smtp.messagesTo(unknown)).to.have.length(0);

    // Trying codes from one source: the same answers, try by try, including the lock on the fifth.
    const triesOf = async (email: string) => {
      const answers: string[] = [];
      const ip = uniqueIp();
      for (let i = 0; i < 6; i++) {
        const r = await reset({ email, code: '000000', password: 'fresh-pass-12' }, ip);
        answers.push(`${r.status} ${r.body.code} ${r.body.message}`);
      }
      return answers;
    };
    const knownTries = await triesOf(known.email);
    expect(knownTries).to.deep.equal(await triesOf(unknown));
    expect(knownTries.slice(0, 4)).to.deep.equal(
      [4, 3, 2, 1].map((left) => `400 invalid_code The code is not correct or has expired. ${left} ${left === 1 ? 'try' : 'tries'} left.`),
    );
    expect(knownTries.slice(4).every((a) => a.startsWith('429'))).to.equal(true);
  });

  it('stops a stranger after 5 wrong codes without locking the owner out; the right code still works from elsewhere', async () => {
    const user = await createUser();
    const { code } = await requestResetCode(user.email);
    const wrong = code === '000000' ? '111111' : '000000';
    const stranger = uniqueIp();
    for (let attempt = 1; attempt <= 4; attempt++) {
      const res = await reset({ email: user.email, code: wrong, password: 'evil-pass-123' }, stranger).expect(400);
      expect(res.body.code).to.equal('invalid_code');
    }
    const locked = await reset({ email: user.email, code: wrong, password: 'evil-pass-123' }, stranger).expect(429);
    expect(locked.body.message).to.equal('Too many wrong codes. Wait an hour, then ask for a new code.');
    // The stranger is done for the hour, even with the right code.
    await reset({ email: user.email, code, password: 'evil-pass-123' }, stranger).expect(429);

    // The owner, at another address, sets the password with the code (was: 429 for an hour).
    await reset({ email: user.email, code, password: 'fresh-pass-12' }).expect(200);
    await login(user.email, 'fresh-pass-12').expect(200);
  });

  it('bounds guessing spread over many sources at 30 an hour per address; the owner where they logged in before still resets', async () => {
    const user = await createUser();
    const home = uniqueIp();
    await api(undefined, home).post('/api/user/authenticate').send({ email: user.email, password: user.password }).expect(200);
    const statuses: number[] = [];
    for (let source = 0; source < 8; source++) {
      const ip = uniqueIp();
      for (let attempt = 0; attempt < 4; attempt++) statuses.push((await reset({ email: user.email, code: '000000', password: 'evil-pass-123' }, ip)).status);
    }
    expect(statuses.slice(0, 30)).to.deep.equal(Array(30).fill(400));
    expect(statuses.slice(30)).to.deep.equal([429, 429]);
    const { code } = await requestResetCode(user.email, home);
    // A new device waits out the hour; the owner at home does not.
    await reset({ email: user.email, code, password: 'fresh-pass-12' }).expect(429);
    await reset({ email: user.email, code, password: 'fresh-pass-12' }, home).expect(200);
    await login(user.email, 'fresh-pass-12').expect(200);
  });

  it('expires a code after 10 minutes', async () => {
    const user = await createUser();
    const { code } = await requestResetCode(user.email);
    harness().clock.advance(10 * minute + 1_000);
    const res = await reset({ email: user.email, code, password: 'fresh-pass-12' }).expect(400);
    expect(res.body.code).to.equal('invalid_code');
    await login(user.email, user.password).expect(200);
  });

  it('limits requests per address (once a minute, 10 a day) and per IP (20 an hour)', async () => {
    const user = await createUser();
    const ask = () => api().post('/api/user/forgotpassword').send({ email: user.email });
    await ask().expect(200);
    const tooSoon = await ask().expect(429);
    expect(tooSoon.body.message).to.equal('Please wait a minute before asking for a new code.');
    expect(Number(tooSoon.headers['retry-after'])).to.be.within(1, 60);
    for (let sent = 2; sent <= 10; sent++) {
      harness().clock.advance(61_000);
      await ask().expect(200);
    }
    harness().clock.advance(61_000);
    const tooMany = await ask().expect(429);
    expect(tooMany.body.message).to.contain('too many codes today');
    const stored = await harness().knex('verification_codes').where({ email: user.email, purpose: 'password_reset' }).count<{ count: number }[]>('id as count');
    expect(Number(stored[0].count)).to.equal(10);

    const ip = uniqueIp();
    for (let i = 0; i < 20; i++)
      await api(undefined, ip)
        .post('/api/user/forgotpassword')
        .send({ email: uniqueEmail('ip') })
        .expect(200);
    await api(undefined, ip)
      .post('/api/user/forgotpassword')
      .send({ email: uniqueEmail('ip') })
      .expect(429);
  });

  it('keeps sign-up codes and reset codes apart', async () => {
    const email = uniqueEmail('apart');
    const registered = (await api().post('/api/user/register').send({ email, password: 'good-pass-1', languageId: 1 }).expect(200)).body;
    await api().post('/api/user/sendverificationcode').set('Authorization', `Bearer ${registered.token}`).send({ email }).expect(200);
    const signupMail = await harness().mailTo(email);
    const signupCode = codeIn(signupMail.text)!;
    // A sign-up code does not reset the password.
    await reset({ email, code: signupCode, password: 'fresh-pass-12' }).expect(400);
    await login(email, 'good-pass-1').expect(200);

    const { code: resetCode } = await requestResetCode(email);
    // A reset code does not verify the address.
    if (resetCode !== signupCode) {
      const res = await api().post('/api/user/sendverificationcodecallback').send({ email, code: resetCode }).expect(400);
      expect(res.body.code).to.equal('invalid_code');
    }
    // Asking for a reset code did not spend the sign-up code, nor the other way round.
    const verified = await api().post('/api/user/sendverificationcodecallback').send({ email, code: signupCode }).expect(200);
    expect(verified.body.isEmailVerified).to.equal(true);
    await reset({ email, code: resetCode, password: 'fresh-pass-12' }).expect(200);
  });

  it('staff sendemail kind 5 sends a sign-up code, never a reset code, whatever the body says', async () => {
    const staff = await loginAs('admin');
    const user = await createUser({ verified: false });
    const res = await api()
      .post('/api/email/sendemail')
      .set(staff.auth)
      .send({ userId: user.id, emailType: 5, purpose: 'passwordReset', data: { purpose: 'passwordReset' } });
    expect(res.status).to.be.oneOf([200, 400]);
    const codes = await harness().knex('verification_codes').where({ user_id: user.id });
    expect(codes.every((row: { purpose: string }) => row.purpose === 'signup')).to.equal(true);
    if (res.status === 200) {
      const mail = await harness().mailTo(user.email);
      expect(mail.subject).to.not.contain('reset');
      await reset({ email: user.email, code: codeIn(mail.text)!, password: 'fresh-pass-12' }).expect(400);
    }
    await login(user.email, user.password).expect(200);
  });

  it('applies the sign-up password rules, and mails Korean users in Korean', async () => {
    const user = await createUser({ languageId: 2 });
    const { code, mail } = await requestResetCode(user.email);
    expect(mail.subject + mail.text).to.match(/비밀번호 재설정/);
    const short = await reset({ email: user.email, code, password: 'short' }).expect(400);
    expect(short.body.errors.password).to.equal('Use at least 8 characters.');
    const long = await reset({ email: user.email, code, password: 'x'.repeat(19) }).expect(400);
    expect(long.body.errors.password).to.equal('Use at most 18 characters.');
    const missing = await api().post('/api/user/forgotpassword').send({}).expect(400);
    expect(missing.body.errors.email).to.equal('This field is required.');
    // Refused input spends no try: the code still works.
    await reset({ email: user.email, code, password: 'fresh-pass-12' }).expect(200);
  });
});

describe('changepassword attempt limit', () => {
  it('answers 429 after 10 wrong current passwords, refuses even the right one then, and frees it after 15 minutes', async () => {
    const user = await loginAs('user');
    const change = (currentPassword: string) =>
      api().post('/api/user/changepassword').set(user.auth).send({ currentPassword, newPassword: 'brand-new-pass-1' });
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 40; attempt++) statuses.push((await change(`wrong-pass-${attempt}`)).status);
    expect(statuses.slice(0, 10)).to.deep.equal(Array(10).fill(401));
    expect(statuses.slice(10)).to.deep.equal(Array(30).fill(429));

    const blocked = await change(user.password).expect(429);
    expect(blocked.body.code).to.equal('too_many_wrong_passwords');
    expect(Number(blocked.headers['retry-after'])).to.be.within(1, 15 * 60);

    harness().clock.advance(15 * 60_000 + 1_000);
    const changed = await change(user.password).expect(200);
    expect(changed.body.token).to.be.a('string');
  });

  it('cannot be raced: a parallel burst checks no more than the limit', async () => {
    const user = await loginAs('user');
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        api()
          .post('/api/user/changepassword')
          .set(user.auth)
          .send({ currentPassword: `burst-wrong-${i}`, newPassword: 'brand-new-pass-1' }),
      ),
    );
    const counts = answers.reduce<Record<number, number>>((acc, res) => ({ ...acc, [res.status]: (acc[res.status] ?? 0) + 1 }), {});
    expect(counts).to.deep.equal({ 401: 10, 429: 15 });
  });
});
