import { CODE_DIGITS } from '../../promises/index.js';
import type { RateLimit } from '../../shared/rate-limiter.js';

const MINUTE = 60;

/** The limits on the calls an attacker knocks on first. Per IP and, where it matters, per account. */
export const LIMITS = {
  // Log-in (issue 10, see CONTEXT.md "Login throttling"): every try is counted before the password
  // is checked, so a parallel burst checks no more than a limit allows.
  loginPerIp: { name: 'login:ip', limit: 30, windowSeconds: 15 * MINUTE },
  // One source guessing at one account is stopped early, without touching the owner elsewhere.
  loginTriesPerAccountAndSource: {
    name: 'login-try:account-ip',
    limit: 5,
    windowSeconds: 15 * MINUTE,
    code: 'too_many_failed_logins',
  },
  // Many sources guessing at one account (NIST 800-63B: at most 100): sources that logged in to
  // the account before are exempt, so the owner at home still gets in.
  loginTriesPerAccount: {
    name: 'login-try:account',
    limit: 30,
    windowSeconds: 15 * MINUTE,
    code: 'too_many_failed_logins',
  },
  // A mark, not a limit: this source logged in to this account in the last 30 days.
  loginKnownSource: { name: 'login-ok:account-ip', limit: 1, windowSeconds: 30 * 24 * 60 * MINUTE },
  registerPerIp: { name: 'register:ip', limit: 10, windowSeconds: 60 * MINUTE },
  checkEmailPerIp: { name: 'checkemail:ip', limit: 60, windowSeconds: 15 * MINUTE },
  codeSendPerIp: { name: 'code-send:ip', limit: 20, windowSeconds: 60 * MINUTE },
  codeCheckPerIp: { name: 'code-check:ip', limit: 30, windowSeconds: 15 * MINUTE },
  socialPerIp: { name: 'social:ip', limit: 30, windowSeconds: 15 * MINUTE },
  // Not a limit: a Naver/Kakao state is spent by its first use (the second hit is a replay); the
  // window outlives the state's own 10 minutes.
  oauthStateUse: { name: 'oauth-state', limit: 1, windowSeconds: 15 * MINUTE },
  // changepassword: counted before the current password is checked, so a burst checks at most
  // `limit`; a successful change clears it. Keyed by user: a stolen token cannot guess on.
  changePasswordPerUser: {
    name: 'change-password:user',
    limit: 10,
    windowSeconds: 15 * MINUTE,
    code: 'too_many_wrong_passwords',
  },
  // Password reset: asking for a code and checking one, per IP and per address.
  resetSendPerIp: { name: 'reset-send:ip', limit: 20, windowSeconds: 60 * MINUTE },
  // Per address, counted whether or not an account has it, so the answers cannot tell which do.
  resetSendPerAddress: { name: 'reset-send:address', limit: 1, windowSeconds: MINUTE, code: 'code_requested_recently' },
  resetSendPerAddressDaily: {
    name: 'reset-send:address-day',
    limit: 10,
    windowSeconds: 24 * 60 * MINUTE,
    code: 'too_many_codes_today',
  },
  resetCheckPerIp: { name: 'reset-check:ip', limit: 30, windowSeconds: 15 * MINUTE },
  // Checking a code (sign-up or reset) is limited like log-in, per address and source and per
  // address across sources, counted before the address is looked up, so an unknown address runs
  // out of tries exactly like a known one. A stranger's wrong codes stop that stranger: the code
  // itself never locks, so they cannot lock the owner out (see CONTEXT.md "Code checks").
  codeTriesPerAddressAndSource: {
    name: 'code-try:address-ip',
    limit: 5,
    windowSeconds: 60 * MINUTE,
    code: 'too_many_wrong_codes',
  },
  // Many sources guessing at one address: sources that logged in to the account are exempt.
  codeTriesPerAddress: {
    name: 'code-try:address',
    limit: 30,
    windowSeconds: 60 * MINUTE,
    code: 'too_many_code_tries_for_address',
  },
} satisfies Record<string, RateLimit>;

/** Verification codes (issue 3): CODE_DIGITS digits (promises), 10 minutes, resend once a minute and 10 times a day; tries are limited by `LIMITS.codeTries*`. */
export const CODE_RULES = {
  digits: CODE_DIGITS,
  validMs: 10 * 60_000,
  resendIntervalMs: 60_000,
  maxPerDay: 10,
} as const;

/** The subject of the per account-and-source limits and of the `loginKnownSource` mark. */
export const accountAndSource = (email: string, ip: string): string => `${email}:${ip}`;
