/**
 * A page the browser renders itself (login, checkout, the panel, the admin area: the server sends
 * no markup for them) shows nothing until the app has rendered it. What it needs is asked at once,
 * as soon as the store exists (main.tsx), beside React and the app's chunk: Chakra's chunk, the
 * page's chunk and its first data. Otherwise they are asked when the route renders (app/routes.tsx,
 * `alongside`), a few hundred milliseconds later. Access is checked as the route's guard checks it
 * (RequireAccess): a visitor about to be sent away gets none of it, and no admin code.
 *
 * A chunk of its own: it must not import the app's modules (the app's chunk would then have to
 * arrive before anything here is asked), so the page chunks are named by their import() here, the
 * same modules app/routes.tsx loads.
 */
import { selectIsLoggedIn, selectIsStaff } from '../features/auth/selectors';
import { prefetchAdmin } from '../features/admin/prefetch';
import { prefetchPanel } from '../features/panel/prefetch';
import type { RootState } from './rootReducer';

const ignore = () => undefined;

export function startPrivatePage(state: RootState, location: { pathname: string; search: string }): void {
  const { pathname } = location;
  if (/^\/user\//.test(pathname)) {
    if (!selectIsLoggedIn(state)) return;
    void import('../features/panel/pages/UserPanelPage').catch(ignore);
    prefetchPanel(state, location);
  } else if (/^\/jve(\/|$)/.test(pathname)) {
    if (!selectIsStaff(state)) return;
    void import('../features/admin/AdminArea').catch(ignore);
    prefetchAdmin(state, location);
  }
  // Every page the browser renders is built with Chakra.
  void import('./chakra/ChakraRoot').catch(ignore);
}
