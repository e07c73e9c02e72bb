import { createSelector } from '@reduxjs/toolkit';
import { PAYMENT_METHOD } from '../../services/api/payment';
import { creditPlan, type CreditPlan } from './credit';
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
  selectUseCredit,
  selectPromo,
} = injectedCheckoutSlice.selectors;

/** "Renew automatically" is offered (card, where cards can be saved) and ticked. */
export const selectRenewsAutomatically = createSelector(
  [selectAutoRenewAvailable, selectMethod, selectRenewAutomatically],
  (available, method, renew) => available && method === PAYMENT_METHOD.card && renew,
);

/** What the order's credit pays and what is left to pay, as the buyer chose (null before the order is made). */
export const selectCreditPlan = createSelector(
  [selectOrder, selectUseCredit, selectRenewsAutomatically, selectMethod],
  (order, useCredit, renews, method): CreditPlan | null => (order ? creditPlan(order, useCredit, renews, method) : null),
);
