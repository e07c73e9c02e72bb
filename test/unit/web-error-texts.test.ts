import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ERRORS, HTTP_ERROR_CODES, isErrorCode } from '@subshare/core/wire';
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
    // The number of tries left comes as a param: Korean says it too, and leaves it out when the server did.
    const wrongCode = new ApiError(
      400,
      { message: 'The code is not correct or has expired. 4 tries left.', code: 'invalid_code', params: { triesLeft: 4 } },
      'Bad Request',
    );
    expect(errorText(wrongCode, 2, korean)).to.equal('인증 코드가 올바르지 않거나 만료되었습니다. 남은 시도 횟수: 4회.');
    const noCount = new ApiError(400, { message: 'The code is not correct or has expired.', code: 'invalid_code' }, 'Bad Request');
    expect(errorText(noCount, 2, korean)).to.equal('인증 코드가 올바르지 않거나 만료되었습니다.');
  });

  it('a code without a Korean text yet shows the server message; no message at all a translated fallback', async () => {
    const korean = await loadErrorTexts(2);
    const unknown = new ApiError(409, { message: 'Something new happened.', code: 'something_new' }, 'Conflict');
    expect(errorText(unknown, 2, korean)).to.equal('Something new happened.');
    const inherited = new ApiError(400, { message: 'Inherited?', code: 'toString' }, 'Bad Request');
    expect(errorText(inherited, 2, korean)).to.equal('Inherited?');
    const network = ApiError.unreachable();
    expect(serverErrorText(network, korean)).to.equal(null);
    expect(errorText(network, 2, korean)).to.equal(translate(DICTIONARY, 2, 'errors.network'));
    expect(errorText(network, 1, null)).to.equal(translate(DICTIONARY, 1, 'errors.network'));
    expect(errorText(new ApiError(502, {}, 'Bad Gateway'), 2, korean)).to.equal(translate(DICTIONARY, 2, 'errors.generic'));
    expect(errorText(new Error('boom'), 1, null)).to.equal(translate(DICTIONARY, 1, 'errors.generic'));
  });

  it('every code of the error dictionary an HTTP call can answer has Korean, and no other code does', () => {
    const missing = HTTP_ERROR_CODES.filter((code) => !Object.hasOwn(KOREAN_ERRORS, code));
    expect(missing, 'codes without Korean').to.deep.equal([]);
    const stale = Object.keys(KOREAN_ERRORS).filter((code) => !(HTTP_ERROR_CODES as string[]).includes(code));
    expect(stale, 'Korean for codes the dictionary does not declare').to.deep.equal([]);
    for (const [code, korean] of Object.entries(KOREAN_ERRORS)) expect(korean, code).to.match(/[\uac00-\ud7a3]/);
  });

  it('a Korean text names the same placeholders as the English message', () => {
    const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map(([, name]) => name).sort();
    for (const code of HTTP_ERROR_CODES) {
      const english = names(ERRORS[code].message);
      for (const name of names(KOREAN_ERRORS[code])) expect(english, `${code}: {${name}}`).to.include(name);
    }
  });

  it('the server throws only codes of the dictionary: every quoted code in core and http is declared', () => {
    const source = sourceText('packages/core/src', 'packages/http/src');
    const thrown = [...source.matchAll(/\bfail\('(\w+)'/g)].map(([, code]) => code);
    expect(thrown.length).to.be.greaterThan(50);
    expect(thrown.filter((code) => !isErrorCode(code))).to.deep.equal([]);
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
