import { call, put } from 'redux-saga/effects';
import { mainApi, type BusinessInfo } from '../../services/api';
import { logError } from '../../services/log';
import { businessLoaded } from './slice';

/** Every page shows the footer, so the details load once at start. */
export function* businessSaga() {
  try {
    const info: BusinessInfo = yield call(mainApi.getBusiness);
    yield put(businessLoaded(info));
  } catch (error) {
    // The footer simply omits the block.
    logError('business details failed to load', error);
  }
}
