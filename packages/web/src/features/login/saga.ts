/**
 * The login flow (spec section 4), started when the login chunk loads.
 *
 *   open /login ─ verified user ──────────────────────────────► return URL
 *               ─ unverified user ─► verify (code sent quietly)
 *               ─ visitor ─► check ─ checkemail true ─► login ─┐
 *                                  └ false ─► register ────────┤ login response stored
 *                                                              ├ verified ─► return URL
 *                                                              └ not ─► verify (code sent quietly)
 *   verify ─ correct code ─► login response stored ─► return URL
 *   login ─ "Forgot password?" ─► forgot ─ code mailed ─► reset ─ code + new password
 *         ─► login response stored (every other session ended) ─► return URL
 *
 * What the page loads (country, social providers) runs inside one task per visit to /login:
 * leaving the page cancels it. What the visitor submits (an e-mail, a password, a code, Google's
 * credential) runs outside it: a re-mounted page, a back-and-forward or a late hydration that
 * re-opens the visit must not drop a login the server has already answered. Naver comes back
 * to /naver/callback, handled outside the page task too.
 */
import { pagePath } from '@subshare/core/pages';
import { all, call, fork, put, select, takeEvery, takeLatest, takeLeading } from 'redux-saga/effects';
import { mainApi, userApi, type AuthResponse, type LoginPageData, type SocialProviders } from '../../services/api';
import { logError } from '../../services/log';
import { leaveTo, navigate } from '../../services/navigation';
import { STORAGE_KEYS, readItem, removeItem, writeItem } from '../../services/storage';
import { selectReturnUrl, selectUser } from '../auth/selectors';
import { safeReturnUrl, toSessionUser, type SessionUser } from '../auth/session';
import { loggedIn, returnUrlSet } from '../auth/slice';
import { DICTIONARY } from '../language/dictionary';
import type { LanguageId } from '../language/languages';
import { selectLanguageId } from '../language/selectors';
import { translate } from '../language/texts';
import { showErrorSnackbar, showInfoSnackbar } from '../shell/snackbarSagas';
import { selectLoginEmail, selectPageOpen, selectPending, selectProviders } from './selectors';
import {
  codeResendRequested,
  codeSubmitted,
  countryLoaded,
  emailChecked,
  emailSubmitted,
  googleCredentialReceived,
  passwordResetSubmitted,
  resetCodeRequested,
  loginPageClosed,
  loginPageOpened,
  naverCallbackOpened,
  naverLoginStarted,
  passwordSubmitted,
  providersLoaded,
  registrationSubmitted,
  requestEnded,
  stepShown,
  verificationStarted,
  type Country,
  type LoginRequest,
} from './slice';

/** Where the visitor wanted to go before logging in; used once, then back to '/'. */
function* goToReturnUrl() {
  const url: string = yield select(selectReturnUrl);
  yield put(returnUrlSet('/'));
  yield call(navigate, safeReturnUrl(url), { replace: true });
}

/** Spec section 4: a send failure at this automatic point shows no message. */
function* sendCodeQuietly(email: string) {
  try {
    yield call(userApi.sendVerificationCode, email);
  } catch (error) {
    logError('automatic verification code send failed', error);
  }
}

/** Stores a login response, then goes on: return URL when verified, else the code step. */
function* completeLogin(response: AuthResponse, email: string | undefined) {
  const user = toSessionUser(response, email);
  yield put(loggedIn(user));
  if (user.isEmailVerified) {
    // A login answered after the visitor went elsewhere keeps them where they are, logged in.
    const open: boolean = yield select(selectPageOpen);
    if (open) yield call(goToReturnUrl);
    return;
  }
  yield put(verificationStarted(user.email ?? ''));
  if (user.email) yield call(sendCodeQuietly, user.email);
}

function* checkEmail(action: ReturnType<typeof emailSubmitted>) {
  try {
    const exists: boolean = yield call(userApi.checkEmail, action.payload);
    yield put(emailChecked({ exists }));
  } catch (error) {
    // Not in the spec's catalogue: shown like the login errors, rather than leaving the visitor stuck.
    yield call(showErrorSnackbar, 'e-mail check failed', error);
  } finally {
    yield put(requestEnded());
  }
}

function* logIn(action: ReturnType<typeof passwordSubmitted>) {
  const email: string = yield select(selectLoginEmail);
  const { password, rememberMe } = action.payload;
  try {
    const response: AuthResponse = yield call(userApi.authenticate, { email, password, rememberMe });
    yield put(requestEnded());
    yield call(completeLogin, response, email);
  } catch (error) {
    yield call(showErrorSnackbar, 'login failed', error);
  } finally {
    yield put(requestEnded());
  }
}

function* register(action: ReturnType<typeof registrationSubmitted>) {
  const email: string = yield select(selectLoginEmail);
  // The account's e-mails (the code that follows at once) come in the language the visitor reads.
  const languageId: LanguageId = yield select(selectLanguageId);
  try {
    const response: AuthResponse = yield call(userApi.register, { email, password: action.payload.password, languageId });
    yield put(requestEnded());
    yield call(completeLogin, response, email);
  } catch (error) {
    // Spec section 8: a registration failure is only logged.
    logError('registration failed', error);
  } finally {
    yield put(requestEnded());
  }
}

function* verifyCode(action: ReturnType<typeof codeSubmitted>) {
  const { email, code } = action.payload;
  try {
    const response: AuthResponse = yield call(userApi.verifyCode, { email, code });
    yield put(requestEnded());
    yield call(completeLogin, response, email);
  } catch (error) {
    yield call(showErrorSnackbar, 'verification code check failed', error);
  } finally {
    yield put(requestEnded());
  }
}

/** "Send a new code": here failures (e.g. 429, asked too soon) are shown. */
function* resendCode(action: ReturnType<typeof codeResendRequested>) {
  const email = action.payload;
  try {
    yield call(userApi.sendVerificationCode, email);
    const languageId: LanguageId = yield select(selectLanguageId);
    yield call(showInfoSnackbar, translate(DICTIONARY, languageId, 'verify.resent', { email }));
  } catch (error) {
    yield call(showErrorSnackbar, 'verification code send failed', error);
  } finally {
    yield put(requestEnded());
  }
}

/**
 * Mails a reset code, then shows the reset step. The server answers the same for an address
 * without an account, so the step follows either way; its failures (429: asked too soon) show.
 */
function* requestResetCode(action: ReturnType<typeof resetCodeRequested>) {
  const { email, resend } = action.payload;
  try {
    yield call(userApi.forgotPassword, email);
    const languageId: LanguageId = yield select(selectLanguageId);
    yield call(showInfoSnackbar, translate(DICTIONARY, languageId, resend ? 'verify.resent' : 'reset.sent', { email }));
    if (!resend) yield put(stepShown('reset'));
  } catch (error) {
    yield call(showErrorSnackbar, 'password reset code send failed', error);
  } finally {
    yield put(requestEnded());
  }
}

/** A correct code sets the new password and logs in (the address counts as verified then). */
function* resetPassword(action: ReturnType<typeof passwordResetSubmitted>) {
  const email: string = yield select(selectLoginEmail);
  const { code, password } = action.payload;
  try {
    const response: AuthResponse = yield call(userApi.resetPassword, { email, code, password });
    yield put(requestEnded());
    const languageId: LanguageId = yield select(selectLanguageId);
    yield call(showInfoSnackbar, translate(DICTIONARY, languageId, 'reset.done'));
    yield call(completeLogin, response, email);
  } catch (error) {
    yield call(showErrorSnackbar, 'password reset failed', error);
  } finally {
    yield put(requestEnded());
  }
}

function* logInWithGoogle(action: ReturnType<typeof googleCredentialReceived>) {
  try {
    const response: AuthResponse = yield call(userApi.googleAuthenticate, action.payload);
    yield put(requestEnded());
    yield call(completeLogin, response, undefined);
  } catch (error) {
    // Spec section 8: a Google login failure is only logged.
    logError('Google login failed', error);
  } finally {
    yield put(requestEnded());
  }
}

/** Keeps only URLs a button may lead to: http(s), never `javascript:` or the like. */
function webUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

function toProviders(value: unknown): SocialProviders {
  const answer = (typeof value === 'object' && value !== null ? value : {}) as Partial<Record<keyof SocialProviders, unknown>>;
  const google = answer.google as { clientId?: unknown } | null | undefined;
  const naver = answer.naver as { authorizeUrl?: unknown } | null | undefined;
  const clientId = typeof google?.clientId === 'string' && google.clientId ? google.clientId : null;
  const authorizeUrl = webUrl(naver?.authorizeUrl);
  return { google: clientId ? { clientId } : null, naver: authorizeUrl ? { authorizeUrl } : null };
}

function* loadCountry() {
  let country: Country;
  try {
    const answer: LoginPageData = yield call(mainApi.getLoginPageData);
    country = answer?.country === 'KR' ? 'KR' : 'GLOBAL';
  } catch (error) {
    // Spec section 8: a country lookup failure is only logged. The interface language is the
    // best remaining guess: Korean readers most likely want Naver.
    logError('login page country lookup failed', error);
    const languageId: LanguageId = yield select(selectLanguageId);
    country = languageId === 2 ? 'KR' : 'GLOBAL';
  }
  yield put(countryLoaded(country));
}

function* loadProviders() {
  try {
    const answer: unknown = yield call(userApi.getSocialProviders);
    yield put(providersLoaded(toProviders(answer)));
  } catch (error) {
    logError('social login providers failed to load', error);
    yield put(providersLoaded({ google: null, naver: null }));
  }
}

/** Naver's page sends the visitor back to /naver/callback with the same `state`, checked there. */
function* startNaverLogin() {
  const providers: SocialProviders | null = yield select(selectProviders);
  const url = providers?.naver?.authorizeUrl;
  if (!url) return;
  const state = new URL(url).searchParams.get('state');
  if (!state) {
    logError('Naver login not started', new Error('the authorize URL carries no state'));
    return;
  }
  yield call(writeItem, STORAGE_KEYS.naverState, state, 'session');
  yield call(leaveTo, url);
}

/** One visit to /login, from mount to unmount. */
function* loginPage() {
  const user: SessionUser | null = yield select(selectUser);
  if (user?.isEmailVerified) {
    // Already logged in: nothing to do here.
    yield call(goToReturnUrl);
    return;
  }
  if (user) {
    // Logged in with an unverified e-mail: the code step at once, with a fresh code.
    yield put(verificationStarted(user.email ?? ''));
    if (user.email) yield fork(sendCodeQuietly, user.email);
  } else {
    // A re-opened page whose submission is still on its way stays on its step (see the slice).
    const pending: LoginRequest | null = yield select(selectPending);
    if (pending === null) yield put(stepShown('check'));
    yield fork(loadCountry);
    yield fork(loadProviders);
  }
  yield takeEvery(naverLoginStarted.type, startNaverLogin);
}

/** A close cancels the open visit (takeLatest); an open starts a new one. */
function* loginPageLifecycle(action: { type: string }) {
  if (action.type === loginPageOpened.type) yield call(loginPage);
}

/**
 * /naver/callback?code&state: the state must be the one this tab stored before leaving for
 * Naver (a login link forged by someone else fails here); on any failure, back to /login.
 */
function* finishNaverLogin(action: ReturnType<typeof naverCallbackOpened>) {
  const { code, state } = action.payload;
  const expected: string | null = yield call(readItem, STORAGE_KEYS.naverState, 'session');
  yield call(removeItem, STORAGE_KEYS.naverState, 'session');
  if (!code || !state || state !== expected) {
    logError('Naver login refused', new Error(!code ? 'no code in the callback' : 'the state does not match the one sent'));
    yield call(navigate, pagePath.login(), { replace: true });
    return;
  }
  try {
    const response: AuthResponse = yield call(userApi.naverCallback, code, state);
    const user = toSessionUser(response);
    yield put(loggedIn(user));
    // An unverified e-mail is handled by the login page's code step.
    if (user.isEmailVerified) yield call(goToReturnUrl);
    else yield call(navigate, pagePath.login(), { replace: true });
  } catch (error) {
    logError('Naver login failed', error);
    yield call(navigate, pagePath.login(), { replace: true });
  }
}

export function* loginSaga() {
  yield takeLatest([loginPageOpened.type, loginPageClosed.type], loginPageLifecycle);
  yield takeLeading(naverCallbackOpened.type, finishNaverLogin);
  // Submissions: one of each kind at a time, each seen through to its answer (see the top).
  yield all([
    takeLeading(emailSubmitted.type, checkEmail),
    takeLeading(passwordSubmitted.type, logIn),
    takeLeading(registrationSubmitted.type, register),
    takeLeading(codeSubmitted.type, verifyCode),
    takeLeading(codeResendRequested.type, resendCode),
    takeLeading(resetCodeRequested.type, requestResetCode),
    takeLeading(passwordResetSubmitted.type, resetPassword),
    takeLeading(googleCredentialReceived.type, logInWithGoogle),
  ]);
}
