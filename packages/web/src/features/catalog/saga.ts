import { paymentPathOf, readPromoCode } from '@subshare/core/storefront';
import { call, delay, put, race, select, take, takeEvery, takeLatest } from 'redux-saga/effects';
import { ApiError, mainApi, platformApi, type CurrencyCode, type HomeResponse, type PlatformResponse } from '../../services/api';
import { DISPLAY_COOKIES, writeDisplayCookie } from '../../services/displayCookie';
import { logError } from '../../services/log';
import { currentUrlWithout, navigate } from '../../services/navigation';
import { STORAGE_KEYS, writeItem } from '../../services/storage';
import { waitForLanguage } from '../language/saga';
import type { LanguageId } from '../language/languages';
import { CAROUSEL_INTERVAL_MS, canRotate, type CarouselLogo } from './rules';
import { saveSelection, type Selection } from './selection';
import { selectCarouselLogos, selectHomeStatus, selectPlatformPage, selectRequestedCurrency, selectSelection } from './selectors';
import {
  carouselStarted,
  carouselStopped,
  carouselTicked,
  currencyChosen,
  homeFailed,
  homeLoaded,
  homeRequested,
  paymentRequested,
  platformFailed,
  platformLoaded,
  platformNotFound,
  platformPageOpened,
  platformPreloaded,
  platformPrefetchRequested,
  platformRefreshRequested,
  selectionChanged,
  type PlatformPageState,
} from './slice';

function* loadHome() {
  // On a first visit the language comes from the country lookup; the texts must match it.
  const languageId: LanguageId = yield call(waitForLanguage);
  const currency: CurrencyCode | undefined = yield select(selectRequestedCurrency);
  try {
    const response: HomeResponse = yield call(mainApi.getHome, languageId, currency);
    yield put(homeLoaded(response));
  } catch (error) {
    // Spec: a platform load failure is only logged; the page shows its empty state.
    logError('home catalog failed to load', error);
    yield put(homeFailed());
  }
}

/** Spec section 4: the platform in the current language; the answer's currencyCode becomes the currency. */
function* loadPlatform() {
  const page: PlatformPageState = yield select(selectPlatformPage);
  const id = page.id;
  if (id === null) return;
  const languageId: LanguageId = yield call(waitForLanguage);
  const currency: CurrencyCode | undefined = yield select(selectRequestedCurrency);
  try {
    const response: PlatformResponse = yield call(platformApi.getPlatform, id, languageId, currency);
    if (!response?.platform || response.platform.id !== id) throw new Error('getplatform answered another platform');
    yield put(platformLoaded(response));
  } catch (error) {
    // 404 unknown platform, 400 malformed id: the page says "not found". Anything else is only logged.
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
      yield put(platformNotFound());
      return;
    }
    logError(`platform ${id} failed to load`, error);
    yield put(platformFailed());
  }
}

function* openPlatformPage() {
  const page: PlatformPageState = yield select(selectPlatformPage);
  // The reducer decided: no request when the server sent the platform with the page.
  if (page.requestNeeded) yield call(loadPlatform);
}

/**
 * The currency switch: remembered (localStorage and the one-year display cookie), then the
 * catalog is asked again so the server answers in that currency. takeLatest drops an answer
 * still on its way in the old currency.
 */
function* switchCurrency(action: ReturnType<typeof currencyChosen>) {
  writeItem(STORAGE_KEYS.currency, action.payload);
  writeDisplayCookie(DISPLAY_COOKIES.currency, action.payload);
  // A `?currency=` in the address would bring the old one back on the next load.
  const without: string | null = yield call(currentUrlWithout, ['currency']);
  if (without !== null) yield call(navigate, without, { replace: true });
  const homeStatus: string = yield select(selectHomeStatus);
  if (homeStatus !== 'idle') yield put(homeRequested());
  const page: PlatformPageState = yield select(selectPlatformPage);
  if (page.id !== null && page.status !== 'notFound') yield put(platformRefreshRequested());
}

function* persistSelection() {
  const selection: Selection = yield select(selectSelection);
  yield call(saveSelection, selection);
}

/**
 * Go to payment (the platform form's submit, scripted): the choice is stored for the payment page
 * and named in its address, as the server's CHECKOUT_PATH names it for the unscripted form; the
 * page's guard sends a visitor who is not logged in or not verified to log in, with that address
 * as the return URL.
 */
function* goToPayment() {
  yield call(persistSelection);
  const selection: Selection = yield select(selectSelection);
  // A promotion code in the platform page's address (`?code=`, issue 37) goes on to the order.
  yield call(navigate, paymentPathOf(selection, readPromoCode(new URLSearchParams(window.location.search))));
}

function* rotate() {
  for (;;) {
    yield delay(CAROUSEL_INTERVAL_MS);
    const logos: CarouselLogo[] = yield select(selectCarouselLogos);
    if (canRotate(logos)) yield put(carouselTicked());
  }
}

/** Rotates while the home page is shown: it starts the carousel on mount and stops it on unmount. */
function* runCarousel() {
  yield race({ rotate: call(rotate), stop: take(carouselStopped.type) });
}

export function* catalogSaga() {
  // A stored currency renews its display cookie (the server pre-renders prices in it).
  const chosen: CurrencyCode | undefined = yield select(selectRequestedCurrency);
  if (chosen) writeDisplayCookie(DISPLAY_COOKIES.currency, chosen);
  yield takeLatest(homeRequested.type, loadHome);
  yield takeLatest([platformPageOpened.type, platformRefreshRequested.type], function* (action: { type: string }) {
    if (action.type === platformPageOpened.type) yield call(openPlatformPage);
    else yield call(loadPlatform);
  });
  yield takeLatest(platformPrefetchRequested.type, loadPlatform);
  yield takeLatest(currencyChosen.type, switchCurrency);
  yield takeEvery([platformLoaded.type, platformPreloaded.type, selectionChanged.type], persistSelection);
  yield takeEvery(paymentRequested.type, goToPayment);
  yield takeLatest(carouselStarted.type, runCarousel);
}
