/**
 * Start-up. A storefront page (home, platform, static and policy pages, not-found) arrives
 * rendered by the server from these same components (entry-server.tsx), with the state it was
 * rendered from in #ssr-state: the store starts from that state and React hydrates the markup
 * (hydrateRoot), so nothing is asked for again and the page is live as soon as this script has
 * run. Login, checkout, the panel and the admin area depend on the visitor: the server sends an
 * empty #root and they render here (createRoot).
 *
 * The session (localStorage) is the browser's own: the server rendered the page logged out, so
 * it joins once hydration has committed, and the navigation bar then shows the account links.
 */
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, createAppRouter } from './app/App';
import type { RootState } from './app/rootReducer';
import { createAppStore } from './app/store';
import { readUrlChoices } from './app/urlChoices';
import { loadReturnUrl, loadSession } from './features/auth/session';
import { loggedIn } from './features/auth/slice';
import { rememberLanguage } from './features/language/saga';
import { toLanguageId } from './features/language/languages';
import { logError } from './services/log';
import { STORAGE_KEYS, readItem } from './services/storage';
import { STATE_ELEMENT_ID } from './ssr/stateElement';

function readServerState(): Partial<RootState> | null {
  const text = document.getElementById(STATE_ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as Partial<RootState>;
  } catch (error) {
    logError('the server state is not JSON; rendering afresh', error);
    return null;
  }
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const serverState = container.firstElementChild ? readServerState() : null;
const urlChoices = readUrlChoices(window.location.search);

if (serverState) {
  const store = createAppStore({ urlChoices, preloadedState: { ...serverState, auth: { user: null, returnUrl: loadReturnUrl() } } });
  // A first visit: the server chose the language as the country lookup would; it is remembered as such.
  if (!toLanguageId(readItem(STORAGE_KEYS.language)) && serverState.language) rememberLanguage(serverState.language.languageId);
  const session = loadSession();
  const onHydrated = () => {
    // For tests and tools: the root has hydrated (lazy parts hydrate as their code arrives).
    document.documentElement.setAttribute('data-hydrated', '');
    if (session) store.dispatch(loggedIn(session));
  };
  const router = createAppRouter();
  // In a transition, hydration works in slices that yield to the browser (a phone stays
  // responsive); a click on a part not yet hydrated hydrates that part at once and is replayed.
  startTransition(() => {
    hydrateRoot(
      container,
      <StrictMode>
        <App store={store} router={router} onHydrated={onHydrated} />
      </StrictMode>,
      { onRecoverableError: (error) => logError('hydration', error) },
    );
  });
} else {
  const store = createAppStore({ urlChoices });
  createRoot(container).render(
    <StrictMode>
      <App store={store} router={createAppRouter()} onHydrated={() => document.documentElement.setAttribute('data-hydrated', '')} />
    </StrictMode>,
  );
}
