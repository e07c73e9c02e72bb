import { call, delay, put, race, select, spawn, take, takeEvery, takeLatest } from 'redux-saga/effects';
import { userApi } from '../../services/api';
import { logError } from '../../services/log';
import { navigate } from '../../services/navigation';
import { selectToken, selectUser } from './selectors';
import { clearSession, expirationTime, saveReturnUrl, saveSession, type SessionUser } from './session';
import { loggedIn, loggedOut, logoutRequested, returnUrlSet, sessionExpired } from './slice';

// setTimeout (behind `delay`) overflows past ~24.8 days; wait in steps instead.
const MAX_DELAY_MS = 2_147_483_647;

function* persistLogin(action: ReturnType<typeof loggedIn>) {
  yield call(saveSession, action.payload);
}

/** Beyond the spec: the server revokes the token, so a copy of it stops working too. */
function* revokeToken(token: string) {
  try {
    yield call(userApi.logout, token);
  } catch (error) {
    // The token still expires on its own; the visitor is logged out here either way.
    logError('log-out call failed', error);
  }
}

/** Spec section 4: log-out clears the token, resets the return URL to '/' and goes home. */
function* logout() {
  const token: string | null = yield select(selectToken);
  // Fire and forget: the visitor does not wait for the server.
  if (token) yield spawn(revokeToken, token);
  // Home first: a guarded page (the panel, /jve) that saw the visitor logged out while still on
  // screen would send them to /login and store itself as the return URL (RequireAccess).
  yield call(navigate, '/');
  yield call(clearSession);
  yield call(saveReturnUrl, '/');
  yield put(loggedOut());
}

function* forgetExpiredSession() {
  yield call(clearSession);
}

function* persistReturnUrl(action: ReturnType<typeof returnUrlSet>) {
  yield call(saveReturnUrl, action.payload);
}

/**
 * Drops the session when its token expires while the page stays open. A new login, a
 * logout or an earlier expiry ends the wait (takeLatest then starts a watch for the new token).
 */
function* watchExpiry() {
  const user: SessionUser | null = yield select(selectUser);
  if (!user) return;
  let remaining = expirationTime(user.tokenExpiration) - Date.now();
  while (remaining > 0) {
    const step = Math.min(remaining, MAX_DELAY_MS);
    const { ended } = yield race({ waited: delay(step), ended: take([loggedIn.type, loggedOut.type, sessionExpired.type]) });
    if (ended) return;
    remaining -= step;
  }
  yield put(sessionExpired());
}

export function* authSaga() {
  yield takeEvery(loggedIn.type, persistLogin);
  yield takeEvery(logoutRequested.type, logout);
  yield takeEvery(sessionExpired.type, forgetExpiredSession);
  yield takeEvery(returnUrlSet.type, persistReturnUrl);
  yield takeLatest(loggedIn.type, watchExpiry);
  yield call(watchExpiry);
}
