import { injectedPanelSlice } from './slice';

// Read through the injected slice: before the slice's first action they answer its initial state.
export const {
  selectPanelUserId,
  selectPanelStatus,
  selectPanelRetryable,
  selectPanel,
  selectPanelLanguageId,
  selectInvitations,
  selectVerifications,
  selectAutoRenewals,
  selectProblemReports,
} = injectedPanelSlice.selectors;
