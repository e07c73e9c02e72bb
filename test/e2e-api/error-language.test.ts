import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { KOREAN_MESSAGES, translateMessage } from '@subshare/http';
import { api, createUser } from '../support/agent.js';

/** Every .ts file below these folders, as one text. */
function sourceText(...folders: string[]): string {
  const texts: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.startsWith('error-messages')) texts.push(readFileSync(full, 'utf8'));
    }
  };
  folders.forEach(walk);
  return texts.join('\n');
}

/**
 * The Korean interface shows the server's error messages as they come (spec section 8): it asks
 * for Korean with Accept-Language and gets them in Korean; codes stay the same in every language.
 */
describe('error messages in the language the client asks for', function () {
  this.timeout(30_000);

  it('a wrong password: Korean for a Korean client, English otherwise, the same code', async () => {
    const user = await createUser();
    const login = { email: user.email, password: 'not-the-password-1' };
    const ko = await api().post('/api/user/authenticate').set('Accept-Language', 'ko').send(login).expect(401);
    expect(ko.body).to.deep.equal({ message: '이메일 또는 비밀번호가 올바르지 않습니다.', code: 'invalid_credentials' });
    const en = await api().post('/api/user/authenticate').send(login).expect(401);
    expect(en.body).to.deep.equal({ message: 'The e-mail or password is not correct.', code: 'invalid_credentials' });
  });

  it('follows the preference order of Accept-Language', async () => {
    const missing = (language: string) => api().get('/api/user/getuserpanel').set('Accept-Language', language).expect(401);
    expect((await missing('ko-KR,ko;q=0.9,en;q=0.8')).body.message).to.equal('로그인이 필요합니다.');
    expect((await missing('en-US,en;q=0.9,ko;q=0.5')).body.message).to.equal('You need to log in.');
    expect((await missing('fr')).body.message).to.equal('You need to log in.');
  });

  it('also for errors that are not ours: malformed JSON and validation', async () => {
    const malformed = await api()
      .post('/api/user/authenticate')
      .set('Accept-Language', 'ko')
      .set('Content-Type', 'application/json')
      .send('{"email":')
      .expect(400);
    expect(malformed.body).to.deep.equal({ message: '요청 형식이 올바르지 않습니다.', code: 'malformed_json' });
    const invalid = await api().post('/api/user/authenticate').set('Accept-Language', 'ko').send({ email: 'nope' }).expect(400);
    expect(invalid.body.message).to.equal('입력값이 없거나 올바르지 않습니다.');
    expect(invalid.body.errors).to.have.property('email');
  });

  it('translates the messages that carry a number, and leaves unknown ones in English', () => {
    expect(translateMessage('The code is not correct. 4 tries left.', 'ko')).to.equal('인증 코드가 올바르지 않습니다. 4번 더 시도할 수 있습니다.');
    expect(translateMessage('The code is not correct. 1 try left.', 'ko')).to.equal('인증 코드가 올바르지 않습니다. 1번 더 시도할 수 있습니다.');
    expect(translateMessage('The code is not correct. 4 tries left.', 'en')).to.equal('The code is not correct. 4 tries left.');
    expect(translateMessage('Something new.', 'ko')).to.equal('Something new.');
  });

  it('every translated message is still one the server says, and each translation is Korean', () => {
    const source = sourceText('packages/core/src', 'packages/http/src');
    const stale = Object.keys(KOREAN_MESSAGES).filter((english) => !source.includes(`'${english}'`));
    expect(stale, 'English messages no longer in the source').to.deep.equal([]);
    for (const korean of Object.values(KOREAN_MESSAGES)) expect(korean).to.match(/[\uac00-\ud7a3]/);
  });
});
