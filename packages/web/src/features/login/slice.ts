/**
 * The login page's steps (spec section 4): check → login or register → e-mail verification,
 * plus the social button chosen by country, and "Forgot password?" (forgot → reset → logged in).
 * Injected into the store when the login chunk loads; nothing here is in the storefront's first
 * download. Passwords and codes travel in
 * action payloads to the saga and are never kept in the state.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import type { LoginPageData, SocialProviders } from '../../services/api';

export type LoginStep = 'check' | 'login' | 'register' | 'verify' | 'forgot' | 'reset';

/** The request a step is waiting for; its button shows a spinner meanwhile. */
export type LoginRequest = 'check' | 'login' | 'register' | 'verify' | 'resend' | 'google' | 'forgot' | 'reset' | 'resendReset';

export type Country = LoginPageData['country'];

export interface LoginState {
  /** null until the saga has decided where the visitor starts. */
  step: LoginStep | null;
  /** The e-mail the steps work with; '' when unknown (a social login waiting for verification). */
  email: string;
  pending: LoginRequest | null;
  /** null until known; decides between the Google and the Naver button. */
  country: Country | null;
  /** null until known; a provider that is null is not configured and its button is hidden. */
  providers: SocialProviders | null;
  /** Whether /login is on screen: a login answered after the visitor left does not take them away. */
  open: boolean;
}

const initialState: LoginState = { step: null, email: '', pending: null, country: null, providers: null, open: false };

export interface PasswordLogin {
  password: string;
  rememberMe: boolean;
}

export interface CodeCheck {
  email: string;
  code: string;
}

export interface PasswordReset {
  code: string;
  password: string;
}

export interface NaverCallback {
  code: string | null;
  state: string | null;
}

export const loginSlice = createSlice({
  name: 'login',
  initialState,
  reducers: {
    /**
     * The page mounted: start over (the saga then picks the first step), unless a submission is
     * still on its way (the page re-mounted under it): then the step, e-mail and spinner stay.
     */
    loginPageOpened: (state) => (state.pending === null ? { ...initialState, open: true } : { ...state, open: true }),
    loginPageClosed(state) {
      state.open = false;
    },
    stepShown(state, action: PayloadAction<LoginStep>) {
      state.step = action.payload;
    },
    /** Step 1: Continue with this (valid, normalised) e-mail. */
    emailSubmitted(state, action: PayloadAction<string>) {
      state.email = action.payload;
      state.pending = 'check';
    },
    emailChecked(state, action: PayloadAction<{ exists: boolean }>) {
      state.step = action.payload.exists ? 'login' : 'register';
    },
    /** Back to step 1 to use another e-mail. */
    changeEmailRequested(state) {
      state.step = 'check';
      state.pending = null;
    },
    passwordSubmitted: {
      reducer(state) {
        state.pending = 'login';
      },
      prepare: (login: PasswordLogin) => ({ payload: login }),
    },
    registrationSubmitted: {
      reducer(state) {
        state.pending = 'register';
      },
      prepare: (password: string) => ({ payload: { password } }),
    },
    /** The e-mail is not verified yet: show the code step (email '' when unknown). */
    verificationStarted(state, action: PayloadAction<string>) {
      state.step = 'verify';
      state.email = action.payload || state.email;
    },
    codeSubmitted: {
      reducer(state) {
        state.pending = 'verify';
      },
      prepare: (check: CodeCheck) => ({ payload: check }),
    },
    /** "Send a new code": unlike the automatic send, its failures are shown. */
    codeResendRequested(state, action: PayloadAction<string>) {
      state.pending = 'resend';
      state.email = action.payload;
    },
    /** "Forgot password?" on the password step: ask for the e-mail the reset code goes to. */
    forgotPasswordRequested(state) {
      state.step = 'forgot';
      state.pending = null;
    },
    /** Mail a reset code to this (valid, normalised) e-mail; `resend` from the reset step. */
    resetCodeRequested: {
      reducer(state, action: PayloadAction<{ email: string; resend: boolean }>) {
        state.email = action.payload.email;
        state.pending = action.payload.resend ? 'resendReset' : 'forgot';
      },
      prepare: (email: string, resend = false) => ({ payload: { email, resend } }),
    },
    /** The code and the new password (the e-mail is the one the code went to). */
    passwordResetSubmitted: {
      reducer(state) {
        state.pending = 'reset';
      },
      prepare: (reset: PasswordReset) => ({ payload: reset }),
    },
    googleCredentialReceived: {
      reducer(state) {
        state.pending = 'google';
      },
      prepare: (credential: string) => ({ payload: credential }),
    },
    requestEnded(state) {
      state.pending = null;
    },
    countryLoaded(state, action: PayloadAction<Country>) {
      state.country = action.payload;
    },
    providersLoaded(state, action: PayloadAction<SocialProviders>) {
      state.providers = action.payload;
    },
    naverLoginStarted() {},
    /** /naver/callback opened with these query parameters. */
    naverCallbackOpened(_state, _action: PayloadAction<NaverCallback>) {},
  },
  selectors: {
    selectStep: (state) => state.step,
    selectLoginEmail: (state) => state.email,
    selectPending: (state) => state.pending,
    selectCountry: (state) => state.country,
    selectProviders: (state) => state.providers,
    selectPageOpen: (state) => state.open,
  },
});

/** The slice, added to the store's reducer now that its chunk has loaded. */
export const injectedLoginSlice = loginSlice.injectInto(rootReducer);

export const {
  loginPageOpened,
  loginPageClosed,
  stepShown,
  emailSubmitted,
  emailChecked,
  changeEmailRequested,
  passwordSubmitted,
  registrationSubmitted,
  verificationStarted,
  codeSubmitted,
  codeResendRequested,
  forgotPasswordRequested,
  resetCodeRequested,
  passwordResetSubmitted,
  googleCredentialReceived,
  requestEnded,
  countryLoaded,
  providersLoaded,
  naverLoginStarted,
  naverCallbackOpened,
} = loginSlice.actions;
