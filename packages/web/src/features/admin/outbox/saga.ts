/**
 * The outbox screen's flows (issue 15):
 *
 *   /jve/outbox, the status filter, Previous/Next, page size, Refresh ─► GET email/outbox ─► the page
 *   Preview ─► GET email/outbox/{id} (audited; a code masked by the server) ─► subject and text shown
 *   Retry (failed e-mails) ─► POST email/outbox/retry ─► snackbar (queued, or already waiting) ─► the page again
 *                                                   └ refused (sent, kept, no SMTP): its message in the snackbar
 */
import { call, put, select, takeEvery, takeLatest } from 'redux-saga/effects';
import * as staffApi from '../../../services/api/staffScreens';
import type { OutboxEmail, OutboxPage, OutboxRetry } from '../../../services/api/staffScreens';
import { logError } from '../../../services/log';
import type { LanguageId } from '../../language/languages';
import { selectLanguageId } from '../../language/selectors';
import { translate } from '../../language/texts';
import { showErrorSnackbar, showInfoSnackbar } from '../../shell/snackbarSagas';
import {
  outboxFailed,
  outboxFiltered,
  outboxLimitChosen,
  outboxLoaded,
  outboxOpened,
  outboxPageChosen,
  outboxRefreshed,
  previewFailed,
  previewLoaded,
  previewRequested,
  retryFinished,
  retryRequested,
  selectOutbox,
  type OutboxState,
} from './slice';
import { OUTBOX_TEXTS } from './texts';

function* loadOutbox() {
  const { filter, paging }: OutboxState = yield select(selectOutbox);
  try {
    const page: OutboxPage = yield call(staffApi.getOutbox, paging.page, paging.limit, filter || undefined);
    yield put(outboxLoaded({ rows: page.items, count: page.count, pages: page.pages }));
  } catch (error) {
    logError('outbox failed', error);
    yield put(outboxFailed());
  }
}

function* loadPreview(action: ReturnType<typeof previewRequested>) {
  try {
    const email: OutboxEmail = yield call(staffApi.getOutboxEmail, action.payload);
    yield put(previewLoaded(email));
  } catch (error) {
    logError(`outbox e-mail ${action.payload} failed`, error);
    yield put(previewFailed(action.payload));
  }
}

function* retry(action: ReturnType<typeof retryRequested>) {
  const id = action.payload;
  try {
    const answer: OutboxRetry = yield call(staffApi.retryOutboxEmail, id);
    const languageId: LanguageId = yield select(selectLanguageId);
    yield call(showInfoSnackbar, translate(OUTBOX_TEXTS, languageId, answer.queued ? 'outbox.retried' : 'outbox.alreadyWaiting', { id }));
    yield put(outboxRefreshed());
  } catch (error) {
    yield call(showErrorSnackbar, `retry of e-mail ${id} failed`, error);
  } finally {
    yield put(retryFinished(id));
  }
}

export function* outboxSaga() {
  yield takeLatest([outboxOpened.type, outboxFiltered.type, outboxPageChosen.type, outboxLimitChosen.type, outboxRefreshed.type], loadOutbox);
  yield takeLatest(previewRequested.type, loadPreview);
  yield takeEvery(retryRequested.type, retry);
}
