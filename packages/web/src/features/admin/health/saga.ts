/**
 * The account-health screen's flow (issue 29): opening it ─► GET accounthealth ─► the list;
 * "Set ok", "Mark broken" (after its confirmation) or "Give time back" ─► its POST ─► the outcome, then the list again. takeLatest for
 * loads (a newer one cancels the one on its way); each action runs to its end.
 */
import { call, put, select, takeEvery, takeLatest } from 'redux-saga/effects';
import type { PayloadAction } from '@reduxjs/toolkit';
import { ApiError } from '../../../services/api';
import * as staffApi from '../../../services/api/staffScreens';
import type { AccountHealth } from '../../../services/api/staffScreens';
import { logError } from '../../../services/log';
import type { LanguageId } from '../../language/languages';
import { selectLanguageId } from '../../language/selectors';
import { healthActed, healthActionDone, healthFailed, healthLoaded, healthOpened, type HealthAction } from './slice';

function* load() {
  try {
    // Platform names in the interface language (a Korean admin reads the Korean names).
    const languageId: LanguageId = yield select(selectLanguageId);
    const rows: AccountHealth[] = yield call(staffApi.getAccountHealth, languageId);
    yield put(healthLoaded(rows));
  } catch (error) {
    logError('account health failed', error);
    yield put(healthFailed());
  }
}

function* act({ payload }: PayloadAction<HealthAction>) {
  let outcome = 'done';
  try {
    if (payload.kind === 'setOk') yield call(staffApi.setAccountHealth, payload.accountId, 'ok', payload.reason ?? '');
    else if (payload.kind === 'confirmReport') yield call(staffApi.confirmReport, payload.reportId ?? 0);
    else if (payload.kind === 'setBroken') yield call(staffApi.setAccountHealth, payload.accountId, 'broken', payload.reason ?? '');
    else yield call(staffApi.extendLostTime, payload.accountId);
  } catch (error) {
    outcome = (error instanceof ApiError ? error.code : undefined) ?? 'failed';
  }
  yield put(healthActionDone({ accountId: payload.accountId, kind: payload.kind, outcome }));
}

export function* accountHealthSaga() {
  yield takeLatest([healthOpened.type, healthActionDone.type], load);
  yield takeEvery(healthActed.type, act);
}
