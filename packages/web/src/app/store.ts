import { configureStore } from '@reduxjs/toolkit';
import createSagaMiddleware from 'redux-saga';
import { sessionExpired } from '../features/auth/slice';
import { requestFinished, requestStarted } from '../features/shell/slice';
import { configureApi } from '../services/api';
import { logError } from '../services/log';
import { rootReducer } from './rootReducer';
import { rootSaga, supervise } from './rootSaga';
import { setSagaRunner } from './sagaInjector';

export type { RootState } from './rootReducer';

export function createAppStore() {
  const sagaMiddleware = createSagaMiddleware({ onError: (error) => logError('saga', error) });
  const store = configureStore({
    reducer: rootReducer,
    // Side effects live in sagas; thunks are switched off so there is one way to do them.
    middleware: (getDefaultMiddleware) => getDefaultMiddleware({ thunk: false }).concat(sagaMiddleware),
    // Actions carry passwords and codes on their way to the sagas: no action log in production.
    devTools: import.meta.env.DEV,
  });

  // The API layer stays free of Redux: it only calls these hooks.
  configureApi({
    getToken: () => store.getState().auth.user?.token ?? null,
    onRequestStart: () => store.dispatch(requestStarted()),
    onRequestEnd: () => store.dispatch(requestFinished()),
    onUnauthorized: () => store.dispatch(sessionExpired()),
  });

  sagaMiddleware.run(rootSaga);
  // Lazily loaded features start their sagas under the same supervision as the others.
  setSagaRunner((saga) => sagaMiddleware.run(supervise, saga));
  return store;
}

export type AppStore = ReturnType<typeof createAppStore>;
export type AppDispatch = AppStore['dispatch'];
