import { combineReducers, configureStore } from '@reduxjs/toolkit';
import createSagaMiddleware from 'redux-saga';
import { authReducer, sessionExpired } from '../features/auth/slice';
import { businessReducer } from '../features/business/slice';
import { catalogReducer } from '../features/catalog/slice';
import { languageReducer } from '../features/language/slice';
import { requestFinished, requestStarted, shellReducer } from '../features/shell/slice';
import { configureApi } from '../services/api';
import { logError } from '../services/log';
import { rootSaga } from './rootSaga';

const rootReducer = combineReducers({
  shell: shellReducer,
  language: languageReducer,
  auth: authReducer,
  catalog: catalogReducer,
  business: businessReducer,
});

export type RootState = ReturnType<typeof rootReducer>;

export function createAppStore() {
  const sagaMiddleware = createSagaMiddleware({ onError: (error) => logError('saga', error) });
  const store = configureStore({
    reducer: rootReducer,
    // Side effects live in sagas; thunks are switched off so there is one way to do them.
    middleware: (getDefaultMiddleware) => getDefaultMiddleware({ thunk: false }).concat(sagaMiddleware),
  });

  // The API layer stays free of Redux: it only calls these hooks.
  configureApi({
    getToken: () => store.getState().auth.user?.token ?? null,
    onRequestStart: () => store.dispatch(requestStarted()),
    onRequestEnd: () => store.dispatch(requestFinished()),
    onUnauthorized: () => store.dispatch(sessionExpired()),
  });

  sagaMiddleware.run(rootSaga);
  return store;
}

export type AppStore = ReturnType<typeof createAppStore>;
export type AppDispatch = AppStore['dispatch'];
