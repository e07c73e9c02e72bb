import { call, put, select, take, takeEvery } from 'redux-saga/effects';
import { mainApi } from '../../services/api';
import { logError } from '../../services/log';
import { reloadPage } from '../../services/navigation';
import { STORAGE_KEYS, writeItem } from '../../services/storage';
import { DEFAULT_LANGUAGE_ID, toLanguageId, type LanguageId } from './languages';
import { selectLanguageId, selectLanguageResolved } from './selectors';
import { languageChosen, languageResolved } from './slice';

/** First visit: ask the server which language suits the visitor's country, and remember it. */
function* resolveFromCountry() {
  try {
    const answer: unknown = yield call(mainApi.getCountry);
    const languageId = toLanguageId(answer) ?? DEFAULT_LANGUAGE_ID;
    writeItem(STORAGE_KEYS.language, String(languageId));
    yield put(languageResolved(languageId));
  } catch (error) {
    // Not stored, so the next visit asks again; the visitor can still pick one by hand.
    logError('country lookup failed', error);
    yield put(languageResolved(DEFAULT_LANGUAGE_ID));
  }
}

function* storeChoiceAndReload(action: ReturnType<typeof languageChosen>) {
  writeItem(STORAGE_KEYS.language, String(action.payload));
  // A full reload refetches every text that comes from the server in the new language.
  yield call(reloadPage);
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
  if (!resolved) yield call(resolveFromCountry);
}
