/**
 * The checkout (spec sections 2 and 4): the order the payment page created, the chosen
 * method, the Pay now button's state, and the regional provider's result check. Injected into
 * the store when the checkout chunk loads; nothing here is in the storefront's first download.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import { isPaymentMethodId, type Order, type PaymentMethodId } from '../../services/api/payment';

export type OrderStatus = 'idle' | 'creating' | 'ready' | 'failed';

/** The regional provider's return page: checking, then paid or failed. */
export type PayssionStatus = 'checking' | 'paid' | 'failed';

export interface CheckoutState {
  orderStatus: OrderStatus;
  /** failed: whether trying again may help (no answer, or a 5xx); a 4xx refusal offers no "Try again". */
  orderRetryable: boolean;
  order: Order | null;
  /** The methods the page offers, in the server's order (only ids the shop knows). */
  methods: PaymentMethodId[];
  method: PaymentMethodId | null;
  /** Pay now was pressed: the button is disabled until a regional-provider error re-enables it. */
  paying: boolean;
  payssion: PayssionStatus;
  /** Card payments can save the card for automatic renewal here (asked when the page opens). */
  autoRenewAvailable: boolean;
  /** "Renew automatically" ticked (default off). */
  renewAutomatically: boolean;
}

const initialState: CheckoutState = {
  orderStatus: 'idle',
  orderRetryable: true,
  order: null,
  methods: [],
  method: null,
  paying: false,
  payssion: 'checking',
  autoRenewAvailable: false,
  renewAutomatically: false,
};

export interface PayssionReturn {
  /** `order_id` of the return address ("42-7"); null when missing. */
  orderId: string | null;
  transactionId: string | null;
}

/** Preselected: the order's method (2 by default, spec section 9) when offered, else the first offered. */
function preselect(order: Order, methods: PaymentMethodId[]): PaymentMethodId | null {
  const current = order.paymentMethod;
  if (isPaymentMethodId(current) && methods.includes(current)) return current;
  return methods[0] ?? null;
}

export const checkoutSlice = createSlice({
  name: 'checkout',
  initialState,
  reducers: {
    /** /payment mounted: a new order is created (saga). */
    paymentPageOpened: () => ({ ...initialState, orderStatus: 'creating' as const }),
    paymentPageClosed: () => initialState,
    /** The failure message's retry, or the currency switch while on the page: another order. */
    orderRequested(state) {
      state.orderStatus = 'creating';
      state.order = null;
      state.methods = [];
      state.method = null;
      state.paying = false;
    },
    orderCreated(state, action: PayloadAction<Order>) {
      const order = action.payload;
      const methods = order.paymentMethods.filter(isPaymentMethodId);
      state.orderStatus = 'ready';
      state.order = order;
      state.methods = [...new Set(methods)];
      state.method = preselect(order, state.methods);
      state.paying = false;
    },
    orderFailed(state, action: PayloadAction<{ retryable: boolean }>) {
      state.orderStatus = 'failed';
      state.orderRetryable = action.payload.retryable;
    },
    methodChosen(state, action: PayloadAction<PaymentMethodId>) {
      if (!state.paying && state.methods.includes(action.payload)) state.method = action.payload;
    },
    autoRenewAvailabilityKnown(state, action: PayloadAction<boolean>) {
      state.autoRenewAvailable = action.payload;
    },
    renewAutomaticallyChanged(state, action: PayloadAction<boolean>) {
      if (!state.paying) state.renewAutomatically = action.payload;
    },
    /** Pay now: the button is disabled at once (spec section 4). */
    payRequested(state) {
      if (state.order && state.method !== null) state.paying = true;
    },
    /** A regional-provider error: its message is shown and the button enabled again. */
    payFailed(state) {
      state.paying = false;
    },
    /** Back from the provider's page through the browser's back button (page restored from the back/forward cache). */
    paymentPageRestored(state) {
      state.paying = false;
    },

    /** /payssionpaymentresult opened with these query parameters. */
    payssionResultOpened: {
      reducer(state) {
        state.payssion = 'checking';
      },
      prepare: (payload: PayssionReturn) => ({ payload }),
    },
    payssionResultClosed(state) {
      state.payssion = 'checking';
    },
    payssionChecked(state, action: PayloadAction<boolean>) {
      state.payssion = action.payload ? 'paid' : 'failed';
    },

    /** The result page's button: the payment is processed, then the buyer's panel opens (spec section 4). */
    subscriptionsRequested(_state, _action: PayloadAction<{ orderId: number | null }>) {},
  },
  selectors: {
    selectOrderStatus: (state) => state.orderStatus,
    selectOrderRetryable: (state) => state.orderRetryable,
    selectOrder: (state) => state.order,
    selectMethods: (state) => state.methods,
    selectMethod: (state) => state.method,
    selectPaying: (state) => state.paying,
    selectAutoRenewAvailable: (state) => state.autoRenewAvailable,
    selectRenewAutomatically: (state) => state.renewAutomatically,
    selectPayssionStatus: (state) => state.payssion,
  },
});

/** The slice, added to the store's reducer now that its chunk has loaded. */
export const injectedCheckoutSlice = checkoutSlice.injectInto(rootReducer);

export const {
  paymentPageOpened,
  paymentPageClosed,
  orderRequested,
  orderCreated,
  orderFailed,
  methodChosen,
  autoRenewAvailabilityKnown,
  renewAutomaticallyChanged,
  payRequested,
  payFailed,
  paymentPageRestored,
  payssionResultOpened,
  payssionResultClosed,
  payssionChecked,
  subscriptionsRequested,
} = checkoutSlice.actions;
