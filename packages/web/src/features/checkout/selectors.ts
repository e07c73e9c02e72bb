import { injectedCheckoutSlice } from './slice';

// Read through the injected slice: before the slice's first action they answer its initial state.
export const {
  selectOrderStatus,
  selectOrderRetryable,
  selectOrder,
  selectMethods,
  selectMethod,
  selectPaying,
  selectPayssionStatus,
  selectAutoRenewAvailable,
  selectRenewAutomatically,
  selectPromo,
} = injectedCheckoutSlice.selectors;
