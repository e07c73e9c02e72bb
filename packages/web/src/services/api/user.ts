/** `/api/user/*`: accounts and sign-in (spec section 7, plus log-out and the social providers). */
import { apiGet, apiPost } from './client';
import type { AuthResponse, AuthenticateRequest, RegisterRequest, ResetPasswordRequest, SocialProviders, VerifyCodeRequest } from './types';

/** True when an account with this e-mail exists (the server answers a JSON boolean). */
export async function checkEmail(email: string): Promise<boolean> {
  return Boolean(await apiGet<unknown>('/api/user/checkemail', { email }));
}

export function authenticate(request: AuthenticateRequest): Promise<AuthResponse> {
  return apiPost<AuthResponse>('/api/user/authenticate', request);
}

export function register(request: RegisterRequest): Promise<AuthResponse> {
  return apiPost<AuthResponse>('/api/user/register', request);
}

/** Mails a new 6-digit code to the logged-in user. */
export function sendVerificationCode(email: string): Promise<unknown> {
  return apiPost<unknown>('/api/user/sendverificationcode', { email }, { auth: true });
}

/** Checks a code; a correct one answers a fresh login with `isEmailVerified: true`. */
export function verifyCode(request: VerifyCodeRequest): Promise<AuthResponse> {
  return apiPost<AuthResponse>('/api/user/sendverificationcodecallback', request);
}

/** Mails a password-reset code; the server answers the same whether or not the address has an account. */
export function forgotPassword(email: string): Promise<unknown> {
  return apiPost<unknown>('/api/user/forgotpassword', { email });
}

/** Sets a new password with the mailed code; answers a fresh login (every other session has ended). */
export function resetPassword(request: ResetPasswordRequest): Promise<AuthResponse> {
  return apiPost<AuthResponse>('/api/user/resetpassword', request);
}

/** Exchanges a Google Identity Services credential (an ID token). */
export function googleAuthenticate(idToken: string): Promise<AuthResponse> {
  return apiPost<AuthResponse>('/api/user/googleauthenticate', { idToken, provider: 'GOOGLE' });
}

/** Exchanges the code Naver sent back to /naver/callback. */
export function naverCallback(code: string, state: string): Promise<AuthResponse> {
  return apiPost<AuthResponse>('/api/user/navercallback', { code, state });
}

export function getSocialProviders(): Promise<SocialProviders> {
  return apiGet<SocialProviders>('/api/user/socialproviders');
}

/** Revokes `token` on the server. Silent and kept alive: the visitor is already on the way out. */
export function logout(token: string): Promise<unknown> {
  return apiPost<unknown>('/api/user/logout', undefined, { auth: true, token, silent: true, keepalive: true });
}
