/**
 * The promotion codes page's flows (issue 37):
 *
 *   /jve/promos ─► GET promo/list ─► the table; failure: logged, the page says so
 *   Create / Save / a row's Deactivate or Activate ─► POST promo/create or promo/update (one at a time)
 *       ─ ok ─► snackbar, the list again   └ refused (409 promo_code_taken, 400) ─► its message beside the form and in the snackbar
 */
import { call, put, select, takeLatest, takeLeading } from 'redux-saga/effects';
import * as promoApi from '../../../services/api/promoScreens';
import type { PromoCode } from '../../../services/api/promoScreens';
import { logError } from '../../../services/log';
import { errorText, type ErrorTexts } from '../../language/errors';
import type { LanguageId } from '../../language/languages';
import { errorTextsOfLanguage } from '../../language/saga';
import { selectLanguageId } from '../../language/selectors';
import { translate } from '../../language/texts';
import { showErrorSnackbar, showInfoSnackbar } from '../../shell/snackbarSagas';
import { promoCreateRequested, promoRefused, promoSaved, promosFailed, promosLoaded, promosOpened, promoUpdateRequested } from './slice';
import { PROMO_TEXTS } from './texts';

function* loadPromos() {
  try {
    const codes: PromoCode[] = yield call(promoApi.listPromos);
    yield put(promosLoaded(codes));
  } catch (error) {
    logError('promotion codes list failed', error);
    yield put(promosFailed());
  }
}

function* save(action: ReturnType<typeof promoCreateRequested> | ReturnType<typeof promoUpdateRequested>) {
  const languageId: LanguageId = yield select(selectLanguageId);
  try {
    const creating = promoCreateRequested.match(action);
    const saved: PromoCode = creating ? yield call(promoApi.createPromo, action.payload) : yield call(promoApi.updatePromo, action.payload);
    yield put(promoSaved());
    const onlyActive = !creating && Object.keys(action.payload).every((key) => key === 'id' || key === 'active');
    const key = creating ? 'promos.created' : onlyActive ? (saved.active ? 'promos.activated' : 'promos.deactivated') : 'promos.saved';
    yield call(showInfoSnackbar, translate(PROMO_TEXTS, languageId, key, { code: saved.code }));
    yield call(loadPromos);
  } catch (error) {
    const texts: ErrorTexts | null = yield call(errorTextsOfLanguage);
    yield put(promoRefused(errorText(error, languageId, texts)));
    yield call(showErrorSnackbar, 'promotion code save failed', error);
  }
}

export function* promosPageSaga() {
  yield takeLatest(promosOpened.type, loadPromos);
  yield takeLeading([promoCreateRequested.type, promoUpdateRequested.type], save);
}
