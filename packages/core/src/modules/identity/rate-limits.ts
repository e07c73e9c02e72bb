import type { RateLimit } from '../../shared/rate-limiter.js';

const MINUTE = 60;

/** The limits on the calls an attacker knocks on first. Per IP and, where it matters, per account. */
export const LIMITS = {
  loginPerIp: { name: 'login:ip', limit: 30, windowSeconds: 15 * MINUTE },
  loginFailuresPerAccount: {
    name: 'login-fail:account',
    limit: 10,
    windowSeconds: 15 * MINUTE,
    message: 'Too many failed logins for this account. Try again in a few minutes.',
  },
  registerPerIp: { name: 'register:ip', limit: 10, windowSeconds: 60 * MINUTE },
  checkEmailPerIp: { name: 'checkemail:ip', limit: 60, windowSeconds: 15 * MINUTE },
  codeSendPerIp: { name: 'code-send:ip', limit: 20, windowSeconds: 60 * MINUTE },
  codeCheckPerIp: { name: 'code-check:ip', limit: 30, windowSeconds: 15 * MINUTE },
  socialPerIp: { name: 'social:ip', limit: 30, windowSeconds: 15 * MINUTE },
  // changepassword: counted before the current password is checked, so a burst checks at most
  // `limit`; a successful change clears it. Keyed by user: a stolen token cannot guess on.
  changePasswordPerUser: {
    name: 'change-password:user',
    limit: 10,
    windowSeconds: 15 * MINUTE,
    message: 'Too many wrong current passwords. Try again in a few minutes.',
  },
  // Password reset: asking for a code (per IP; per address the code rules below apply) and
  // checking one (per IP; per code the 5 wrong tries apply).
  resetSendPerIp: { name: 'reset-send:ip', limit: 20, windowSeconds: 60 * MINUTE },
  resetCheckPerIp: { name: 'reset-check:ip', limit: 30, windowSeconds: 15 * MINUTE },
} satisfies Record<string, RateLimit>;

/** Verification codes (issue 3): 6 digits, 10 minutes, 5 wrong tries, resend once a minute and 10 times a day. */
export const CODE_RULES = {
  digits: 6,
  validMs: 10 * 60_000,
  maxFailures: 5,
  resendIntervalMs: 60_000,
  maxPerDay: 10,
  /** Failures of a code carry over to a new code asked for within this time. */
  failureMemoryMs: 60 * 60_000,
} as const;
