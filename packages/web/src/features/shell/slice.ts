/**
 * App-wide flags that belong to no feature.
 *
 * - The loader flag is a counter of in-flight API requests (the API client reports start and
 *   end), so overlapping requests keep the overlay up until the last one ends.
 * - The snackbar (spec section 8): one message at a time with a 'close' action, hidden by the
 *   shell saga after SNACKBAR_DURATION_MS; a new message replaces the current one.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export type SnackbarTone = 'error' | 'info';

export interface Snackbar {
  /** Tells one message from the next, so a late timer never hides a newer message. */
  id: number;
  message: string;
  tone: SnackbarTone;
}

export interface ShellState {
  pendingRequests: number;
  snackbar: Snackbar | null;
}

const initialState: ShellState = { pendingRequests: 0, snackbar: null };

let nextSnackbarId = 1;

const shellSlice = createSlice({
  name: 'shell',
  initialState,
  reducers: {
    requestStarted(state) {
      state.pendingRequests += 1;
    },
    requestFinished(state) {
      state.pendingRequests = Math.max(0, state.pendingRequests - 1);
    },
    snackbarShown: {
      reducer(state, action: PayloadAction<Snackbar>) {
        state.snackbar = action.payload;
      },
      prepare: (message: string, tone: SnackbarTone = 'error') => ({ payload: { id: nextSnackbarId++, message, tone } }),
    },
    /** The pointer or focus is on the snackbar: its timer waits (WCAG 2.2.1, timing adjustable). */
    snackbarHeld(_state, _action: PayloadAction<number>) {},
    snackbarReleased(_state, _action: PayloadAction<number>) {},
    /** Closed by its 'close' action or by the timer; ignored when a newer message is showing. */
    snackbarClosed(state, action: PayloadAction<number>) {
      if (state.snackbar?.id === action.payload) state.snackbar = null;
    },
  },
});

export const { requestStarted, requestFinished, snackbarShown, snackbarHeld, snackbarReleased, snackbarClosed } = shellSlice.actions;
export const shellReducer = shellSlice.reducer;
