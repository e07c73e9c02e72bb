/**
 * The admin area's flows (spec sections 2, 4 and 8), started when the admin chunk loads.
 *
 *   /jve ─► GET admin/dashboard ─► figures; 404: "not available yet"; other failure: logged
 *   /jve/orders/{sid}, Previous/Next, page size, Refresh ─► GET order/getbystate + getorderspages
 *   order search (an id) ─► GET order/getorder ─► that one order, or NO ORDERS
 *   Activate (state 6) ─► POST webhook/activatesubscribe ─ ok ─► the order leaves the list
 *                                                       └ failure: its message in the snackbar
 *   Export CSV ─► GET order/export.csv with the token ─► saved as a file
 *   /jve/users, paging, Refresh ─► GET user/getusers + getuserspages; e-mail search ─► getusersbyemail
 *   SEND EMAIL ─► POST email/sendemail ─► 'E-mail send successfully!' / the failure's message
 *   /jve/createsubscriber ─► GET platform/getplatforms; platform chosen ─► GET subscribe/getbemails
 *   new mailbox ─► GET subscribe/createbemail; form ─► POST subscribe/insert ─► 'Subscribe is created!!!', form reset
 *   /jve/user/{id} ─► GET user/getuserpanel (language 1); Replace ─► POST webhook/replacesubscribe ─► reload
 *   Refund (admins, paid orders) ─► dialog ─► GET order/refundquote ─► amount, fee, window, provider
 *       Confirm ─► POST order/refund (one at a time) ─ ok ─► dialog closed, the row's state, snackbar; user page reloads
 *                                                   └ refused or failed: its message in the dialog, the quote again
 *
 * Loads are only logged when they fail (spec section 8); the actions staff take report in the
 * snackbar. A page's loads are takeLatest on its open/close actions: leaving cancels them.
 */
import { all, call, put, select, takeEvery, takeLatest, takeLeading } from 'redux-saga/effects';
import { ApiError, isTemporaryFailure } from '../../services/api';
import * as adminApi from '../../services/api/admin';
import type { AdminOrder, AdminPlatform, AdminUser, Dashboard, Mailbox, PagesCount, RefundQuote, RefundResult } from '../../services/api/admin';
import type { UserPanel } from '../../services/api/panel';
import type { DownloadedFile } from '../../services/api/client';
import { logError } from '../../services/log';
import { errorText, type ErrorTexts } from '../language/errors';
import type { LanguageId } from '../language/languages';
import { errorTextsOfLanguage } from '../language/saga';
import { waitForLanguage } from '../language/saga';
import { selectLanguage, selectLanguageId } from '../language/selectors';
import { translate } from '../language/texts';
import { showErrorSnackbar, showInfoSnackbar } from '../shell/snackbarSagas';
import { formatMoney, REFUNDED_STATE } from './format';
import { selectAdminUser, selectCreate, selectOrders, selectRefund, selectUsers } from './selectors';
import {
  adminUserClosed,
  adminUserFailed,
  adminUserLoaded,
  adminUserOpened,
  adminUserRequested,
  createPageClosed,
  createPageOpened,
  dashboardFailed,
  dashboardLoaded,
  dashboardOpened,
  emailSendFinished,
  emailSendRequested,
  mailboxCreated,
  mailboxCreateFailed,
  mailboxCreateRequested,
  mailboxesFailed,
  mailboxesLoaded,
  orderActivated,
  orderActivationFailed,
  orderActivationRequested,
  ordersClosed,
  ordersExportRequested,
  ordersLimitChosen,
  ordersLoaded,
  ordersFailed,
  ordersOpened,
  ordersPageChosen,
  ordersRefreshed,
  ordersSearched,
  ordersSearchLoaded,
  platformChosen,
  refundDialogClosed,
  refundDialogOpened,
  refundFailed,
  refundQuoteFailed,
  refundQuoteLoaded,
  refundQuoteRequested,
  refundSubmitted,
  refundSucceeded,
  platformsFailed,
  platformsLoaded,
  replaceFinished,
  replaceRequested,
  subscriptionCreated,
  subscriptionFailed,
  subscriptionSubmitted,
  userOrderActivationFinished,
  userOrderActivationRequested,
  usersClosed,
  usersLimitChosen,
  usersLoaded,
  usersFailed,
  usersOpened,
  usersPageChosen,
  usersRefreshed,
  usersSearched,
  usersSearchLoaded,
  type CreateState,
  type OrdersState,
  type RefundState,
  type UserPageState,
  type UsersState,
} from './slice';
import { ADMIN_TEXTS, type AdminTextKey } from './texts';

// Answers are checked before they reach the pages: a wrong shape is a failed load, not a broken page.
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isId = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value > 0;

function checkList<T>(value: unknown, isRow: (row: unknown) => boolean, what: string): T[] {
  if (!Array.isArray(value) || !value.every(isRow)) throw new Error(`${what} answered no usable list`);
  return value as T[];
}

export const isOrder = (value: unknown): value is AdminOrder => isRecord(value) && isId(value.id) && Array.isArray(value.items);
export const isUser = (value: unknown): value is AdminUser => isRecord(value) && isId(value.id) && typeof value.email === 'string';
const isPlatform = (value: unknown): value is AdminPlatform => isRecord(value) && isId(value.id) && typeof value.name === 'string';
const isMailbox = (value: unknown): value is Mailbox => isRecord(value) && isId(value.id) && typeof value.email === 'string';

function checkCounts(value: unknown, what: string): PagesCount {
  if (!isRecord(value) || typeof value.pages !== 'number' || typeof value.count !== 'number') throw new Error(`${what} answered no pages and count`);
  return { pages: value.pages, count: value.count };
}

function checkPanel(value: unknown): UserPanel {
  if (!isRecord(value) || !isRecord(value.user) || !Array.isArray(value.subscribers) || !Array.isArray(value.subscribersNotCompleted)) {
    throw new Error('getuserpanel answered no usable panel');
  }
  // A server from before refunds has no refunded list: none.
  return { ...value, subscribersRefunded: Array.isArray(value.subscribersRefunded) ? value.subscribersRefunded : [] } as unknown as UserPanel;
}

const status = (error: unknown) => (error instanceof ApiError ? error.status : undefined);

function* adminText(key: AdminTextKey, vars?: Record<string, string | number>) {
  const languageId: LanguageId = yield select(selectLanguageId);
  return translate(ADMIN_TEXTS, languageId, key, vars);
}

function* showAdminInfo(key: AdminTextKey, vars?: Record<string, string | number>) {
  const message: string = yield call(adminText, key, vars);
  yield call(showInfoSnackbar, message);
}

// Dashboard --------------------------------------------------------------------------------

function* loadDashboard() {
  const languageId: LanguageId = yield call(waitForLanguage);
  try {
    const answer: unknown = yield call(adminApi.getDashboard, languageId);
    if (!isRecord(answer)) throw new Error('dashboard answered no figures');
    yield put(dashboardLoaded(answer as unknown as Dashboard));
  } catch (error) {
    // Beyond the spec; a server without the call (404) is not a failure of the page.
    if (status(error) === 404) {
      yield put(dashboardFailed('unavailable'));
      return;
    }
    logError('admin dashboard load failed', error);
    yield put(dashboardFailed('failed'));
  }
}

// Orders -----------------------------------------------------------------------------------

function* loadOrders(action: { type: string }) {
  if (action.type === ordersClosed.type) return;
  const orders: OrdersState = yield select(selectOrders);
  if (orders.orderState === null) return;
  // The admin's language names what the orders bought (each order keeps its buyer's).
  const languageId: LanguageId = yield call(waitForLanguage);
  try {
    if (orders.search !== null) {
      let found: AdminOrder | null = null;
      try {
        const answer: unknown = yield call(adminApi.getOrder, orders.search, languageId);
        if (!isOrder(answer)) throw new Error('getorder answered no usable order');
        found = answer;
      } catch (error) {
        // No such order (or no valid id): the search shows NO ORDERS.
        const code = status(error);
        if (code !== 404 && code !== 400) throw error;
      }
      yield put(ordersSearchLoaded(found));
      return;
    }
    const { page, limit } = orders.paging;
    const [rows, counts]: [unknown, unknown] = yield all([
      call(adminApi.getOrdersByState, orders.orderState, page, limit, languageId),
      call(adminApi.getOrdersPages, orders.orderState, limit),
    ]);
    yield put(ordersLoaded({ rows: checkList<AdminOrder>(rows, isOrder, 'getbystate'), ...checkCounts(counts, 'getorderspages') }));
  } catch (error) {
    // Spec section 8: list and search failures are only logged (the page says the list could not be loaded).
    logError('admin orders load failed', error);
    yield put(ordersFailed());
  }
}

function* activateOrder(action: ReturnType<typeof orderActivationRequested>) {
  const orderId = action.payload;
  try {
    yield call(adminApi.activateOrder, orderId);
    yield put(orderActivated(orderId));
    yield call(showAdminInfo, 'admin.activated', { id: orderId });
  } catch (error) {
    yield put(orderActivationFailed(orderId));
    // Spec section 8: an activate failure shows its error text in the snackbar (SNACKBAR_DURATION_MS).
    yield call(showErrorSnackbar, `activation of order ${orderId} failed`, error);
  }
}

/** Hands a downloaded file to the browser as a download. */
export function saveFile(file: DownloadedFile, fallbackName: string): void {
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.filename ?? fallbackName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click's task is over.
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}

function* exportOrders(action: ReturnType<typeof ordersExportRequested>) {
  const state = action.payload;
  try {
    const file: DownloadedFile = yield call(adminApi.exportOrdersCsv, state);
    yield call(saveFile, file, `orders-state-${state}.csv`);
  } catch (error) {
    yield call(showErrorSnackbar, `orders export (state ${state}) failed`, error);
  }
}

// Users ------------------------------------------------------------------------------------

function* loadUsers(action: { type: string }) {
  if (action.type === usersClosed.type) return;
  const users: UsersState = yield select(selectUsers);
  try {
    if (users.search !== null) {
      let found: AdminUser[] = [];
      try {
        found = checkList<AdminUser>(yield call(adminApi.getUsersByEmail, users.search), isUser, 'getusersbyemail');
      } catch (error) {
        if (status(error) !== 404) throw error;
      }
      yield put(usersSearchLoaded(found));
      return;
    }
    const { page, limit } = users.paging;
    const [rows, counts]: [unknown, unknown] = yield all([call(adminApi.getUsers, page, limit), call(adminApi.getUsersPages, limit)]);
    yield put(usersLoaded({ rows: checkList<AdminUser>(rows, isUser, 'getusers'), ...checkCounts(counts, 'getuserspages') }));
  } catch (error) {
    logError('admin users load failed', error);
    yield put(usersFailed());
  }
}

function* sendEmail(action: ReturnType<typeof emailSendRequested>) {
  const { userId, emailType } = action.payload;
  try {
    yield call(adminApi.sendEmail, userId, emailType);
    yield call(showAdminInfo, 'admin.emailSent');
  } catch (error) {
    yield call(showErrorSnackbar, `e-mail ${emailType} to user ${userId} failed`, error);
  } finally {
    yield put(emailSendFinished(userId));
  }
}

// Create subscription ----------------------------------------------------------------------

function* loadPlatforms(action: { type: string }) {
  if (action.type === createPageClosed.type) return;
  try {
    yield put(platformsLoaded(checkList<AdminPlatform>(yield call(adminApi.getPlatforms), isPlatform, 'getplatforms')));
  } catch (error) {
    logError('admin platforms load failed', error);
    yield put(platformsFailed());
  }
}

function* loadMailboxes(action: { type: string; payload?: unknown }) {
  if (action.type !== platformChosen.type || !isId(action.payload)) return;
  const platformId = action.payload;
  try {
    const mailboxes = checkList<Mailbox>(yield call(adminApi.getMailboxes, platformId), isMailbox, 'getbemails');
    yield put(mailboxesLoaded({ platformId, mailboxes }));
  } catch (error) {
    logError('admin mailboxes load failed', error);
    yield put(mailboxesFailed());
  }
}

function* createMailbox() {
  const create: CreateState = yield select(selectCreate);
  if (create.platformId === null) return;
  try {
    const mailbox: unknown = yield call(adminApi.createMailbox, create.platformId);
    if (!isMailbox(mailbox)) throw new Error('createbemail answered no mailbox');
    yield put(mailboxCreated(mailbox));
  } catch (error) {
    yield put(mailboxCreateFailed());
    yield call(showErrorSnackbar, 'mailbox creation failed', error);
  }
}

function* createSubscription(action: ReturnType<typeof subscriptionSubmitted>) {
  try {
    yield call(adminApi.createSubscription, action.payload);
    yield put(subscriptionCreated());
    yield call(showAdminInfo, 'admin.created');
  } catch (error) {
    yield put(subscriptionFailed());
    // Spec section 8: a create-subscription failure shows its error text in the snackbar.
    yield call(showErrorSnackbar, 'subscription (platform account) creation failed', error);
  }
}

// Admin user page --------------------------------------------------------------------------

function* loadUser(action: { type: string }) {
  if (action.type === adminUserClosed.type) return;
  const page: UserPageState = yield select(selectAdminUser);
  if (page.userId === null) return;
  const languageId: LanguageId = yield call(waitForLanguage);
  try {
    yield put(adminUserLoaded(checkPanel(yield call(adminApi.getAdminUserPanel, page.userId, languageId))));
  } catch (error) {
    // Spec section 8: a user-panel failure is only logged.
    logError('admin user panel load failed', error);
    yield put(adminUserFailed({ status: status(error) === 404 ? 'notFound' : 'failed', retryable: isTemporaryFailure(error) }));
  }
}

function* activateUserOrder(action: ReturnType<typeof userOrderActivationRequested>) {
  const orderId = action.payload;
  try {
    yield call(adminApi.activateOrder, orderId);
    yield call(showAdminInfo, 'admin.activated', { id: orderId });
    yield put(adminUserRequested());
  } catch (error) {
    yield call(showErrorSnackbar, `activation of order ${orderId} failed`, error);
  } finally {
    yield put(userOrderActivationFinished(orderId));
  }
}

function* replaceSubscription(action: ReturnType<typeof replaceRequested>) {
  const { subscribeId, orderId } = action.payload;
  try {
    yield call(adminApi.replaceSubscription, subscribeId, orderId);
    yield call(showAdminInfo, 'admin.replaced');
    // Spec section 4: replace, then the panel reloads.
    yield put(adminUserRequested());
  } catch (error) {
    yield call(showErrorSnackbar, `replacement of subscription ${subscribeId} failed`, error);
  } finally {
    yield put(replaceFinished(subscribeId));
  }
}

// Refunds ----------------------------------------------------------------------------------

const isQuote = (value: unknown): value is RefundQuote =>
  isRecord(value) && isId(value.orderId) && typeof value.refundable === 'boolean' && typeof value.paid === 'number' && Array.isArray(value.refunds);

/** The failure as the admin reads it: the server's message (Korean by its code), else a translated fallback. */
function* failureText(error: unknown) {
  const languageId: LanguageId = yield select(selectLanguageId);
  const texts: ErrorTexts | null = yield call(errorTextsOfLanguage);
  return errorText(error, languageId, texts);
}

function* loadRefundQuote(action: { type: string }) {
  if (action.type === refundDialogClosed.type) return;
  const { orderId }: RefundState = yield select(selectRefund);
  if (orderId === null) return;
  try {
    const answer: unknown = yield call(adminApi.getRefundQuote, orderId);
    if (!isQuote(answer) || answer.orderId !== orderId) throw new Error('refundquote answered no usable quote');
    yield put(refundQuoteLoaded(answer));
  } catch (error) {
    logError(`refund quote of order ${orderId} failed`, error);
    const message: string = yield call(failureText, error);
    yield put(refundQuoteFailed({ orderId, message, retryable: isTemporaryFailure(error) }));
  }
}

/**
 * One refund at a time (takeLeading): a double click, or a second Confirm while the first is on
 * its way, sends nothing more. The server refuses a second refund of the order too.
 */
function* submitRefund(action: ReturnType<typeof refundSubmitted>) {
  const request = action.payload;
  const { orderId } = request;
  let answer: unknown;
  try {
    answer = yield call(adminApi.refundOrder, request);
  } catch (error) {
    logError(`refund of order ${orderId} failed`, error);
    const message: string = yield call(failureText, error);
    const dialog: RefundState = yield select(selectRefund);
    if (dialog.orderId === orderId) {
      yield put(refundFailed({ orderId, message }));
      // The quote as it now stands: the window may have closed, another refund may be under way or done,
      // or this one stays pending after the provider did not answer (503), which its history then shows.
      if (error instanceof ApiError && error.status > 0) yield put(refundQuoteRequested());
    } else {
      // The dialog was closed meanwhile (the page left): the failure still reaches the admin.
      yield call(showErrorSnackbar, `refund of order ${orderId} failed`, error);
    }
    return;
  }
  // The refund is made: an answer of an unexpected shape must not read as a failure (the order is refunded then).
  const result = isRecord(answer) && typeof answer.state === 'number' ? (answer as Partial<RefundResult>) : {};
  yield put(refundSucceeded({ orderId, state: result.state ?? REFUNDED_STATE }));
  const { culture }: { culture: string } = yield select(selectLanguage);
  const refund = isRecord(result.refund) && typeof result.refund.amount === 'number' ? result.refund : null;
  if (refund) yield call(showAdminInfo, 'admin.refunded', { id: orderId, amount: formatMoney(refund.amount, refund.currencyCode, culture) });
  else yield call(showAdminInfo, 'admin.refundedNoAmount', { id: orderId });
  // The user page shows the panel as the server now has it (the subscription has ended).
  const page: UserPageState = yield select(selectAdminUser);
  if (page.userId !== null && page.panel) yield put(adminUserRequested());
}

/** One request per id at a time: a double click does not activate or replace twice. */
function takeOncePerId<A extends { type: string; payload: unknown }>(pattern: string, idOf: (action: A) => number, worker: (action: A) => Generator) {
  const busy = new Set<number>();
  function* guarded(action: { type: string }) {
    const typed = action as A;
    const id = idOf(typed);
    if (busy.has(id)) return;
    busy.add(id);
    try {
      yield call(worker, typed);
    } finally {
      busy.delete(id);
    }
  }
  return takeEvery(pattern, guarded);
}

export function* adminSaga() {
  yield takeLatest(dashboardOpened.type, loadDashboard);

  yield takeLatest(
    [ordersOpened.type, ordersPageChosen.type, ordersLimitChosen.type, ordersRefreshed.type, ordersSearched.type, ordersClosed.type],
    loadOrders,
  );
  yield takeOncePerId<ReturnType<typeof orderActivationRequested>>(orderActivationRequested.type, (action) => action.payload, activateOrder);
  yield takeEvery(ordersExportRequested.type, exportOrders);

  yield takeLatest([usersOpened.type, usersPageChosen.type, usersLimitChosen.type, usersRefreshed.type, usersSearched.type, usersClosed.type], loadUsers);
  yield takeOncePerId<ReturnType<typeof emailSendRequested>>(emailSendRequested.type, (action) => action.payload.userId, sendEmail);

  yield takeLatest([createPageOpened.type, createPageClosed.type], loadPlatforms);
  yield takeLatest([platformChosen.type, createPageClosed.type], loadMailboxes);
  yield takeLeading(mailboxCreateRequested.type, createMailbox);
  yield takeLeading(subscriptionSubmitted.type, createSubscription);

  yield takeLatest([adminUserOpened.type, adminUserRequested.type, adminUserClosed.type], loadUser);
  yield takeOncePerId<ReturnType<typeof userOrderActivationRequested>>(userOrderActivationRequested.type, (action) => action.payload, activateUserOrder);
  yield takeOncePerId<ReturnType<typeof replaceRequested>>(replaceRequested.type, (action) => action.payload.subscribeId, replaceSubscription);

  yield takeLatest([refundDialogOpened.type, refundQuoteRequested.type, refundDialogClosed.type], loadRefundQuote);
  yield takeLeading(refundSubmitted.type, submitRefund);
}
