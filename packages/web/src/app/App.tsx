import { useEffect, type ReactNode } from 'react';
import type { Store } from '@reduxjs/toolkit';
import { Provider } from 'react-redux';
import { RouterProvider, createBrowserRouter } from 'react-router-dom';
import { DocumentLanguage } from '../features/language/components/DocumentLanguage';
import { setNavigator } from '../services/navigation';
import { routes } from './routes';
import type { AppStore } from './store';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

export function createAppRouter(): AppRouter {
  const router = createBrowserRouter(routes);
  // Sagas navigate (log-out → home) through this, without importing the router.
  setNavigator((to, options) => void router.navigate(to, options));
  return router;
}

/**
 * What surrounds the router on both sides of the one rendering (the server's static router in
 * entry-server.tsx, the browser's here): the same tree, so hydration (and useId) match.
 */
export function AppFrame({ store, onHydrated, children }: { store: Store; onHydrated?: () => void; children: ReactNode }) {
  return (
    <Provider store={store}>
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
  router: AppRouter;
  onHydrated?: () => void;
}

/** The store and the router around every page; Chakra joins only below the pages that use it (app/chakra). */
export function App({ store, router, onHydrated }: AppProps) {
  return (
    <AppFrame store={store} onHydrated={onHydrated}>
      <RouterProvider router={router} />
    </AppFrame>
  );
}
