import { call, spawn } from 'redux-saga/effects';
import { logError } from '../services/log';
import { authSaga } from '../features/auth/saga';
import { businessSaga } from '../features/business/saga';
import { catalogSaga } from '../features/catalog/saga';
import { languageSaga } from '../features/language/saga';
import { shellSaga } from '../features/shell/saga';
import type { Saga } from './sagaInjector';

const featureSagas: Saga[] = [shellSaga, languageSaga, authSaga, catalogSaga, businessSaga];

// A saga that keeps crashing is given up on rather than restarted in a tight loop.
const MAX_RESTARTS = 3;

/**
 * Runs one feature's root saga, restarting it after an uncaught error. Spawned (detached),
 * so a failure in one feature never cancels the others.
 */
export function* supervise(saga: Saga) {
  for (let restarts = 0; ; restarts++) {
    try {
      yield call(saga);
      return;
    } catch (error) {
      logError(`saga ${saga.name} failed${restarts < MAX_RESTARTS ? ', restarting' : ', giving up'}`, error);
      if (restarts >= MAX_RESTARTS) return;
    }
  }
}

export function* rootSaga() {
  for (const saga of featureSagas) {
    yield spawn(supervise, saga);
  }
}
