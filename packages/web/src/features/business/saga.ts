import { call, put, select } from 'redux-saga/effects';
import { mainApi, type BusinessInfo } from '../../services/api';
import { logError } from '../../services/log';
import { selectBusiness } from './selectors';
import { businessLoaded } from './slice';

/** Every page shows the footer, so the details load once at start, unless the page came with them (server rendering). */
export function* businessSaga() {
  const known: BusinessInfo | null = yield select(selectBusiness);
  if (known) return;
  try {
    const info: BusinessInfo = yield call(mainApi.getBusiness);
    yield put(businessLoaded(info));
  } catch (error) {
    // The footer simply omits the block.
    logError('business details failed to load', error);
  }
}
