/** `/api/user/*`: accounts and sign-in (spec section 7, plus log-out and the social providers). */
import { forgetReferralCode, keptReferralCode } from '../../features/referral/keptCode';
import { callApi } from './calls';
import type { AuthResponse, AuthenticateRequest, RegisterRequest, ResetPasswordRequest, SocialProviders, VerifyCodeRequest } from './types';

/** True when an account with this e-mail exists (the server answers a JSON boolean). */
export async function checkEmail(email: string): Promise<boolean> {
  return Boolean(await callApi('checkEmail', { query: { email } }));
}

export function authenticate(request: AuthenticateRequest): Promise<AuthResponse> {
  return callApi('authenticate', { body: request });
}

/** A sign-up carries the friend's referral code the storefront kept (`/?ref=`), which is then forgotten. */
export async function register(request: RegisterRequest): Promise<AuthResponse> {
  const answer = await callApi('register', { body: { ...request, referralCode: keptReferralCode() } });
  forgetReferralCode();
  return answer;
}

/** Mails a new code (CODE_DIGITS digits) to the logged-in user. */
export function sendVerificationCode(email: string): Promise<unknown> {
  return callApi('sendVerificationCode', { body: { email } });
}

/** Checks a code; a correct one answers a fresh login with `isEmailVerified: true`. */
export function verifyCode(request: VerifyCodeRequest): Promise<AuthResponse> {
  return callApi('confirmVerificationCode', { body: request });
}

/** Mails a password-reset code; the server answers the same whether or not the address has an account. */
export function forgotPassword(email: string): Promise<unknown> {
  return callApi('forgotPassword', { body: { email } });
}

/** Sets a new password with the mailed code; answers a fresh login (every other session has ended). */
export function resetPassword(request: ResetPasswordRequest): Promise<AuthResponse> {
  return callApi('resetPassword', { body: request });
}

/** Exchanges a Google Identity Services credential (an ID token). */
export async function googleAuthenticate(idToken: string): Promise<AuthResponse> {
  // A first sign-in makes the account: the kept referral code goes with it (ignored for an existing one).
  const answer = await callApi('googleAuthenticate', { body: { idToken, referralCode: keptReferralCode() } });
  forgetReferralCode();
  return answer;
}

/** Exchanges the code Naver sent back to /naver/callback. */
export async function naverCallback(code: string, state: string): Promise<AuthResponse> {
  const answer = await callApi('naverCallback', { body: { code, state, referralCode: keptReferralCode() } });
  forgetReferralCode();
  return answer;
}

export function getSocialProviders(): Promise<SocialProviders> {
  return callApi('getSocialProviders', {});
}

/** Revokes `token` on the server. Silent and kept alive: the visitor is already on the way out. */
export function logout(token: string): Promise<unknown> {
  return callApi('logout', {}, { token, silent: true, keepalive: true });
}
