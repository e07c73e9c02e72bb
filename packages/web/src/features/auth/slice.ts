import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { loadReturnUrl, loadSession, safeReturnUrl, type SessionUser } from './session';

export interface AuthState {
  user: SessionUser | null;
  /** Where to go after logging in; '/' unless a guard sent the visitor to /login. */
  returnUrl: string;
}

const authSlice = createSlice({
  name: 'auth',
  initialState: (): AuthState => ({ user: loadSession(), returnUrl: loadReturnUrl() }),
  reducers: {
    /** A token arrived (login, registration, social login, verified code). */
    loggedIn(state, action: PayloadAction<SessionUser>) {
      state.user = action.payload;
    },
    logoutRequested() {},
    loggedOut(state) {
      state.user = null;
      state.returnUrl = '/';
    },
    /** The token expired or the server refused it: forget it but keep the return URL. */
    sessionExpired(state) {
      state.user = null;
    },
    returnUrlSet: {
      reducer(state, action: PayloadAction<string>) {
        state.returnUrl = action.payload;
      },
      // Sanitised once here, so the state and the stored copy hold the same safe path.
      prepare: (url: string) => ({ payload: safeReturnUrl(url) }),
    },
  },
});

export const { loggedIn, logoutRequested, loggedOut, sessionExpired, returnUrlSet } = authSlice.actions;
export const authReducer = authSlice.reducer;
