import { configureStore, type UnknownAction } from '@reduxjs/toolkit';
import createSagaMiddleware from 'redux-saga';
import { sessionExpired } from '../features/auth/slice';
import { currencyChosen } from '../features/catalog/slice';
import { rememberLanguage } from '../features/language/saga';
import { languageResolved } from '../features/language/slice';
import { requestFinished, requestStarted } from '../features/shell/slice';
import { configureApi } from '../services/api';
import { DISPLAY_COOKIES, writeDisplayCookie } from '../services/displayCookie';
import { logError } from '../services/log';
import { STORAGE_KEYS, writeItem } from '../services/storage';
import { rootReducer, type RootState } from './rootReducer';
import { rootSaga, supervise } from './rootSaga';
import { setSagaRunner } from './sagaInjector';
import type { UrlChoices } from './urlChoices';

export type { RootState } from './rootReducer';

export interface StartOptions {
  /** `?lang` and `?currency` of the address the app was opened with. */
  urlChoices?: UrlChoices;
  /**
   * The state the server rendered the page from (entry-server.tsx): the browser starts from it,
   * so hydration renders the same markup and nothing the page holds is asked for again.
   */
  preloadedState?: Partial<RootState>;
}

export function createAppStore({ urlChoices = {}, preloadedState }: StartOptions = {}) {
  const sagaMiddleware = createSagaMiddleware({ onError: (error) => logError('saga', error) });
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
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

  // Before the sagas start: they read the language and currency as they begin.
  applyUrlChoices(store, urlChoices);

  sagaMiddleware.run(rootSaga);
  // Lazily loaded features start their sagas under the same supervision as the others.
  setSagaRunner((saga) => sagaMiddleware.run(supervise, saga));
  return store;
}

/** `?lang` / `?currency` of the address: chosen (and stored) as if picked in the dialog or the switch. */
function applyUrlChoices(store: StoreLike, choices: UrlChoices): void {
  if (choices.languageId) {
    rememberLanguage(choices.languageId);
    store.dispatch(languageResolved(choices.languageId));
  }
  if (choices.currency) {
    writeItem(STORAGE_KEYS.currency, choices.currency);
    writeDisplayCookie(DISPLAY_COOKIES.currency, choices.currency);
    store.dispatch(currencyChosen(choices.currency));
  }
}

type StoreLike = { getState(): RootState; dispatch(action: UnknownAction): unknown };

export type AppStore = ReturnType<typeof createAppStore>;
export type AppDispatch = AppStore['dispatch'];
