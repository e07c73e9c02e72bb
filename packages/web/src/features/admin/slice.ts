/**
 * The admin area's state (spec sections 2 and 4): the dashboard, the orders of a state and the
 * users (each a paged list or a search result), the create-subscription page (platforms, the
 * chosen platform's mailboxes, the form's progress), the admin user page and the refund dialog
 * (open on either page). Injected into the
 * store when the admin chunk loads; nothing here is in the storefront's first download.
 */
import { createSlice, type Draft, type PayloadAction } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import type {
  AdminOrder,
  AdminPlatform,
  AdminUser,
  Dashboard,
  Mailbox,
  NewSubscription,
  RefundQuote,
  RefundRequest,
  RefundResult,
} from '../../services/api/admin';
import type { UserPanel } from '../../services/api/panel';
import { initialPaging, pagedListReducers, pagesFor, type LoadStatus, type PagedList } from './paging';

export type { LoadStatus } from './paging';

export interface ListState<Row, Query> extends PagedList<Row> {
  /** The search shown instead of the paged list (spec section 4: search replaces the list); null: the paged list. */
  search: Query | null;
}

export interface OrdersState extends ListState<AdminOrder, number> {
  /** The state filter of /jve/orders/{sid}; null when no orders page is open. */
  orderState: number | null;
  /** Orders whose activation is on its way. */
  activating: number[];
}

export interface UsersState extends ListState<AdminUser, string> {
  /** Users an e-mail is on its way to. */
  sending: number[];
}

export interface CreateState {
  platforms: AdminPlatform[];
  platformsStatus: LoadStatus;
  /** The platform chosen in the form: its mailboxes are listed beside it. */
  platformId: number | null;
  mailboxes: Mailbox[];
  mailboxesStatus: LoadStatus;
  creatingMailbox: boolean;
  submitting: boolean;
  /** Counts successful creations: the form starts afresh after each (spec section 2). */
  resets: number;
}

export type UserPageStatus = 'idle' | 'loading' | 'loaded' | 'failed' | 'notFound';

export interface UserPageState {
  userId: number | null;
  status: UserPageStatus;
  /** failed: whether trying again may help (no answer, or a 5xx; not a 4xx). */
  retryable: boolean;
  panel: UserPanel | null;
  /** Orders being activated and subscriptions being replaced. */
  activating: number[];
  replacing: number[];
}

/**
 * The refund dialog of one order (admins; the orders list and the user page open it): its quote,
 * the refund on its way, and the server's answer to a refused one (already translated).
 */
export interface RefundState {
  /** The order whose dialog is open; null: no dialog. */
  orderId: number | null;
  quoteStatus: LoadStatus;
  /** failed: whether trying again may help (no answer, or a 5xx; not a 4xx). */
  quoteRetryable: boolean;
  quote: RefundQuote | null;
  /** Why the quote could not be loaded (the server's message in the interface language). */
  quoteError: string | null;
  submitting: boolean;
  /** Why the refund was refused or failed; nothing changed on the order. */
  error: string | null;
}

/** unavailable: the server has no dashboard call (404); the page says so instead of failing. */
export type DashboardStatus = 'idle' | 'loading' | 'loaded' | 'unavailable' | 'failed';

export interface AdminState {
  dashboard: { status: DashboardStatus; data: Dashboard | null };
  orders: OrdersState;
  users: UsersState;
  create: CreateState;
  user: UserPageState;
  refund: RefundState;
}

const initialOrders = (orderState: number | null = null): OrdersState => ({
  orderState,
  paging: initialPaging(),
  rows: [],
  status: 'idle',
  search: null,
  activating: [],
});
const initialUsers = (): UsersState => ({ paging: initialPaging(), rows: [], status: 'idle', search: null, sending: [] });
const initialCreate = (): CreateState => ({
  platforms: [],
  platformsStatus: 'idle',
  platformId: null,
  mailboxes: [],
  mailboxesStatus: 'idle',
  creatingMailbox: false,
  submitting: false,
  resets: 0,
});
const initialUser = (userId: number | null = null): UserPageState => ({ userId, status: 'idle', retryable: true, panel: null, activating: [], replacing: [] });

const initialRefund = (orderId: number | null = null): RefundState => ({
  orderId,
  quoteStatus: orderId === null ? 'idle' : 'loading',
  quoteRetryable: true,
  quote: null,
  quoteError: null,
  submitting: false,
  error: null,
});

const initialState: AdminState = {
  dashboard: { status: 'idle', data: null },
  orders: initialOrders(),
  users: initialUsers(),
  create: initialCreate(),
  user: initialUser(),
  refund: initialRefund(),
};

const without = (list: number[], id: number) => list.filter((entry) => entry !== id);

export const adminSlice = createSlice({
  name: 'admin',
  initialState,
  reducers: {
    // Dashboard ---------------------------------------------------------------------------
    dashboardOpened(state) {
      state.dashboard.status = 'loading';
    },
    dashboardLoaded(state, action: PayloadAction<Dashboard>) {
      state.dashboard = { status: 'loaded', data: action.payload };
    },
    dashboardFailed(state, action: PayloadAction<'unavailable' | 'failed'>) {
      state.dashboard = { status: action.payload, data: null };
    },

    // Orders ------------------------------------------------------------------------------
    /** /jve/orders/{sid} opened: page 1, 20 rows (spec section 4). */
    ordersOpened(state, action: PayloadAction<number>) {
      state.orders = { ...initialOrders(action.payload), status: 'loading' };
    },
    ordersClosed(state) {
      state.orders = initialOrders();
    },
    ...pagedListReducers('orders', (state: Draft<AdminState>) => state.orders),
    ordersSearched(state, action: PayloadAction<number>) {
      state.orders.search = action.payload;
      state.orders.status = 'loading';
    },
    /** The searched order, or none (NO ORDERS). */
    ordersSearchLoaded(state, action: PayloadAction<AdminOrder | null>) {
      state.orders.status = 'loaded';
      state.orders.rows = action.payload ? [action.payload] : [];
    },
    orderActivationRequested(state, action: PayloadAction<number>) {
      if (!state.orders.activating.includes(action.payload)) state.orders.activating.push(action.payload);
    },
    /** Activated: the order leaves the list of waiting orders (spec section 2). */
    orderActivated(state, action: PayloadAction<number>) {
      const { orders } = state;
      orders.activating = without(orders.activating, action.payload);
      const before = orders.rows.length;
      orders.rows = orders.rows.filter((order) => order.id !== action.payload);
      if (orders.rows.length < before && orders.search === null) {
        orders.paging.count = Math.max(0, orders.paging.count - 1);
        orders.paging.pages = pagesFor(orders.paging.count, orders.paging.limit);
      }
    },
    orderActivationFailed(state, action: PayloadAction<number>) {
      state.orders.activating = without(state.orders.activating, action.payload);
    },
    ordersExportRequested(_state, _action: PayloadAction<number>) {},

    // Users -------------------------------------------------------------------------------
    usersOpened(state) {
      state.users = { ...initialUsers(), status: 'loading' };
    },
    usersClosed(state) {
      state.users = initialUsers();
    },
    ...pagedListReducers('users', (state: Draft<AdminState>) => state.users),
    /** A valid e-mail only (the form checks it first, spec section 5). */
    usersSearched(state, action: PayloadAction<string>) {
      state.users.search = action.payload;
      state.users.status = 'loading';
    },
    usersSearchLoaded(state, action: PayloadAction<AdminUser[]>) {
      state.users.status = 'loaded';
      state.users.rows = action.payload;
    },
    emailSendRequested(state, action: PayloadAction<{ userId: number; emailType: number }>) {
      if (!state.users.sending.includes(action.payload.userId)) state.users.sending.push(action.payload.userId);
    },
    emailSendFinished(state, action: PayloadAction<number>) {
      state.users.sending = without(state.users.sending, action.payload);
    },

    // Create subscription -----------------------------------------------------------------
    createPageOpened(state) {
      state.create = { ...initialCreate(), platformsStatus: 'loading' };
    },
    createPageClosed(state) {
      state.create = initialCreate();
    },
    platformsLoaded(state, action: PayloadAction<AdminPlatform[]>) {
      state.create.platforms = action.payload;
      state.create.platformsStatus = 'loaded';
    },
    platformsFailed(state) {
      state.create.platformsStatus = 'failed';
    },
    /** The form's platform changed: its mailboxes are asked for (none when cleared). */
    platformChosen(state, action: PayloadAction<number | null>) {
      state.create.platformId = action.payload;
      state.create.mailboxes = [];
      state.create.mailboxesStatus = action.payload === null ? 'idle' : 'loading';
    },
    mailboxesLoaded(state, action: PayloadAction<{ platformId: number; mailboxes: Mailbox[] }>) {
      if (state.create.platformId !== action.payload.platformId) return;
      state.create.mailboxes = action.payload.mailboxes;
      state.create.mailboxesStatus = 'loaded';
    },
    mailboxesFailed(state) {
      state.create.mailboxesStatus = 'failed';
    },
    mailboxCreateRequested(state) {
      if (state.create.platformId !== null) state.create.creatingMailbox = true;
    },
    /** A new mailbox, first in the list (its password is readable this once, and from the list). */
    mailboxCreated(state, action: PayloadAction<Mailbox>) {
      state.create.creatingMailbox = false;
      state.create.mailboxes = [action.payload, ...state.create.mailboxes.filter((mailbox) => mailbox.id !== action.payload.id)];
    },
    mailboxCreateFailed(state) {
      state.create.creatingMailbox = false;
    },
    subscriptionSubmitted(state, _action: PayloadAction<NewSubscription>) {
      state.create.submitting = true;
    },
    /** Created: the form is reset (spec section 2), the mailbox list with it. */
    subscriptionCreated(state) {
      state.create.submitting = false;
      state.create.resets += 1;
      state.create.platformId = null;
      state.create.mailboxes = [];
      state.create.mailboxesStatus = 'idle';
    },
    subscriptionFailed(state) {
      state.create.submitting = false;
    },

    // Admin user page ---------------------------------------------------------------------
    /** /jve/user/{id} opened (null: the address is no user id). */
    adminUserOpened(state, action: PayloadAction<number | null>) {
      state.user = { ...initialUser(action.payload), status: action.payload === null ? 'notFound' : 'loading' };
    },
    adminUserClosed(state) {
      state.user = initialUser();
    },
    /** Load again (the retry, and after a replacement: spec section 4). */
    adminUserRequested(state) {
      if (state.user.userId !== null) state.user.status = state.user.panel ? 'loaded' : 'loading';
    },
    adminUserLoaded(state, action: PayloadAction<UserPanel>) {
      state.user.status = 'loaded';
      state.user.panel = action.payload;
    },
    adminUserFailed(state, action: PayloadAction<{ status: 'failed' | 'notFound'; retryable: boolean }>) {
      state.user.status = action.payload.status;
      state.user.retryable = action.payload.retryable;
      if (action.payload.status === 'notFound') state.user.panel = null;
    },
    userOrderActivationRequested(state, action: PayloadAction<number>) {
      if (!state.user.activating.includes(action.payload)) state.user.activating.push(action.payload);
    },
    userOrderActivationFinished(state, action: PayloadAction<number>) {
      state.user.activating = without(state.user.activating, action.payload);
    },
    replaceRequested(state, action: PayloadAction<{ subscribeId: number; orderId: number }>) {
      if (!state.user.replacing.includes(action.payload.subscribeId)) state.user.replacing.push(action.payload.subscribeId);
    },
    replaceFinished(state, action: PayloadAction<number>) {
      state.user.replacing = without(state.user.replacing, action.payload);
    },

    // Refund dialog -----------------------------------------------------------------------
    /** Refund on a paid order: the dialog opens and asks for the quote. */
    refundDialogOpened(state, action: PayloadAction<number>) {
      state.refund = initialRefund(action.payload);
    },
    /** Closed (Cancel, Escape, the page left). A refund already sent still finishes (the saga). */
    refundDialogClosed(state) {
      state.refund = initialRefund();
    },
    /** The quote again (the retry, and after a refused refund: the window may have closed meanwhile). */
    refundQuoteRequested(state) {
      if (state.refund.orderId === null) return;
      state.refund.quoteStatus = 'loading';
      state.refund.quoteError = null;
    },
    refundQuoteLoaded(state, action: PayloadAction<RefundQuote>) {
      if (state.refund.orderId !== action.payload.orderId) return;
      state.refund.quoteStatus = 'loaded';
      state.refund.quote = action.payload;
    },
    refundQuoteFailed(state, action: PayloadAction<{ orderId: number; message: string; retryable: boolean }>) {
      if (state.refund.orderId !== action.payload.orderId) return;
      state.refund.quoteStatus = 'failed';
      state.refund.quoteRetryable = action.payload.retryable;
      state.refund.quoteError = action.payload.message;
    },
    refundSubmitted(state, action: PayloadAction<RefundRequest>) {
      if (state.refund.orderId !== action.payload.orderId) return;
      state.refund.submitting = true;
      state.refund.error = null;
    },
    /** Refunded: the dialog closes; a listed row shows its new state (the badge), the user page reloads (saga). */
    refundSucceeded(state, action: PayloadAction<Pick<RefundResult, 'orderId' | 'state'>>) {
      const { orderId, state: orderState } = action.payload;
      if (state.refund.orderId === orderId) state.refund = initialRefund();
      for (const order of state.orders.rows) if (order.id === orderId) order.state = orderState as AdminOrder['state'];
    },
    refundFailed(state, action: PayloadAction<{ orderId: number; message: string }>) {
      if (state.refund.orderId !== action.payload.orderId) return;
      state.refund.submitting = false;
      state.refund.error = action.payload.message;
    },
  },
  selectors: {
    selectDashboard: (state) => state.dashboard,
    selectOrders: (state) => state.orders,
    selectUsers: (state) => state.users,
    selectCreate: (state) => state.create,
    selectAdminUser: (state) => state.user,
    selectRefund: (state) => state.refund,
  },
});

/** The slice, added to the store's reducer now that its chunk has loaded. */
export const injectedAdminSlice = adminSlice.injectInto(rootReducer);

export const {
  dashboardOpened,
  dashboardLoaded,
  dashboardFailed,
  ordersOpened,
  ordersClosed,
  ordersPageChosen,
  ordersLimitChosen,
  ordersRefreshed,
  ordersSearched,
  ordersLoaded,
  ordersSearchLoaded,
  ordersFailed,
  orderActivationRequested,
  orderActivated,
  orderActivationFailed,
  ordersExportRequested,
  usersOpened,
  usersClosed,
  usersPageChosen,
  usersLimitChosen,
  usersRefreshed,
  usersSearched,
  usersLoaded,
  usersSearchLoaded,
  usersFailed,
  emailSendRequested,
  emailSendFinished,
  createPageOpened,
  createPageClosed,
  platformsLoaded,
  platformsFailed,
  platformChosen,
  mailboxesLoaded,
  mailboxesFailed,
  mailboxCreateRequested,
  mailboxCreated,
  mailboxCreateFailed,
  subscriptionSubmitted,
  subscriptionCreated,
  subscriptionFailed,
  adminUserOpened,
  adminUserClosed,
  adminUserRequested,
  adminUserLoaded,
  adminUserFailed,
  userOrderActivationRequested,
  userOrderActivationFinished,
  replaceRequested,
  replaceFinished,
  refundDialogOpened,
  refundDialogClosed,
  refundQuoteRequested,
  refundQuoteLoaded,
  refundQuoteFailed,
  refundSubmitted,
  refundSucceeded,
  refundFailed,
} = adminSlice.actions;
