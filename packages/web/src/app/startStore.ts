/**
 * The first step of start-up (main.tsx): the store and its sagas, from the state the server
 * rendered the page from when there is one. Its own chunk and its own task, before React's.
 */
import { pagePath } from '@subshare/core/pages';
import { RETURN_URL_PARAM } from '@subshare/core/storefront';
import { loadReturnUrl, safeReturnUrl, saveReturnUrl } from '../features/auth/session';
import { toLanguageId } from '../features/language/languages';
import { rememberLanguage } from '../features/language/saga';
import { STORAGE_KEYS, readItem } from '../services/storage';
import type { RootState } from './rootReducer';
import { createAppStore, type AppStore } from './store';
import { readUrlChoices } from './urlChoices';

/**
 * The server sends a visitor who must log in to `/login?returnUrl=…` (the platform page's "Go to
 * payment" submitted before or without script, server's /checkout): the return URL is kept as if
 * the app had stored it.
 */
function keepReturnUrlOfAddress(): void {
  if (window.location.pathname !== pagePath.login()) return;
  const url = new URLSearchParams(window.location.search).get(RETURN_URL_PARAM);
  if (url) saveReturnUrl(safeReturnUrl(url));
}

export function startStore(serverState: Partial<RootState> | null): AppStore {
  const urlChoices = readUrlChoices(window.location.search);
  keepReturnUrlOfAddress();
  if (!serverState) return createAppStore({ urlChoices });
  // A first visit: the server chose the language as the country lookup would; it is remembered as such.
  if (!toLanguageId(readItem(STORAGE_KEYS.language)) && serverState.language) rememberLanguage(serverState.language.languageId);
  // The server rendered the page logged out: the session joins after hydration (startReact.tsx).
  return createAppStore({ urlChoices, preloadedState: { ...serverState, auth: { user: null, returnUrl: loadReturnUrl() } } });
}
