import { expect } from 'chai';
import { api, createUser } from '../support/agent.js';

/**
 * The server answers errors in English with a stable `code`, whatever language the client asks
 * for: a client that shows them in Korean translates by the code (the web app does, see
 * test/unit/web-error-texts.test.ts and the Korean login in test/e2e-browser/signup.test.ts).
 */
describe('error answers: English messages and stable codes in every language', function () {
  this.timeout(30_000);

  it('a wrong password: the same English answer and code for a Korean and an English client', async () => {
    const user = await createUser();
    const login = { email: user.email, password: 'not-the-password-1' };
    const expected = { message: 'The e-mail or password is not correct.', code: 'invalid_credentials' };
    expect((await api().post('/api/user/authenticate').set('Accept-Language', 'ko').send(login).expect(401)).body).to.deep.equal(expected);
    expect((await api().post('/api/user/authenticate').send(login).expect(401)).body).to.deep.equal(expected);
  });

  it('also for errors that are not ours: malformed JSON and validation, with per-field messages', async () => {
    const malformed = await api()
      .post('/api/user/authenticate')
      .set('Accept-Language', 'ko-KR,ko;q=0.9')
      .set('Content-Type', 'application/json')
      .send('{"email":')
      .expect(400);
    expect(malformed.body).to.deep.equal({ message: 'The request body is not valid JSON.', code: 'malformed_json' });
    const invalid = await api().post('/api/user/authenticate').set('Accept-Language', 'ko').send({ email: 'nope' }).expect(400);
    expect(invalid.body.message).to.equal('Some fields are missing or invalid.');
    expect(invalid.body.code).to.equal('validation');
    expect(invalid.body.errors).to.have.property('email').that.is.a('string');
  });
});
