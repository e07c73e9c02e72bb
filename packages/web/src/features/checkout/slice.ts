/**
 * The checkout (spec sections 2 and 4): the order the payment page created, the chosen
 * method, the Pay now button's state, and the regional provider's result check. Injected into
 * the store when the checkout chunk loads; nothing here is in the storefront's first download.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import { isPaymentMethodId, type Order, type PaymentMethodId } from '../../services/api/payment';

export type OrderStatus = 'idle' | 'creating' | 'ready' | 'failed';

/**
 * "Have a code?" (issue 37): the disclosure, what is typed, an Apply on its way, and why the last
 * code was refused (the error dictionary's reason in the buyer's language).
 */
export interface PromoState {
  open: boolean;
  input: string;
  applying: boolean;
  error: string | null;
  /** The code the next order is made with: the link's (`?code=`), then the one applied; null after a refusal. */
  requested: string | null;
}

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
  /** "Use my credit" ticked (issue 37: on by default; the buyer can opt out). */
  useCredit: boolean;
  promo: PromoState;
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
  useCredit: true,
  promo: { open: false, input: '', applying: false, error: null, requested: null },
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
      state.promo.applying = false;
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
    useCreditChanged(state, action: PayloadAction<boolean>) {
      if (!state.paying) state.useCredit = action.payload;
    },
    /** Pay now: the button is disabled at once (spec section 4); not while a code is being applied (the amount may change). */
    payRequested(state) {
      if (state.order && state.method !== null && !state.promo.applying) state.paying = true;
    },
    /** A regional-provider error: its message is shown and the button enabled again. */
    payFailed(state) {
      state.paying = false;
    },
    /** Back from the provider's page through the browser's back button (page restored from the back/forward cache). */
    paymentPageRestored(state) {
      state.paying = false;
    },

    /** The payment page's address carried a promotion code (`?code=`): the order is made with it. */
    promoCodeCarried(state, action: PayloadAction<string>) {
      state.promo.requested = action.payload;
      state.promo.input = action.payload;
    },
    promoToggled(state) {
      state.promo.open = !state.promo.open;
    },
    promoInputChanged(state, action: PayloadAction<string>) {
      state.promo.input = action.payload;
      state.promo.error = null;
    },
    /** Apply: the code goes to the order (saga); nothing while a payment is starting. */
    promoApplyRequested(state) {
      if (state.order && !state.paying && state.promo.input.trim()) {
        state.promo.applying = true;
        state.promo.error = null;
      }
    },
    /** The server took the code: the order with its discount; a new order (currency switch) is made with it too. */
    promoApplied(state, action: PayloadAction<Order>) {
      state.order = action.payload;
      state.promo.applying = false;
      state.promo.error = null;
      state.promo.input = '';
      state.promo.requested = action.payload.promoCode;
    },
    /** The code was refused (at Apply, or when the order was made with it: then the next order is made without it): why, with the disclosure open. */
    promoRefused(state, action: PayloadAction<{ message: string; atOrderCreation: boolean }>) {
      state.promo.applying = false;
      state.promo.open = true;
      state.promo.error = action.payload.message;
      if (action.payload.atOrderCreation) state.promo.requested = null;
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
    selectUseCredit: (state) => state.useCredit,
    selectPayssionStatus: (state) => state.payssion,
    selectPromo: (state) => state.promo,
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
  useCreditChanged,
  payRequested,
  payFailed,
  paymentPageRestored,
  payssionResultOpened,
  payssionResultClosed,
  payssionChecked,
  subscriptionsRequested,
  promoCodeCarried,
  promoToggled,
  promoInputChanged,
  promoApplyRequested,
  promoApplied,
  promoRefused,
} = checkoutSlice.actions;
