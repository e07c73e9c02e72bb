/**
 * App-wide flags that belong to no feature. The loader flag is a counter of in-flight API
 * requests (the API client reports start and end), so overlapping requests keep the overlay
 * up until the last one ends.
 */
import { createSlice } from '@reduxjs/toolkit';

export interface ShellState {
  pendingRequests: number;
}

const initialState: ShellState = { pendingRequests: 0 };

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
  },
});

export const { requestStarted, requestFinished } = shellSlice.actions;
export const shellReducer = shellSlice.reducer;
