/**
 * The staff page's flows (issue 15):
 *
 *   /jve/staff ─► GET staff/list ─► the table; failure: logged, the page says so
 *   Save role / a row's button ─► POST staff/setrole (one at a time) ─ ok ─► snackbar, the list again
 *                                                 └ refused (409 last_admin, 404) ─► its message beside the form and in the snackbar
 */
import { call, put, select, takeLatest, takeLeading } from 'redux-saga/effects';
import * as staffApi from '../../../services/api/staffScreens';
import type { RoleChange, StaffMember } from '../../../services/api/staffScreens';
import { logError } from '../../../services/log';
import { errorText, type ErrorTexts } from '../../language/errors';
import type { LanguageId } from '../../language/languages';
import { errorTextsOfLanguage } from '../../language/saga';
import { selectLanguageId } from '../../language/selectors';
import { translate } from '../../language/texts';
import { showErrorSnackbar, showInfoSnackbar } from '../../shell/snackbarSagas';
import { roleChanged, roleChangeRefused, roleChangeRequested, staffFailed, staffLoaded, staffOpened } from './slice';
import { roleKey, STAFF_TEXTS } from './texts';

function* loadStaff() {
  try {
    const members: StaffMember[] = yield call(staffApi.getStaffList);
    yield put(staffLoaded(members));
  } catch (error) {
    logError('staff list failed', error);
    yield put(staffFailed());
  }
}

function* changeRole(action: ReturnType<typeof roleChangeRequested>) {
  const { email, role } = action.payload;
  const languageId: LanguageId = yield select(selectLanguageId);
  try {
    const change: RoleChange = yield call(staffApi.setRole, email, role);
    yield put(roleChanged());
    const vars = { email: change.email, role: translate(STAFF_TEXTS, languageId, roleKey(change.role)) };
    yield call(showInfoSnackbar, translate(STAFF_TEXTS, languageId, change.changed ? 'staff.changed' : 'staff.unchanged', vars));
    yield call(loadStaff);
  } catch (error) {
    const texts: ErrorTexts | null = yield call(errorTextsOfLanguage);
    yield put(roleChangeRefused(errorText(error, languageId, texts)));
    yield call(showErrorSnackbar, `role change of ${email} failed`, error);
  }
}

export function* staffPageSaga() {
  yield takeLatest(staffOpened.type, loadStaff);
  yield takeLeading(roleChangeRequested.type, changeRole);
}
