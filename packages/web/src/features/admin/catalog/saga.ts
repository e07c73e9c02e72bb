/**
 * The catalog editor's flows (issue 15), started with the admin chunk:
 *
 *   /jve/catalog ─► GET catalog/platforms ─► the list; Show/Hide ─► POST catalog/setenabled (its version) ─► the list again
 *   /jve/catalog/{id} ─► GET catalog/platform ─► the form starts from it; 404: not found
 *   /jve/catalog/new ─► an empty form
 *   Save ─► POST catalog/createplatform ─► snackbar, /jve/catalog/{id}
 *        └► POST catalog/updateplatform (the version read) ─ ok ─► snackbar, the new version kept
 *                                                      └ 409 catalog_conflict ─► what changed shown; nothing overwritten:
 *                                                         "load theirs" (the saved platform replaces the form) or
 *                                                         "keep mine" (save again with the version saved now)
 *   Logo chosen (type and size checked in the page first) ─► POST catalog/uploadlogo ─► its URL in the form; a refusal shown
 *
 * Loads are only logged when they fail; what the admin does reports in the snackbar.
 */
import { pagePath } from '@subshare/core/pages';
import { call, put, select, takeEvery, takeLatest, takeLeading } from 'redux-saga/effects';
import { ApiError, isTemporaryFailure } from '../../../services/api';
import * as catalogApi from '../../../services/api/catalogAdmin';
import type { CatalogConflict, CatalogListItem, EditablePlatform, UploadAnswer } from '../../../services/api/catalogAdmin';
import { navigate } from '../../../services/navigation';
import { logError } from '../../../services/log';
import { errorText, type ErrorTexts } from '../../language/errors';
import type { LanguageId } from '../../language/languages';
import { errorTextsOfLanguage } from '../../language/saga';
import { selectLanguageId } from '../../language/selectors';
import { translate } from '../../language/texts';
import { showErrorSnackbar, showInfoSnackbar } from '../../shell/snackbarSagas';
import {
  catalogListFailed,
  catalogListLoaded,
  catalogListOpened,
  editorClosed,
  editorFailed,
  editorLoaded,
  editorOpened,
  editorReloadRequested,
  enabledToggleFinished,
  enabledToggleRequested,
  logoUploaded,
  logoUploadFailed,
  logoUploadRequested,
  saveConflicted,
  saveFailed,
  saveRequested,
  saveSucceeded,
  selectCatalogEditor,
  type CatalogEditorState,
} from './slice';
import { CATALOG_TEXTS, type CatalogTextKey } from './texts';

function* info(key: CatalogTextKey, vars?: Record<string, string | number>) {
  const languageId: LanguageId = yield select(selectLanguageId);
  yield call(showInfoSnackbar, translate(CATALOG_TEXTS, languageId, key, vars));
}

/** A name in the interface language (Korean when the admin reads Korean). */
function* nameOf(name: { en: string; ko: string }) {
  const languageId: LanguageId = yield select(selectLanguageId);
  return languageId === 2 ? name.ko || name.en : name.en;
}

const isConflict = (error: unknown): error is ApiError & { body: CatalogConflict } =>
  error instanceof ApiError &&
  error.status === 409 &&
  error.code === 'catalog_conflict' &&
  typeof (error.body as Partial<CatalogConflict>).current === 'object' &&
  Array.isArray((error.body as Partial<CatalogConflict>).fields);

function* loadList(action: { type: string }) {
  if (action.type !== catalogListOpened.type) return;
  try {
    const rows: CatalogListItem[] = yield call(catalogApi.getCatalogPlatforms);
    if (!Array.isArray(rows)) throw new Error('catalog/platforms answered no list');
    yield put(catalogListLoaded(rows));
  } catch (error) {
    logError('catalog list failed', error);
    yield put(catalogListFailed({ retryable: isTemporaryFailure(error) }));
  }
}

function* toggleEnabled(action: ReturnType<typeof enabledToggleRequested>) {
  const { id, isEnabled, version, name } = action.payload;
  try {
    yield call(catalogApi.setPlatformEnabled, { id, isEnabled, version });
    yield call(info, isEnabled ? 'catalog.shownNow' : 'catalog.hiddenNow', { name });
  } catch (error) {
    // A stale version (someone saved meanwhile) too: the list is read again below.
    yield call(showErrorSnackbar, `setenabled of platform ${id} failed`, error);
  } finally {
    yield put(enabledToggleFinished({ id }));
  }
  yield put(catalogListOpened());
}

function* loadPlatform(action: { type: string }) {
  if (action.type === editorClosed.type) return;
  const { id }: CatalogEditorState['editor'] = yield select(selectCatalogEditor);
  if (id === null) return;
  try {
    const platform: EditablePlatform = yield call(catalogApi.getCatalogPlatform, id);
    yield put(editorLoaded(platform));
  } catch (error) {
    logError(`catalog platform ${id} failed`, error);
    yield put(editorFailed({ status: error instanceof ApiError && error.status === 404 ? 'notFound' : 'failed', retryable: isTemporaryFailure(error) }));
  }
}

function* save(action: ReturnType<typeof saveRequested>) {
  const { platform }: CatalogEditorState['editor'] = yield select(selectCatalogEditor);
  const { body, overVersion } = action.payload;
  try {
    const saved: EditablePlatform = platform
      ? yield call(catalogApi.updatePlatform, { ...body, id: platform.id, version: overVersion ?? platform.version })
      : yield call(catalogApi.createPlatform, body);
    yield put(saveSucceeded(saved));
    const name: string = yield call(nameOf, saved.name);
    yield call(info, platform ? 'catalog.saved' : 'catalog.created', { name });
    if (!platform) navigate(pagePath.adminPlatform(saved.id), { replace: true });
  } catch (error) {
    if (isConflict(error)) {
      logError(`catalog save of platform ${platform?.id} met a newer version`, error);
      yield put(saveConflicted(error.body));
      return;
    }
    yield put(saveFailed());
    yield call(showErrorSnackbar, `catalog save failed`, error);
  }
}

function* upload(action: ReturnType<typeof logoUploadRequested>) {
  const { field, file } = action.payload;
  try {
    const answer: UploadAnswer = yield call(catalogApi.uploadLogo, file);
    if (typeof answer?.url !== 'string') throw new Error('uploadlogo answered no url');
    yield put(logoUploaded({ field, answer }));
  } catch (error) {
    logError(`logo upload failed`, error);
    const languageId: LanguageId = yield select(selectLanguageId);
    const texts: ErrorTexts | null = yield call(errorTextsOfLanguage);
    yield put(logoUploadFailed({ field, error: errorText(error, languageId, texts) }));
  }
}

export function* catalogEditorSaga() {
  yield takeLatest([catalogListOpened.type], loadList);
  yield takeEvery(enabledToggleRequested.type, toggleEnabled);
  yield takeLatest([editorOpened.type, editorReloadRequested.type, editorClosed.type], loadPlatform);
  yield takeLeading(saveRequested.type, save);
  yield takeEvery(logoUploadRequested.type, upload);
}
