import { isAnyOf, type Action } from '@reduxjs/toolkit';
import { delay, put, race, take, takeLatest } from 'redux-saga/effects';
import { snackbarClosed, snackbarHeld, snackbarReleased, snackbarShown } from './slice';

/** Spec section 9: the snackbar stays 3000 ms. */
export const SNACKBAR_DURATION_MS = 3000;

/** After being held, a message stays at least this long once released. */
const MIN_REMAINING_MS = 1000;

type SnackbarEvent = typeof snackbarHeld | typeof snackbarReleased | typeof snackbarClosed;

/** A take() pattern: one of these actions, about this message. */
function about(id: number, ...events: [SnackbarEvent, ...SnackbarEvent[]]) {
  const matches = isAnyOf(...events);
  return (action: Action) => matches(action) && action.payload === id;
}

/**
 * Hides the message after SNACKBAR_DURATION_MS of being visible and not held: while the pointer or focus
 * is on it the clock stops, and it resumes with the time that was left. takeLatest cancels the
 * timer of a message that a newer one replaced.
 */
function* hideLater(action: ReturnType<typeof snackbarShown>) {
  const { id } = action.payload;
  let remaining = SNACKBAR_DURATION_MS;
  for (;;) {
    const startedAt = Date.now();
    const { held, closed } = yield race({
      timeout: delay(remaining),
      held: take(about(id, snackbarHeld)),
      closed: take(about(id, snackbarClosed)),
    });
    if (closed) return;
    if (!held) break;
    remaining = Math.max(MIN_REMAINING_MS, remaining - (Date.now() - startedAt));
    const { type } = yield take(about(id, snackbarReleased, snackbarClosed));
    if (type === snackbarClosed.type) return;
  }
  yield put(snackbarClosed(id));
}

export function* shellSaga() {
  yield takeLatest(snackbarShown.type, hideLater);
}
