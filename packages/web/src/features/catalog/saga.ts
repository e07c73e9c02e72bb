import { call, delay, put, race, select, take, takeLatest } from 'redux-saga/effects';
import { mainApi, type HomeResponse } from '../../services/api';
import { logError } from '../../services/log';
import { waitForLanguage } from '../language/saga';
import type { LanguageId } from '../language/languages';
import { CAROUSEL_INTERVAL_MS, canRotate, type CarouselLogo } from './rules';
import { selectCarouselLogos } from './selectors';
import { carouselStarted, carouselStopped, carouselTicked, homeFailed, homeLoaded, homeRequested } from './slice';

function* loadHome() {
  // On a first visit the language comes from the country lookup; the texts must match it.
  const languageId: LanguageId = yield call(waitForLanguage);
  try {
    const response: HomeResponse = yield call(mainApi.getHome, languageId);
    yield put(homeLoaded(response));
  } catch (error) {
    // Spec: a platform load failure is only logged; the page shows its empty state.
    logError('home catalog failed to load', error);
    yield put(homeFailed());
  }
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
  yield takeLatest(homeRequested.type, loadHome);
  yield takeLatest(carouselStarted.type, runCarousel);
}
