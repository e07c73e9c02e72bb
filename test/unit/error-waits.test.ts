import { expect } from 'chai';
import { CODE_RULES, IDENTITY_RATE_LIMITS, PROBLEM_REPORT_WINDOW_MS } from '@subshare/core';
import { ERRORS } from '@subshare/core/wire';
import { KOREAN_ERRORS } from '../../packages/web/src/features/language/errors/ko.js';

/**
 * Three error messages state a wait in words ("a minute", "an hour"; "1분", "한 시간") while the
 * limit behind them is a number in core: the two are kept in two places. This holds them in
 * step: a limit changed without its message (in both languages) fails here.
 */
const IN_WORDS: Readonly<Record<number, { en: string; ko: RegExp }>> = {
  60_000: { en: 'a minute', ko: /1분/ },
  3_600_000: { en: 'an hour', ko: /1시간|한 시간/ },
};

describe('error messages that state a wait in words', () => {
  const waits = {
    // Asking for a new code: one a minute per address, and the service's own resend interval.
    code_requested_recently: [CODE_RULES.resendIntervalMs, IDENTITY_RATE_LIMITS.resetSendPerAddress.windowSeconds * 1000],
    // Wrong codes: the per address and source window.
    too_many_wrong_codes: [IDENTITY_RATE_LIMITS.codeTriesPerAddressAndSource.windowSeconds * 1000],
    // One problem report per subscription in this window.
    problem_already_reported: [PROBLEM_REPORT_WINDOW_MS],
  } as const;

  for (const [code, limits] of Object.entries(waits) as Array<[keyof typeof waits, readonly number[]]>) {
    it(`${code} says the wait its limit enforces, in English and Korean`, () => {
      for (const ms of limits) {
        const words = IN_WORDS[ms];
        expect(words, `${code}: a wait of ${ms} ms has no words here; say it in the message and add it`).to.not.equal(undefined);
        expect(ERRORS[code].message).to.contain(words!.en);
        expect(KOREAN_ERRORS[code]).to.match(words!.ko);
      }
    });
  }
});
