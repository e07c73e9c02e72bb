import { call, put, select, take, takeEvery } from 'redux-saga/effects';
import { mainApi } from '../../services/api';
import { DISPLAY_COOKIES, writeDisplayCookie } from '../../services/displayCookie';
import { logError } from '../../services/log';
import { reloadPage } from '../../services/navigation';
import { STORAGE_KEYS, writeItem } from '../../services/storage';
import { loadErrorTexts, type ErrorTexts } from './errors';
import { DEFAULT_LANGUAGE_ID, toLanguageId, type LanguageId } from './languages';
import { selectLanguageId, selectLanguageResolved } from './selectors';
import { languageChosen, languageResolved } from './slice';

/** First visit: ask the server which language suits the visitor's country, and remember it. */
function* resolveFromCountry() {
  try {
    const answer: unknown = yield call(mainApi.getCountry);
    const languageId = toLanguageId(answer) ?? DEFAULT_LANGUAGE_ID;
    rememberLanguage(languageId);
    yield put(languageResolved(languageId));
  } catch (error) {
    // Not stored, so the next visit asks again; the visitor can still pick one by hand.
    logError('country lookup failed', error);
    yield put(languageResolved(DEFAULT_LANGUAGE_ID));
  }
}

/** localStorage for the app, and the one-year display cookie for the server's pre-rendering. */
export function rememberLanguage(languageId: LanguageId): void {
  writeItem(STORAGE_KEYS.language, String(languageId));
  writeDisplayCookie(DISPLAY_COOKIES.language, String(languageId));
}

function* storeChoiceAndReload(action: ReturnType<typeof languageChosen>) {
  rememberLanguage(action.payload);
  // A full reload refetches every text that comes from the server in the new language; a
  // `?lang=` in the address would override the choice, so it goes.
  yield call(reloadPage, ['lang']);
}

/** Blocks until the language is known, then returns it. For sagas whose calls take languageId. */
export function* waitForLanguage() {
  const resolved: boolean = yield select(selectLanguageResolved);
  if (!resolved) yield take(languageResolved.type);
  const languageId: LanguageId = yield select(selectLanguageId);
  return languageId;
}

export function* languageSaga() {
  yield takeEvery(languageChosen.type, storeChoiceAndReload);
  const resolved: boolean = yield select(selectLanguageResolved);
  if (!resolved) {
    yield call(resolveFromCountry);
    return;
  }
  // A stored choice renews its cookie, so the server keeps pre-rendering in that language.
  const languageId: LanguageId = yield select(selectLanguageId);
  writeDisplayCookie(DISPLAY_COOKIES.language, String(languageId));
}

/** The Korean texts of the server's error codes when the visitor reads Korean (a small chunk, loaded at the first error). */
export function* errorTextsOfLanguage() {
  const languageId: LanguageId = yield select(selectLanguageId);
  try {
    const texts: ErrorTexts | null = yield call(loadErrorTexts, languageId);
    return texts;
  } catch (error) {
    logError('error texts not loaded', error);
    return null; // the server's English message is still right
  }
}
