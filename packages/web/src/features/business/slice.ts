/** The business details shown in the footer and on the support and policy pages. */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { BusinessInfo } from '../../services/api';

export interface BusinessState {
  info: BusinessInfo | null;
}

const initialState: BusinessState = { info: null };

const businessSlice = createSlice({
  name: 'business',
  initialState,
  reducers: {
    businessLoaded(state, action: PayloadAction<BusinessInfo>) {
      state.info = action.payload;
    },
  },
});

export const { businessLoaded } = businessSlice.actions;
export const businessReducer = businessSlice.reducer;
