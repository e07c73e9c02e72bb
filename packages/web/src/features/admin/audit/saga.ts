/**
 * The audit log screen's flow (issue 15): opening it, a filter, Previous/Next, the page size or
 * Refresh ─► GET audit/log + audit/logpages with the filters ─► the page; failure: logged, the
 * screen says so. takeLatest: a newer request cancels the one on its way.
 */
import { all, call, put, select, takeLatest } from 'redux-saga/effects';
import * as staffApi from '../../../services/api/staffScreens';
import type { AuditEntry, AuditFilter, PagesCount } from '../../../services/api/staffScreens';
import { logError } from '../../../services/log';
import {
  auditFailed,
  auditFiltered,
  auditLimitChosen,
  auditLoaded,
  auditOpened,
  auditPageChosen,
  auditRefreshed,
  selectAuditLog,
  type AuditFilterForm,
  type AuditLogState,
} from './slice';

/** The form's filters as the server reads them: an actor of digits is a user id, anything else an e-mail. */
export function auditQueryOf(form: AuditFilterForm): AuditFilter {
  const actor = form.actor.trim();
  const filter: AuditFilter = {};
  if (/^\d{1,15}$/.test(actor)) filter.actorUserId = Number(actor);
  else if (actor) filter.actorEmail = actor.toLowerCase();
  if (form.action.trim()) filter.action = form.action.trim();
  if (form.targetType.trim()) filter.targetType = form.targetType.trim();
  if (form.targetId.trim()) filter.targetId = form.targetId.trim();
  return filter;
}

function* loadAudit() {
  const { filter, paging }: AuditLogState = yield select(selectAuditLog);
  const query = auditQueryOf(filter);
  try {
    const [rows, count]: [AuditEntry[], PagesCount] = yield all([
      call(staffApi.getAuditLog, query, paging.page, paging.limit),
      call(staffApi.getAuditPages, query, paging.limit),
    ]);
    yield put(auditLoaded({ rows, count: count.count, pages: count.pages }));
  } catch (error) {
    logError('audit log failed', error);
    yield put(auditFailed());
  }
}

export function* auditLogSaga() {
  yield takeLatest([auditOpened.type, auditFiltered.type, auditPageChosen.type, auditLimitChosen.type, auditRefreshed.type], loadAudit);
}
