import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ApiError } from '../../packages/web/src/services/api/client.js';
import { errorText, loadErrorTexts, serverErrorText } from '../../packages/web/src/features/language/errors/index.js';
import { KOREAN_ERRORS } from '../../packages/web/src/features/language/errors/ko.js';
import { DICTIONARY } from '../../packages/web/src/features/language/dictionary/index.js';
import { defineTexts, translate } from '../../packages/web/src/features/language/texts.js';

/** Every .ts file below these folders, as one text. */
function sourceText(...folders: string[]): string {
  const texts: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts')) texts.push(readFileSync(full, 'utf8'));
    }
  };
  folders.forEach(walk);
  return texts.join('\n');
}

const wrongPassword = () => new ApiError(401, { message: 'The e-mail or password is not correct.', code: 'invalid_credentials' }, 'Unauthorized');

describe('web: the one translator', () => {
  it('reads a table in the language asked, English when a text is missing, placeholders filled', () => {
    const texts = defineTexts<'hello' | 'only'>({ hello: 'Hello {name}', only: 'English only' }, { hello: '안녕하세요 {name}님', only: '' });
    expect(translate(texts, 1, 'hello', { name: 'Kim' })).to.equal('Hello Kim');
    expect(translate(texts, 2, 'hello', { name: 'Kim' })).to.equal('안녕하세요 Kim님');
    expect(translate(texts, 2, 'hello')).to.equal('안녕하세요 {name}님');
    expect(translate(DICTIONARY, 2, 'form.minLength', { min: 8 }))
      .to.match(/8/)
      .and.to.match(/[\uac00-\ud7a3]/);
  });
});

describe('web: server errors in the visitor language, by their code', () => {
  it('a Korean visitor reads the Korean text of the code; an English one the server message as it came', async () => {
    const korean = await loadErrorTexts(2);
    expect(errorText(wrongPassword(), 2, korean)).to.equal('이메일 또는 비밀번호가 올바르지 않습니다.');
    expect(errorText(wrongPassword(), 1, await loadErrorTexts(1))).to.equal('The e-mail or password is not correct.');
    // The number of tries left is in the English message only: Korean says what the code means.
    const wrongCode = new ApiError(400, { message: 'The code is not correct. 4 tries left.', code: 'invalid_code' }, 'Bad Request');
    expect(errorText(wrongCode, 2, korean)).to.match(/^인증 코드가 올바르지 않습니다/);
  });

  it('a code without a Korean text yet shows the server message; no message at all a translated fallback', async () => {
    const korean = await loadErrorTexts(2);
    const unknown = new ApiError(409, { message: 'Something new happened.', code: 'something_new' }, 'Conflict');
    expect(errorText(unknown, 2, korean)).to.equal('Something new happened.');
    const inherited = new ApiError(400, { message: 'Inherited?', code: 'toString' }, 'Bad Request');
    expect(errorText(inherited, 2, korean)).to.equal('Inherited?');
    const network = new ApiError(0, { code: 'network_error' }, 'The server could not be reached.');
    expect(serverErrorText(network, korean)).to.equal(null);
    expect(errorText(network, 2, korean)).to.equal(translate(DICTIONARY, 2, 'errors.network'));
    expect(errorText(network, 1, null)).to.equal(translate(DICTIONARY, 1, 'errors.network'));
    expect(errorText(new ApiError(502, {}, 'Bad Gateway'), 2, korean)).to.equal(translate(DICTIONARY, 2, 'errors.generic'));
    expect(errorText(new Error('boom'), 1, null)).to.equal(translate(DICTIONARY, 1, 'errors.generic'));
  });

  it('every code with a Korean text is one the server still raises, and every text is Korean', () => {
    const source = sourceText('packages/core/src', 'packages/http/src');
    const stale = Object.keys(KOREAN_ERRORS).filter((code) => !source.includes(`'${code}'`));
    expect(stale, 'codes no longer in the server source').to.deep.equal([]);
    for (const [code, korean] of Object.entries(KOREAN_ERRORS)) expect(korean, code).to.match(/[\uac00-\ud7a3]/);
  });

  it('the failures the screens show (spec section 8: login, codes, payments, the panel) all have Korean texts', () => {
    const shown = [
      'invalid_credentials',
      'email_taken',
      'too_many_requests',
      'invalid_code',
      'already_verified',
      'validation',
      'order_not_payable',
      'method_unavailable',
      'payssion_unavailable',
      'payssion_repeated_order',
      'invitation_email_set',
      'order_closed',
      'subscription_not_active',
      'mailbox_unavailable',
      'internal',
      'database_unavailable',
    ];
    expect(shown.filter((code) => !(code in KOREAN_ERRORS))).to.deep.equal([]);
  });
});
