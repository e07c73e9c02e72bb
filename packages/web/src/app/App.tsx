import { useEffect, type ReactNode } from 'react';
import type { Store } from '@reduxjs/toolkit';
import { Provider } from 'react-redux';
import { BrowserRouter, useNavigate, useRoutes } from 'react-router-dom';
import { DocumentLanguage } from '../features/language/components/DocumentLanguage';
import { setNavigator } from '../services/navigation';
import { routes } from './routes';
import type { AppStore, RootState } from './store';

/**
 * The routed pages, inside the server's StaticRouter (entry-server.tsx) or the browser's
 * BrowserRouter. The declarative router, not the data router (createBrowserRouter): the pages
 * have no loaders or actions, and the data router's code is about 18 KiB (gzip) more of the
 * first download. Scroll positions are kept by features/shell/ScrollManager.
 */
export function AppRoutes() {
  const navigateInApp = useNavigate();
  // Sagas navigate (log-out → home) through this, without importing the router. (A hook, not a
  // component beside the routes: the tree, and so useId, stays the same as on the server.)
  useEffect(() => {
    setNavigator((to, options) => void navigateInApp(to, options));
  }, [navigateInApp]);
  return useRoutes(routes);
}

interface AppFrameProps {
  store: Store;
  /**
   * In the browser, hydrating: the state the server rendered the page from. Parts hydrated after
   * the store has changed (the routed page hydrates after the root, and a tap on the live header
   * can change the currency in between) read this while they hydrate, so they match the server's
   * markup, and then re-render with the store's state (react-redux's `serverState`).
   */
  serverState?: unknown;
  onHydrated?: () => void;
  children: ReactNode;
}

/**
 * What surrounds the router on both sides of the one rendering (the server's static router in
 * entry-server.tsx, the browser's here): the same tree, so hydration (and useId) match.
 */
export function AppFrame({ store, serverState, onHydrated, children }: AppFrameProps) {
  return (
    <Provider store={store} serverState={serverState}>
      <DocumentLanguage />
      <Committed onCommit={onHydrated} />
      {children}
    </Provider>
  );
}

/** Calls `onCommit` once the first render has committed (after hydration: the page is live). */
function Committed({ onCommit }: { onCommit?: () => void }) {
  useEffect(() => onCommit?.(), [onCommit]);
  return null;
}

interface AppProps {
  store: AppStore;
  /** The state the server rendered the page from, when hydrating (see AppFrame). */
  serverState?: RootState;
  onHydrated?: () => void;
}

/** The store and the router around every page; Chakra joins only below the pages that use it (app/chakra). */
export function App({ store, serverState, onHydrated }: AppProps) {
  return (
    <AppFrame store={store} serverState={serverState} onHydrated={onHydrated}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppFrame>
  );
}
