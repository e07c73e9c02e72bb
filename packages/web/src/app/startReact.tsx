/**
 * The second step of start-up (main.tsx): React, the router and the pages. A page the server
 * rendered is hydrated in a transition (in slices that yield to the browser; a click on a part
 * not yet hydrated hydrates it at once and is replayed); the others render afresh.
 */
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { loadSession } from '../features/auth/session';
import { loggedIn } from '../features/auth/slice';
import { isCurrencyCode } from '../features/catalog/rules';
import { currencyChosen } from '../features/catalog/slice';
import { toLanguageId } from '../features/language/languages';
import { languageChosen } from '../features/language/slice';
import { DISPLAY_COOKIES, readDisplayCookie } from '../services/displayCookie';
import { STORAGE_KEYS, readItem, writeItem } from '../services/storage';
import { logError } from '../services/log';
import { App } from './App';
import { receiveEarlyChoices } from '../features/catalog/earlyChoice';
import type { EarlyChoices } from './earlyChoices';
import type { AppStore, RootState } from './store';

/** For tests and tools: the root has committed (lazy parts hydrate as their code arrives). */
const markCommitted = () => document.documentElement.setAttribute('data-hydrated', '');

/**
 * `renderedState` is the store's state as it started from the server's (before anything the
 * visitor or the app did since): the parts React hydrates late read it (see AppFrame).
 */
export function hydrate(container: HTMLElement, store: AppStore, renderedState: RootState, earlyChoices: EarlyChoices): void {
  const onHydrated = () => {
    markCommitted();
    // Read now, not when hydration began: a login that completed meanwhile is the session.
    const session = loadSession();
    if (session && !store.getState().auth.user) store.dispatch(loggedIn(session));
    // The server rendered by the display cookies. A cookie is the latest choice (the chooser
    // posts to the server without script): the app's copy follows it. Choices stored without a
    // cookie (cookies blocked or cleared) win now: the currency asks the catalog again, the
    // language reloads the page.
    const { catalog, language } = store.getState();
    const cookieCurrency = readDisplayCookie(DISPLAY_COOKIES.currency);
    const currency = isCurrencyCode(cookieCurrency) ? cookieCurrency : readItem(STORAGE_KEYS.currency);
    if (isCurrencyCode(cookieCurrency)) writeItem(STORAGE_KEYS.currency, cookieCurrency);
    if (isCurrencyCode(currency) && currency !== catalog.chosenCurrency) store.dispatch(currencyChosen(currency));
    const cookieLanguage = toLanguageId(readDisplayCookie(DISPLAY_COOKIES.language));
    if (cookieLanguage) writeItem(STORAGE_KEYS.language, String(cookieLanguage));
    const languageId = cookieLanguage ?? toLanguageId(readItem(STORAGE_KEYS.language));
    if (languageId && languageId !== language.languageId) store.dispatch(languageChosen(languageId));
  };
  earlyChoices.snapshotCheckedRadios(container);
  receiveEarlyChoices(earlyChoices);
  startTransition(() => {
    hydrateRoot(
      container,
      <StrictMode>
        <App store={store} serverState={renderedState} onHydrated={onHydrated} />
      </StrictMode>,
      { onRecoverableError: (error) => logError('hydration', error) },
    );
  });
}

export function render(container: HTMLElement, store: AppStore): void {
  createRoot(container).render(
    <StrictMode>
      <App store={store} onHydrated={markCommitted} />
    </StrictMode>,
  );
}
