/**
 * Snackbar helpers for feature sagas (spec section 8): a failure's own message from the
 * server, or a translated fallback when the body had none or the server was unreachable.
 */
import { put, select } from 'redux-saga/effects';
import { ApiError } from '../../services/api';
import { logError } from '../../services/log';
import { translate, type Dictionary } from '../language/dictionary';
import { selectDictionary } from '../language/selectors';
import { snackbarShown } from './slice';

/** What the visitor reads for a failed call. */
export function errorMessage(error: unknown, dictionary: Dictionary): string {
  if (error instanceof ApiError) {
    if (error.serverMessage) return error.serverMessage;
    if (error.status === 0) return translate(dictionary, 'errors.network');
  }
  return translate(dictionary, 'errors.generic');
}

/** Logs the failure and shows it in the snackbar. */
export function* showErrorSnackbar(context: string, error: unknown) {
  logError(context, error);
  const dictionary: Dictionary = yield select(selectDictionary);
  yield put(snackbarShown(errorMessage(error, dictionary), 'error'));
}

export function* showInfoSnackbar(message: string) {
  yield put(snackbarShown(message, 'info'));
}
