/**
 * The checkout flows (spec sections 2, 4 and 8), started when the checkout chunk loads.
 *
 *   open /payment ─ no stored choice ─► Home
 *                 └ POST order/insert (choice, language, currency, ?code=) ─ ok ─► order, methods, Pay now
 *                                                                           ├ code refused: its reason at
 *                                                                           │ "Have a code?", insert without it
 *                                                                           └ failure: logged (page says so)
 *   Apply (a code) ─► POST order/applypromo ─► the order with its discount / the refusal's reason
 *   Pay now ─► button disabled ─► POST the method's checkout call (useCredit as ticked) ─► browser to its { url }
 *                                 (the shop's result page when credit paid it all)
 *                                 └ failure: regional methods (3–6): snackbar, button enabled again;
 *                                            card (1), crypto (2): logged only, button stays disabled
 *   /payssionpaymentresult ─► POST checksessionpayssion ─► paid / failed (a failed check: failed)
 *   result page's button ─► POST payment/process ─► /user/{userId}
 *
 * Everything the payment page starts runs in one task per visit: leaving the page cancels it
 * (a checkout answer that arrives after the buyer left does not take them away).
 */
import { pagePath } from '@subshare/core/pages';
import { readChoice, readPromoCode } from '@subshare/core/storefront';
import { call, put, select, spawn, takeEvery, takeLatest, takeLeading } from 'redux-saga/effects';
import { ApiError, isTemporaryFailure, type CurrencyCode } from '../../services/api';
import * as paymentApi from '../../services/api/payment';
import { PAYMENT_METHOD, type CheckoutSession, type Order, type PaymentMethodId } from '../../services/api/payment';
import { logError } from '../../services/log';
import { leaveTo, navigate } from '../../services/navigation';
import { STORAGE_KEYS, readItem } from '../../services/storage';
import { selectUserId } from '../auth/selectors';
import { returnUrlSet } from '../auth/slice';
import type { Selection } from '../catalog/selection';
import { selectRequestedCurrency } from '../catalog/selectors';
import { currencyChosen } from '../catalog/slice';
import { errorTextsOfLanguage, waitForLanguage } from '../language/saga';
import { errorText, type ErrorTexts } from '../language/errors';
import { selectLanguageId } from '../language/selectors';
import { translate } from '../language/texts';
import type { LanguageId } from '../language/languages';
import { showErrorSnackbar } from '../shell/snackbarSagas';
import type { CreditPlan } from './credit';
import { selectCreditPlan, selectMethod, selectOrder, selectPaying, selectPromo, selectRenewAutomatically, selectUseCredit } from './selectors';
import {
  orderCreated,
  orderFailed,
  orderRequested,
  payFailed,
  payRequested,
  paymentPageClosed,
  autoRenewAvailabilityKnown,
  paymentPageOpened,
  payssionChecked,
  payssionResultClosed,
  payssionResultOpened,
  promoApplied,
  promoApplyRequested,
  promoCodeCarried,
  promoRefused,
  subscriptionsRequested,
  type PromoState,
} from './slice';
import { CHECKOUT_TEXTS } from './texts';

const isId = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value > 0;

/** The platform page's choice (sessionStorage); null when none was stored or it is damaged. */
export function readStoredSelection(): Selection | null {
  const raw = readItem(STORAGE_KEYS.selection, 'session');
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<Selection> | null;
    if (value && isId(value.platformId) && isId(value.typeId) && isId(value.durationId)) {
      return { platformId: value.platformId, typeId: value.typeId, durationId: value.durationId };
    }
  } catch {
    // Damaged: as if nothing had been chosen.
  }
  return null;
}

/** The order as the page needs it; anything else is a failed creation, not a broken page. */
function checkOrder(value: unknown): Order {
  const order = (typeof value === 'object' && value !== null ? value : {}) as Partial<Order>;
  if (!isId(order.id) || typeof order.total !== 'number' || (order.currencyCode !== 'EUR' && order.currencyCode !== 'KRW')) {
    throw new Error('order/insert answered no usable order');
  }
  if (!Array.isArray(order.items) || !Array.isArray(order.paymentMethods)) throw new Error('order/insert answered an order without items or methods');
  return order as Order;
}

/** Only an http(s) address is a payment page to send the buyer to (never `javascript:`). */
function checkoutUrl(session: CheckoutSession | undefined): string {
  const value: unknown = session?.url;
  if (typeof value === 'string') {
    try {
      const url = new URL(value, window.location.href);
      if (url.protocol === 'https:' || url.protocol === 'http:') return url.href;
    } catch {
      // Falls through to the error below.
    }
  }
  throw new Error('the checkout call answered no payment page URL');
}

/** Why a promotion code was refused, in the buyer's language; null when the failure is not the code's. */
function* promoRefusal(error: unknown) {
  if (!(error instanceof ApiError)) return null;
  const languageId: LanguageId = yield select(selectLanguageId);
  // The dictionary's reasons (promo_unknown, promo_expired, …, promo_guess_limit), Korean by their code.
  if (error.code?.startsWith('promo_')) {
    const texts: ErrorTexts | null = yield call(errorTextsOfLanguage);
    return errorText(error, languageId, texts);
  }
  // A code that cannot be one (the shared rule's letters and length): no such code.
  if (error.code === 'validation' && (Object.hasOwn(error.errors, 'promoCode') || Object.hasOwn(error.errors, 'code'))) {
    return translate(CHECKOUT_TEXTS, languageId, 'payment.promo.malformed');
  }
  return null;
}

/**
 * POST /api/order/insert with the stored choice, the interface language, the storefront's currency
 * and the promotion code the link carried (or the one applied before a currency switch). A
 * refused code still makes the order, without it: the reason shows at "Have a code?".
 */
function* createOrder(selection: Selection) {
  const userId: number | null = yield select(selectUserId);
  // The route guard lets only logged-in buyers in; a session that ended meanwhile is sent to log in by the guard.
  if (userId === null) return;
  const languageId: LanguageId = yield call(waitForLanguage);
  // The visitor's own currency choice; without one the server decides by the same rule that priced the catalog.
  const currency: CurrencyCode | undefined = yield select(selectRequestedCurrency);
  const { requested }: PromoState = yield select(selectPromo);
  const request = { ...selection, quantity: 1, userId, languageId, ...(currency ? { currency } : {}) };
  try {
    let answer: unknown;
    try {
      answer = yield call(paymentApi.createOrder, requested ? { ...request, promoCode: requested } : request);
    } catch (error) {
      const refusal: string | null = requested ? yield call(promoRefusal, error) : null;
      if (refusal === null) throw error;
      yield put(promoRefused({ message: refusal, atOrderCreation: true }));
      answer = yield call(paymentApi.createOrder, request);
    }
    yield put(orderCreated(checkOrder(answer)));
  } catch (error) {
    // Spec section 8: an order creation failure is only logged (the page offers a retry).
    logError('order creation failed', error);
    yield put(orderFailed({ retryable: isTemporaryFailure(error) }));
  }
}

/** "Have a code?"'s Apply: POST /api/order/applypromo; the order comes back with its discount. */
function* applyPromo() {
  const order: Order | null = yield select(selectOrder);
  const { applying, input }: PromoState = yield select(selectPromo);
  if (!order || !applying) return;
  try {
    const answer: unknown = yield call(paymentApi.applyPromo, order.id, input.trim());
    yield put(promoApplied(checkOrder(answer)));
  } catch (error) {
    const refusal: string | null = yield call(promoRefusal, error);
    if (refusal === null) logError('promotion code not applied', error);
    const languageId: LanguageId = yield select(selectLanguageId);
    const texts: ErrorTexts | null = refusal === null ? yield call(errorTextsOfLanguage) : null;
    yield put(promoRefused({ message: refusal ?? errorText(error, languageId, texts), atOrderCreation: false }));
  }
}

function* pay() {
  const paying: boolean = yield select(selectPaying);
  const order: Order | null = yield select(selectOrder);
  const method: PaymentMethodId | null = yield select(selectMethod);
  const renew: boolean = yield select(selectRenewAutomatically);
  const credit: CreditPlan | null = yield select(selectCreditPlan);
  const useCredit: boolean = yield select(selectUseCredit);
  if (!paying || !order || method === null) return;
  try {
    // "Use my credit" as shown: sent only when credit was offered. Credit that pays it all answers the shop's result page.
    const session: CheckoutSession = yield call(
      paymentApi.createCheckoutSession,
      order.id,
      method,
      method === PAYMENT_METHOD.card && renew,
      credit?.offered ? useCredit : undefined,
    );
    yield call(leaveTo, checkoutUrl(session));
  } catch (error) {
    if (paymentApi.isRegionalMethod(method)) {
      // Spec section 4: the regional provider's error is shown and the button enabled again.
      yield call(showErrorSnackbar, `payment method ${method} failed to start`, error);
      yield put(payFailed());
    } else {
      // Card and crypto: only logged, the button stays disabled.
      logError(`${method === PAYMENT_METHOD.card ? 'card' : 'crypto'} payment failed to start`, error);
    }
  }
}

/** The currency switch on the payment page: the order is made again in the new currency. */
function* recreateOrder() {
  const paying: boolean = yield select(selectPaying);
  if (!paying) yield put(orderRequested());
}

/** Whether the card method offers "Renew automatically" here; a failed question leaves the box hidden. */
function* askAutoRenew() {
  try {
    const available: boolean = yield call(paymentApi.autoRenewAvailable);
    yield put(autoRenewAvailabilityKnown(available));
  } catch (error) {
    logError('automatic renewal availability unknown', error);
  }
}

/** One visit to /payment, from mount to unmount. */
function* paymentPage() {
  // The address names the choice (the platform page's form, scripted or not); else the stored one.
  const params = new URLSearchParams(window.location.search);
  const selection: Selection | null = readChoice(params) ?? (yield call(readStoredSelection));
  if (!selection) {
    // Nothing chosen on a platform page: nothing to order.
    yield call(navigate, '/', { replace: true });
    return;
  }
  // A promotion code the platform page's link carried (issue 37): the order is made with it.
  const promoCode = readPromoCode(params);
  if (promoCode) yield put(promoCodeCarried(promoCode));
  yield takeLatest(orderRequested.type, createOrder, selection);
  yield takeLeading(payRequested.type, pay);
  yield takeLeading(promoApplyRequested.type, applyPromo);
  yield spawn(askAutoRenew);
  yield takeEvery(currencyChosen.type, recreateOrder);
  yield put(orderRequested());
}

function* paymentPageLifecycle(action: { type: string }) {
  if (action.type === paymentPageOpened.type) yield call(paymentPage);
}

function* checkPayssion(action: ReturnType<typeof payssionResultOpened>) {
  const { orderId, transactionId } = action.payload;
  if (!orderId) {
    logError('regional payment check', new Error('the return address carries no order_id'));
    yield put(payssionChecked(false));
    return;
  }
  const userId: number | null = yield select(selectUserId);
  if (userId === null) {
    // The check needs the buyer's login: log in, then come back here.
    yield put(returnUrlSet(window.location.pathname + window.location.search));
    yield call(navigate, pagePath.login(), { replace: true });
    return;
  }
  try {
    const paid: boolean = yield call(paymentApi.checkPayssionSession, orderId, transactionId);
    yield put(payssionChecked(paid));
  } catch (error) {
    // Spec section 8: a payment check failure is only logged; the result stays failure.
    logError('regional payment check failed', error);
    yield put(payssionChecked(false));
  }
}

function* payssionResultLifecycle(action: { type: string }) {
  if (action.type === payssionResultOpened.type) yield call(checkPayssion, action as ReturnType<typeof payssionResultOpened>);
}

/** Spec section 4: the process-payment call, then the buyer's panel. */
function* goToSubscriptions(action: ReturnType<typeof subscriptionsRequested>) {
  const userId: number | null = yield select(selectUserId);
  if (userId === null) {
    yield call(navigate, pagePath.login());
    return;
  }
  const { orderId } = action.payload;
  if (orderId !== null) {
    try {
      yield call(paymentApi.processPayment, orderId);
    } catch (error) {
      // Only logged: the panel shows the order as it stands either way.
      logError('payment processing failed', error);
    }
  }
  yield call(navigate, pagePath.user(userId));
}

export function* checkoutSaga() {
  yield takeLatest([paymentPageOpened.type, paymentPageClosed.type], paymentPageLifecycle);
  yield takeLatest([payssionResultOpened.type, payssionResultClosed.type], payssionResultLifecycle);
  yield takeLeading(subscriptionsRequested.type, goToSubscriptions);
}
