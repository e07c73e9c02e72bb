import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { particleFor, withParticle } from '@subshare/core/validation';
import { translate, defineTexts } from '../../packages/web/src/features/language/texts.js';
import { fillPlaceholders } from '../../packages/web/src/features/content/texts/index.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return entry === 'node_modules' || entry === 'dist' ? [] : sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry) ? [full] : [];
  });
}

/**
 * Issue 24: Korean particles are chosen by the final consonant (batchim) of the word before them,
 * digits and Latin letters by how they are read in Korean; no text prints both forms.
 */
describe('Korean particles', () => {
  it('follow the last Hangul syllable', () => {
    expect(withParticle('관리자', '을')).to.equal('관리자를');
    expect(withParticle('모더레이터', '으로')).to.equal('모더레이터로');
    expect(withParticle('일반 사용자 (스태프 아님)', '으로')).to.equal('일반 사용자 (스태프 아님)으로');
    expect(withParticle('서울', '으로')).to.equal('서울로'); // ㄹ takes 로
    expect(withParticle('주문', '이')).to.equal('주문이');
    expect(withParticle('넷플릭스', '은')).to.equal('넷플릭스는');
    expect(particleFor('책', '과')).to.equal('과');
    expect(particleFor('나무', '과')).to.equal('와');
    expect(particleFor('학생', '예요')).to.equal('이에요');
  });

  it('read digits and numbers as Korean does', () => {
    expect(withParticle('주문 12', '을')).to.equal('주문 12를'); // 십이
    expect(withParticle('주문 13', '을')).to.equal('주문 13을'); // 십삼
    expect(withParticle('주문 #7', '이')).to.equal('주문 #7이'); // 칠
    expect(withParticle('주문 #17', '으로')).to.equal('주문 #17로'); // 칠: ㄹ
    expect(withParticle('주문 #10', '이')).to.equal('주문 #10이'); // 십
    expect(withParticle('₩6,900', '을')).to.equal('₩6,900을'); // 육천구백
    expect(withParticle('₩10,000', '이')).to.equal('₩10,000이'); // 만
    expect(withParticle('€4.99', '을')).to.equal('€4.99를'); // 사 점 구구
    expect(withParticle('0', '이')).to.equal('0이'); // 영
    expect(withParticle('2', '은')).to.equal('2는'); // 이
  });

  it('read Latin letters by their Korean names (L, M, N, R end in a consonant)', () => {
    expect(withParticle('buyer@example.test', '으로')).to.equal('buyer@example.test로'); // 티
    expect(withParticle('a@mail.com', '을')).to.equal('a@mail.com을'); // 엠
    expect(withParticle('ACME Ltd', '이')).to.equal('ACME Ltd가'); // 디
    expect(withParticle('subshare.uk.ltd.l', '으로')).to.equal('subshare.uk.ltd.l로'); // 엘: ㄹ
    expect(withParticle('Premium', '은')).to.equal('Premium은');
    expect(withParticle('Stripe', '와')).to.equal('Stripe와');
  });

  it('fill `{name:particle}` placeholders in both translators', () => {
    const texts = defineTexts<'saved'>({ saved: '{name} is saved.' }, { saved: '{name:을} 저장했습니다.' });
    expect(translate(texts, 2, 'saved', { name: '스트림박스' })).to.equal('스트림박스를 저장했습니다.');
    expect(translate(texts, 2, 'saved', { name: 'Reelnest' })).to.equal('Reelnest를 저장했습니다.');
    expect(translate(texts, 2, 'saved', { name: '뮤직' })).to.equal('뮤직을 저장했습니다.');
    expect(translate(texts, 1, 'saved', { name: 'Reelnest' })).to.equal('Reelnest is saved.');
    expect(fillPlaceholders('{email:으로} 연락해 주세요.', { email: 'help@subshare.example' })).to.equal('help@subshare.example로 연락해 주세요.');
  });

  it('no text prints both forms ("을(를)", "(으)로" …)', () => {
    const fallbacks = /을\(를\)|를\(을\)|이\(가\)|가\(이\)|은\(는\)|는\(은\)|과\(와\)|와\(과\)|\(으\)로|\(이\)라/;
    const offenders = ['packages/web/src', 'packages/core/src', 'packages/http/src', 'packages/worker/src', 'packages/cli/src']
      .flatMap((dir) => sourceFiles(path.join(ROOT, dir)))
      .filter((file) => !file.endsWith('korean-particles.ts'))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, index) => (fallbacks.test(line) ? [`${path.relative(ROOT, file)}:${index + 1}`] : [])),
      );
    expect(offenders).to.deep.equal([]);
  });
});
