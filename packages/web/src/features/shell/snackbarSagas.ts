/**
 * Snackbar helpers for feature sagas (spec section 8): a failure's own message from the
 * server in the visitor's language (by its code, see language/errors), or a translated
 * fallback when the body had none or the server was unreachable.
 */
import { call, put, select } from 'redux-saga/effects';
import { logError } from '../../services/log';
import { errorText, type ErrorTexts } from '../language/errors';
import type { LanguageId } from '../language/languages';
import { errorTextsOfLanguage } from '../language/saga';
import { selectLanguageId } from '../language/selectors';
import { snackbarShown } from './slice';

/** Logs the failure and shows it in the snackbar. */
export function* showErrorSnackbar(context: string, error: unknown) {
  logError(context, error);
  const languageId: LanguageId = yield select(selectLanguageId);
  const texts: ErrorTexts | null = yield call(errorTextsOfLanguage);
  yield put(snackbarShown(errorText(error, languageId, texts), 'error'));
}

export function* showInfoSnackbar(message: string) {
  yield put(snackbarShown(message, 'info'));
}
