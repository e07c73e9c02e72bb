/**
 * Before the first render of a pre-rendered page: the data the page needs is asked for while
 * the server's markup stays on screen, so React's first render (which replaces that markup)
 * already shows the real page instead of an empty one behind the loading overlay. Bounded by
 * a timeout: a slow API never holds the app back for long.
 */
import { parsePlatformId } from '../features/catalog/platformId';
import { homeRequested, platformPrefetchRequested } from '../features/catalog/slice';
import type { AppStore, RootState } from './store';

export const PREFETCH_TIMEOUT_MS = 2500;

function waitFor(store: AppStore, done: (state: RootState) => boolean, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (done(store.getState())) return resolve();
    const timer = window.setTimeout(finish, timeoutMs);
    const unsubscribe = store.subscribe(() => {
      if (done(store.getState())) finish();
    });
    function finish() {
      window.clearTimeout(timer);
      unsubscribe();
      resolve();
    }
  });
}

/**
 * Starts loading the data of the storefront page at `pathname`; resolves when it is there and
 * no other request is under way either (the business details, a country lookup), so the
 * loading overlay has nothing to show at the first render. Or after the timeout.
 */
export function prefetchRouteData(store: AppStore, pathname: string, timeoutMs = PREFETCH_TIMEOUT_MS): Promise<void> {
  const idle = (state: RootState) => state.shell.pendingRequests === 0;
  // Matched by hand: the router (and React with it) is not loaded yet.
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (path === '/') {
    if (store.getState().catalog.homeStatus === 'idle') store.dispatch(homeRequested());
    return waitFor(store, (state) => idle(state) && state.catalog.homeStatus !== 'loading', timeoutMs);
  }
  const platform = /^\/platform\/([^/]+)$/i.exec(path);
  const id = platform ? parsePlatformId(platform[1]) : null;
  if (id !== null) {
    const { page } = store.getState().catalog;
    if (!(page.reuse && page.id === id)) store.dispatch(platformPrefetchRequested(id));
    return waitFor(store, (state) => idle(state) && (state.catalog.page.id !== id || state.catalog.page.status !== 'loading'), timeoutMs);
  }
  return waitFor(store, idle, timeoutMs);
}
