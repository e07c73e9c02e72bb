/** Account calls: sign-up, log-in (password, Google, Naver, Kakao), e-mail codes, passwords, log-out. */
import { declare, noContent } from '../declare.js';
import * as account from '../account.js';
import { done } from '../fields.js';

const AUTH = 'core/src/modules/identity/auth.service.ts';
const VERIFICATION = 'core/src/modules/identity/verification.service.ts';
const SOCIAL = 'core/src/modules/identity/social-login.service.ts';
const SOCIAL_ERRORS = ['password_login_required', 'provider_disabled', 'invalid_state', 'email_required', 'provider_email_invalid', 'user_gone'] as const;

export const getLoginPageData = declare({
  operationId: 'getLoginPageData',
  method: 'get',
  path: '/api/main/loginpagedata',
  access: 'public',
  tag: 'account',
  summary: 'Which social sign-in the login page offers',
  answer: account.loginPageAnswer,
  errors: [],
  servedBy: 'http/src/middleware/visitor.ts',
});

export const checkEmail = declare({
  operationId: 'checkEmail',
  method: 'get',
  path: '/api/user/checkemail',
  access: 'public',
  tag: 'account',
  summary: 'Whether an account exists for the e-mail',
  query: account.checkEmailQuery,
  answer: account.checkEmailAnswer,
  errors: ['too_many_requests'],
  servedBy: AUTH,
});

export const register = declare({
  operationId: 'register',
  method: 'post',
  path: '/api/user/register',
  access: 'public',
  tag: 'account',
  summary: 'Create an account',
  body: account.registerBody,
  answer: account.loginAnswer,
  errors: ['email_taken', 'too_many_requests'],
  servedBy: AUTH,
});

export const authenticate = declare({
  operationId: 'authenticate',
  method: 'post',
  path: '/api/user/authenticate',
  access: 'public',
  tag: 'account',
  summary: 'Log in with e-mail and password',
  description: 'rememberMe: a 14-day token instead of 2 days.',
  body: account.authenticateBody,
  answer: account.loginAnswer,
  errors: ['invalid_credentials', 'too_many_requests', 'too_many_failed_logins'],
  servedBy: AUTH,
});

export const sendVerificationCode = declare({
  operationId: 'sendVerificationCode',
  method: 'post',
  path: '/api/user/sendverificationcode',
  access: 'user',
  tag: 'account',
  summary: 'E-mail a 6-digit verification code to your own address',
  body: account.sendCodeBody,
  answer: done(),
  errors: ['not_your_email', 'already_verified', 'user_not_found', 'too_many_requests', 'code_requested_recently', 'too_many_codes_today'],
  servedBy: VERIFICATION,
});

export const confirmVerificationCode = declare({
  operationId: 'confirmVerificationCode',
  method: 'post',
  path: '/api/user/sendverificationcodecallback',
  access: 'public',
  tag: 'account',
  summary: 'Confirm the e-mail with the code (logs in)',
  body: account.verifyCodeBody,
  answer: account.loginAnswer,
  errors: ['invalid_code', 'already_verified', 'too_many_requests', 'too_many_wrong_codes', 'too_many_code_tries_for_address'],
  servedBy: VERIFICATION,
});

export const googleAuthenticate = declare({
  operationId: 'googleAuthenticate',
  method: 'post',
  path: '/api/user/googleauthenticate',
  access: 'public',
  tag: 'account',
  summary: 'Sign in with a Google ID token (idToken or credential)',
  description: '404 `provider_disabled` when Google sign-in is not configured.',
  body: account.googleBody,
  answer: account.loginAnswer,
  errors: [...SOCIAL_ERRORS, 'google_token_invalid', 'google_email_not_verified', 'google_unavailable', 'too_many_requests'],
  servedBy: SOCIAL,
});

export const naverCallback = declare({
  operationId: 'naverCallback',
  method: 'post',
  path: '/api/user/navercallback',
  access: 'public',
  tag: 'account',
  summary: 'Sign in with Naver (authorization code and our signed state)',
  description: '404 `provider_disabled` when Naver login is not configured.',
  body: account.oauthCallbackBody,
  answer: account.loginAnswer,
  errors: [...SOCIAL_ERRORS, 'naver_login_failed', 'naver_unavailable', 'too_many_requests'],
  servedBy: SOCIAL,
});

export const kakaoCallback = declare({
  operationId: 'kakaoCallback',
  method: 'post',
  path: '/api/user/kakaocallback',
  access: 'public',
  tag: 'account',
  summary: 'Sign in with Kakao (authorization code and our signed state)',
  description: '404 `provider_disabled` when Kakao login is not configured.',
  extra: true,
  body: account.oauthCallbackBody,
  answer: account.loginAnswer,
  errors: [...SOCIAL_ERRORS, 'kakao_login_failed', 'kakao_unavailable', 'too_many_requests'],
  servedBy: SOCIAL,
});

export const getSocialProviders = declare({
  operationId: 'getSocialProviders',
  method: 'get',
  path: '/api/user/socialproviders',
  access: 'public',
  tag: 'account',
  summary: 'The social sign-in providers configured, with their public client ids',
  extra: true,
  answer: account.socialProvidersAnswer,
  errors: [],
  servedBy: SOCIAL,
});

export const logout = declare({
  operationId: 'logout',
  method: 'post',
  path: '/api/user/logout',
  access: 'user',
  tag: 'account',
  summary: 'Revoke this token',
  extra: true,
  answer: noContent(),
  errors: [],
  servedBy: AUTH,
});

export const changePassword = declare({
  operationId: 'changePassword',
  method: 'post',
  path: '/api/user/changepassword',
  access: 'user',
  tag: 'account',
  summary: 'Change the password (ends every other session)',
  extra: true,
  body: account.changePasswordBody,
  answer: account.loginAnswer,
  errors: ['invalid_credentials', 'too_many_wrong_passwords'],
  servedBy: AUTH,
});

export const forgotPassword = declare({
  operationId: 'forgotPassword',
  method: 'post',
  path: '/api/user/forgotpassword',
  access: 'public',
  tag: 'account',
  summary: 'E-mail a 6-digit password-reset code',
  description: 'The same answer whether or not the address has an account.',
  extra: true,
  body: account.forgotPasswordBody,
  answer: done(),
  errors: ['too_many_requests', 'code_requested_recently', 'too_many_codes_today'],
  servedBy: VERIFICATION,
});

export const resetPassword = declare({
  operationId: 'resetPassword',
  method: 'post',
  path: '/api/user/resetpassword',
  access: 'public',
  tag: 'account',
  summary: 'Set a new password with the reset code (ends every session, verifies the e-mail, logs in)',
  extra: true,
  body: account.resetPasswordBody,
  answer: account.loginAnswer,
  errors: ['invalid_code', 'too_many_requests', 'too_many_wrong_codes', 'too_many_code_tries_for_address'],
  servedBy: VERIFICATION,
});
