/** 5 verificationCode: a one-time code to confirm the address, or (purpose passwordReset) to reset the password. */
import { EMAIL_KIND } from '../../email-kinds.js';
import { code, emailTemplate, note, paragraph } from '../parts.js';
import type { Tools } from '../tools.js';
import { CODE_DIGITS } from '../../../../promises/index.js';

const CODE_PATTERN = new RegExp(`^\\d{${CODE_DIGITS}}$`);

/** How long a code is valid when the caller does not say. */
const DEFAULT_VALID_MINUTES = 10;

const en = {
  verify: {
    subject: (brand: string) => `Your ${brand} verification code`,
    preheader: (minutes: number) => `The code is valid for ${minutes} minutes.`,
    heading: 'Confirm your e-mail address',
    enter: 'Enter this code to confirm your e-mail address:',
    valid: (minutes: number) => `The code is valid for ${minutes} minutes and works once.`,
    ignore: 'If you did not ask for this code, you can ignore this e-mail. Never share the code with anyone: our staff will never ask you for it.',
  },
  reset: {
    subject: (brand: string) => `Your ${brand} password reset code`,
    preheader: (minutes: number) => `The code is valid for ${minutes} minutes.`,
    heading: 'Reset your password',
    enter: 'Enter this code to choose a new password:',
    valid: (minutes: number) => `The code is valid for ${minutes} minutes and works once. Choosing a new password logs you out everywhere else.`,
    ignore:
      'If you did not ask to reset your password, ignore this e-mail: your password stays as it is. Never share the code with anyone: our staff will never ask you for it.',
  },
};

const ko: typeof en = {
  verify: {
    subject: (brand) => `${brand} 이메일 인증 코드`,
    preheader: (minutes) => `인증 코드는 ${minutes}분 동안 유효합니다.`,
    heading: '이메일 주소를 인증해 주세요',
    enter: '아래 인증 코드를 입력해 이메일 인증을 완료하세요.',
    valid: (minutes) => `인증 코드는 ${minutes}분 동안 유효하며 한 번만 사용할 수 있습니다.`,
    ignore: '직접 요청하지 않으셨다면 이 메일은 무시하셔도 됩니다. 인증 코드는 누구에게도 알려 주지 마세요. 저희 직원은 절대로 인증 코드를 묻지 않습니다.',
  },
  reset: {
    subject: (brand) => `${brand} 비밀번호 재설정 코드`,
    preheader: (minutes) => `코드는 ${minutes}분 동안 유효합니다.`,
    heading: '비밀번호를 재설정하세요',
    enter: '아래 코드를 입력한 뒤 새 비밀번호를 정하세요.',
    valid: (minutes) => `코드는 ${minutes}분 동안 유효하며 한 번만 사용할 수 있습니다. 새 비밀번호를 정하면 다른 모든 기기에서 로그아웃됩니다.`,
    ignore:
      '비밀번호 재설정을 요청하지 않으셨다면 이 메일은 무시하셔도 됩니다. 비밀번호는 바뀌지 않습니다. 코드는 누구에게도 알려 주지 마세요. 저희 직원은 절대로 코드를 묻지 않습니다.',
  },
};

export const verificationCode = emailTemplate(EMAIL_KIND.verificationCode, { en, ko }, (data, t, words) => {
  const minutes = validMinutes(t, data.validMinutes);
  const w = data.purpose === 'passwordReset' ? words.reset : words.verify;
  return {
    subject: w.subject(t.brand),
    preheader: w.preheader(minutes),
    heading: w.heading,
    blocks: [code(w.enter, sixDigits(t, data.code)), paragraph(w.valid(minutes)), note(w.ignore)],
  };
});

function validMinutes(t: Tools, value: number | undefined): number {
  if (value === undefined) return DEFAULT_VALID_MINUTES;
  return Number.isInteger(value) && value >= 1 ? value : t.invalid('validMinutes', 'must be a whole number of minutes');
}

function sixDigits(t: Tools, value: unknown): string {
  return typeof value === 'string' && CODE_PATTERN.test(value) ? value : t.invalid('code', `must be ${CODE_DIGITS} digits`);
}
