import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  ACCOUNT_SLOTS,
  ACTIVATION_HOURS,
  CODE_DIGITS,
  DASHBOARD_DAYS,
  HOUSEHOLD_LINK_MINUTES,
  PASSWORD_LENGTH,
  PROMISED_TEXT_VARS,
  REFUND_RESEND_MINUTES,
  REGISTER_PAGE_PASSWORD_LENGTH,
  REMINDER_DAYS,
  RENEWAL_ATTEMPTS,
  RENEWAL_RETRY_DAYS,
} from '@subshare/core/promises';
import { fillPlaceholders } from '../../packages/web/src/features/content/texts/index.js';
import { DICTIONARY } from '../../packages/web/src/features/language/dictionary/index.js';
import { translate } from '../../packages/web/src/features/language/texts.js';
import { PANEL_TEXTS } from '../../packages/web/src/features/panel/texts.js';

/**
 * The numbers promised to buyers live in core's promises (packages/core/src/promises); the web
 * texts name them (`{reminderDays}`) and the e-mails interpolate the constants. This scan finds a
 * text that writes one by hand: "3 days", "3일", "1 and 3 days", "24 hours", "24시간", "three times", "세 번 시도",
 * the password lengths ("8 to 18 characters", "8~18자"), the code's digits ("6-digit", "6자리"),
 * the household link's life ("15 minutes", "15분"), the dashboard's window ("30 days", "30일") and
 * an account's slots ("from 1 to 20", "1에서 20").
 *
 * Not flagged, on purpose: a Korean date ("3월 1일"), a larger number ending in the same digits
 * ("130 days", "13일"), and hours on a line about refunds or cancelling: those windows are runtime
 * configuration (REFUND_WINDOW_HOURS, RENEWAL_NOTICE_HOURS), not these constants.
 */
const DAY_NUMBERS = [...new Set<number>([REMINDER_DAYS, ...RENEWAL_RETRY_DAYS, DASHBOARD_DAYS])];
const HOUR_NUMBERS = [ACTIVATION_HOURS];
const ENGLISH_WORDS: Readonly<Record<number, string>> = { 2: 'two', 3: 'three', 4: 'four', 5: 'five' };
const KOREAN_WORDS: Readonly<Record<number, string>> = { 2: '두', 3: '세', 4: '네', 5: '다섯' };
const CONFIGURED_WINDOW = /refund|환불|cancel|해지/i;

function handWrittenPromises(source: string): string[] {
  const patterns = [
    // When staff may send a pending refund again; how long a household link lives.
    ...[REFUND_RESEND_MINUTES, HOUSEHOLD_LINK_MINUTES].flatMap((n) => [new RegExp(`(?<![\\w.,])${n} minutes?\\b`), new RegExp(`(?<![\\d.])${n}분`)]),
    // The password lengths the forms state ("8 to 18 characters", "8~18자").
    ...[PASSWORD_LENGTH, REGISTER_PAGE_PASSWORD_LENGTH].flatMap(({ min, max }) => [
      new RegExp(`(?<![\\w.,])${min} ?(?:to|-|–|~) ?${max} characters\\b`),
      new RegExp(`(?<![\\d.])${min} ?[~–-] ?${max}자`),
    ]),
    // The slots of an account, as the staff forms state them ("from 1 to 20", "1에서 20").
    new RegExp(`(?<![\\w.,])${ACCOUNT_SLOTS.min} to ${ACCOUNT_SLOTS.max}\\b(?! (?:months|characters))`),
    new RegExp(`(?<![\\d.])${ACCOUNT_SLOTS.min}에서 ${ACCOUNT_SLOTS.max}(?!\\d)`),
    // The e-mailed code's digits ("6-digit code", "6자리 코드").
    new RegExp(`(?<![\\w.,])${CODE_DIGITS}[- ]digits?\\b`),
    new RegExp(`(?<![\\d.])${CODE_DIGITS}자리`),
    // The attempts of a renewal charge, in figures or words ("three times", "세 번 시도").
    new RegExp(`(?<![\\w.,])(?:${RENEWAL_ATTEMPTS}|${ENGLISH_WORDS[RENEWAL_ATTEMPTS]}) ?(?:times|tries)\\b`, 'i'),
    new RegExp(`(?<![\\d.])(?:(?:${RENEWAL_ATTEMPTS}|${KOREAN_WORDS[RENEWAL_ATTEMPTS]}) ?번 시도|${RENEWAL_ATTEMPTS}회 중)`),
    ...DAY_NUMBERS.flatMap((n) => [new RegExp(`(?<![\\w.,])${n}(?: and \\d+)? days?\\b`), new RegExp(`(?<![\\d.]|월\\s?)${n}일`)]),
  ];
  // Hours, except on a line about a configured window (see above).
  const hourPatterns = HOUR_NUMBERS.flatMap((n) => [new RegExp(`(?<![\\w.,])${n} ?(?:hours?|h)\\b`), new RegExp(`(?<![\\d.])${n}시간`)]);
  return source
    .split('\n')
    .map((line, index) => ({ line, number: index + 1 }))
    .filter(
      ({ line }) => patterns.some((pattern) => pattern.test(line)) || (!CONFIGURED_WINDOW.test(line) && hourPatterns.some((pattern) => pattern.test(line))),
    )
    .map(({ line, number }) => `${number}: ${line.trim()}`);
}

/** The files whose texts reach buyers and staff: the web app's sources and the e-mail templates. */
function textSources(): string[] {
  const files = (folder: string): string[] =>
    readdirSync(folder, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'))
      .map((file) => path.join(folder, file));
  return [...files('packages/web/src'), ...files('packages/core/src/modules/notifications/templates'), 'packages/core/src/flows/renewal-link-texts.ts'];
}

describe('promised numbers', () => {
  it('are written by hand in no web text and no e-mail template', () => {
    const found = textSources().flatMap((file) => handWrittenPromises(readFileSync(file, 'utf8')).map((hit) => `${file}:${hit}`));
    expect(found, 'name the number from @subshare/core/promises instead').to.deep.equal([]);
  });

  it('flags a promised number written by hand, and leaves other numbers alone', () => {
    for (const text of [
      "'panel.autoRenewLink': 'We e-mail you 3 days before the end.',",
      "'panel.autoRenewLink': '종료 3일 전에 이메일을 보내 드려요.',",
      'A declined charge is tried again 1 and 3 days after the end.',
      "'platform.activation': 'Activated within 24 hours.',",
      "'home.promise': '24시간 이내 활성화',",
      'We tried three times to charge it.',
      "'admin.refundWhy': 'it can be sent again 5 minutes after the last try.',",
      "'admin.refundWhy': '마지막 시도 5분 후에 다시 보낼 수 있습니다.',",
      '결제를 세 번 시도했지만',
      "'admin.renewalsFailedDetail': '{status}, 3회 중 {attempts}회 시도',",
      "'login.passwordHint': '8 to 18 characters',",
      "'login.passwordHint': '8~18자',",
      "'register.passwordHint': '8 to 12 characters',",
      "'verify.intro': 'We sent a 6-digit code to {email}.',",
      "'verify.intro': '{email:으로} 6자리 코드를 보냈습니다.',",
      "'panel.householdStep4': 'it expires after 15 minutes.',",
      "'panel.householdStep4': '링크는 15분 후에 만료됩니다.',",
      "'admin.revenue': 'Revenue of the last 30 days',",
      "'admin.revenue': '최근 30일 매출',",
      "'admin.slotsInvalid': 'Enter a number from 1 to 20.',",
      "'admin.slotsHelp': '1에서 20까지; 플랫폼에서 채워집니다.',",
    ]) {
      expect(handWrittenPromises(text), text).to.have.length(1);
    }
    for (const text of [
      "'panel.autoRenewLink': 'We e-mail you {reminderDays} days before the end.',",
      '`Activated within ${ACTIVATION_HOURS} hours`',
      '// 2027년 3월 1일 오전 9:30 (한국 시간)',
      "'admin.revenue': 'Revenue of the last 130 days',",
      "'admin.revenue': '최근 130일 매출',",
      "'panel.step': 'It takes 6 steps, about 8 to 10 minutes.',",
      'You can ask for a refund within 24 hours of your purchase.',
      'Choose a duration of 1, 3, 6 or 12 months.',
      'it is never charged twice; 두 번 결제하지 않습니다.',
    ]) {
      expect(handWrittenPromises(text), text).to.deep.equal([]);
    }
  });

  it('fill the texts that name them, in both languages', () => {
    expect(translate(PANEL_TEXTS, 1, 'panel.autoRenewLink')).to.contain(`${REMINDER_DAYS} days before the end`);
    expect(translate(PANEL_TEXTS, 2, 'panel.autoRenewLink')).to.contain(`종료 ${REMINDER_DAYS}일 전에`);
    expect(translate(DICTIONARY, 2, 'platform.activation')).to.contain(`${ACTIVATION_HOURS}시간 이내에`);
    expect(translate(DICTIONARY, 1, 'form.passwordHint', PASSWORD_LENGTH)).to.equal(`${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters`);
    expect(translate(DICTIONARY, 2, 'verify.introNoEmail')).to.contain(`${CODE_DIGITS}자리 코드`);
    expect(translate(PANEL_TEXTS, 2, 'panel.householdStep4')).to.contain(`${HOUSEHOLD_LINK_MINUTES}분 후에`);
    // A value passed by the caller still wins over the promised default.
    expect(translate(PANEL_TEXTS, 1, 'panel.autoRenewLink', { reminderDays: 7 })).to.contain('7 days before');
    expect(fillPlaceholders('within {activationHours} hours', {})).to.equal(`within ${ACTIVATION_HOURS} hours`);
    for (const name of Object.keys(PROMISED_TEXT_VARS)) expect(translate(DICTIONARY, 1, 'home.promise', {})).to.not.contain(`{${name}}`);
  });
});
