/**
 * Korean particles after a value known only at run time (a name, an e-mail, an order number, an
 * amount). A particle has two forms, chosen by whether the word before it ends in a final
 * consonant (batchim): 주문 12를 / 주문 13을, 넷플릭스를 / 스포티파이를. Texts used to print
 * both ("을(를)", "(으)로"), which reads as a form letter; `withParticle` picks the one a Korean
 * reader expects. Shared by the web app and the server's e-mails (pure, no Node or browser APIs).
 *
 * What counts is the last letter or digit of the value, as it is READ in Korean:
 * - a Hangul syllable by its own final consonant;
 * - a number as it is read aloud: 1 일, 3 삼, 6 육, 7 칠, 8 팔, 0 영; a round number by its
 *   last unit (10 십, 100 백, 1000 천, 10000 만, 10^8 억, 10^12 조): "₩6,900" is 육천구백 (ㄱ);
 * - a Latin letter by its Korean name: L 엘, M 엠, N 엔, R 알 end in a consonant, the others
 *   (에이, 비, 씨 … 티, 엑스) do not, so "a@example.test" (…티) takes 를.
 * Anything else (punctuation, brackets, spaces) is skipped back to the last letter or digit.
 */

/** The particle pairs: the form after a final consonant, then the form after a vowel. */
const PAIRS = {
  을: ['을', '를'],
  를: ['을', '를'],
  이: ['이', '가'],
  가: ['이', '가'],
  은: ['은', '는'],
  는: ['은', '는'],
  과: ['과', '와'],
  와: ['과', '와'],
  으로: ['으로', '로'],
  로: ['으로', '로'],
  이에요: ['이에요', '예요'],
  예요: ['이에요', '예요'],
} as const;

export type KoreanParticle = keyof typeof PAIRS;

/** `null`: no final consonant; 'ㄹ' and 'other' matter apart because 으로/로 takes 로 after ㄹ. */
type Final = null | 'ㄹ' | 'other';

const HANGUL_FIRST = 0xac00;
const HANGUL_LAST = 0xd7a3;
/** The index of ㄹ among the 28 final-consonant slots (0 is none). */
const RIEUL = 8;

const DIGIT_FINAL: Record<string, Final> = {
  '0': 'other',
  '1': 'ㄹ',
  '2': null,
  '3': 'other',
  '4': null,
  '5': null,
  '6': 'other',
  '7': 'ㄹ',
  '8': 'ㄹ',
  '9': null,
};
const LETTER_FINAL: Record<string, Final> = { l: 'ㄹ', m: 'other', n: 'other', r: 'ㄹ' };

/**
 * The final sound of a run of digits read as a number. A round number ends in its last unit:
 * 십 (10), 백, 천, 만 (10^4 to 10^7), 억 (to 10^11) all end in a consonant, 조 (10^12) does not.
 */
function numberFinal(digits: string): Final {
  const trimmed = digits.replace(/^0+(?=\d)/, '');
  const zeros = /0*$/.exec(trimmed)![0].length;
  if (zeros === 0 || zeros === trimmed.length) return DIGIT_FINAL[trimmed[trimmed.length - 1]!]!;
  return zeros >= 12 ? null : 'other';
}

function finalOf(word: string): Final {
  // Thousands separators belong to the number: "6,900" is read as 6900.
  const text = word.replace(/(\d)[,\u00a0 ](?=\d{3}\b)/g, '$1');
  for (let i = text.length - 1; i >= 0; i -= 1) {
    const char = text[i]!;
    const code = char.charCodeAt(0);
    if (code >= HANGUL_FIRST && code <= HANGUL_LAST) {
      const final = (code - HANGUL_FIRST) % 28;
      return final === 0 ? null : final === RIEUL ? 'ㄹ' : 'other';
    }
    if (/\d/.test(char)) {
      // The number's digits after a decimal point are read one by one (4.99 → 사 점 구구).
      let start = i;
      while (start > 0 && /\d/.test(text[start - 1]!)) start -= 1;
      return start > 0 && text[start - 1] === '.' ? DIGIT_FINAL[char]! : numberFinal(text.slice(start, i + 1));
    }
    if (/[a-z]/i.test(char)) return LETTER_FINAL[char.toLowerCase()] ?? null;
  }
  return null;
}

/** The form of `particle` that follows `word` (either form may be given: 을 or 를 picks the pair). */
export function particleFor(word: string, particle: KoreanParticle): string {
  const [afterConsonant, afterVowel] = PAIRS[particle];
  const final = finalOf(word);
  if (afterConsonant === '으로') return final === 'other' ? '으로' : '로';
  return final === null ? afterVowel : afterConsonant;
}

/** `word` followed by the right form of `particle`: withParticle('주문 12', '을') → '주문 12를'. */
export function withParticle(word: string, particle: KoreanParticle): string {
  return word + particleFor(word, particle);
}

/** Whether `name` is one of the particles a `{value:particle}` placeholder may name. */
export function isKoreanParticle(name: string): name is KoreanParticle {
  return Object.hasOwn(PAIRS, name);
}
