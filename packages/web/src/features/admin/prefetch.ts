/**
 * The admin page's first data, asked when the route starts (app/routes.tsx: beside the admin
 * chunk and Chakra's) rather than once both have loaded and the page has mounted; the saga's
 * same requests take the answers (services/api/client.ts `prefetch`). Only what a page asks when
 * it opens: the dashboard, page 1 of an orders list or of the users, at the default size. Also
 * asked by app/startPrivatePage.ts as soon as the store exists. Both callers check access first
 * (the route renders only for staff). A chunk of its own, so it imports nothing but the API calls,
 * the paging rule and the page declarations (with the router's matchPath, already in the app).
 */
import { PAGES } from '@subshare/core/pages';
import { matchPath } from 'react-router-dom';
import type { RootState } from '../../app/rootReducer';
import * as adminApi from '../../services/api/admin';
import { prefetch } from '../../services/api/client';
import { DEFAULT_PAGE_SIZE, FIRST_PAGE } from './paging';

export function prefetchAdmin(state: RootState, location: { pathname: string; search: string }): void {
  const path = location.pathname.replace(/\/+$/, '');
  const orders = matchPath(PAGES.adminOrders.path, path)?.params.sid;
  const orderState = orders !== undefined && /^\d{1,2}$/.test(orders) ? Number(orders) : null;
  prefetch(() => {
    if (path === PAGES.admin.path && state.language.resolved) void adminApi.getDashboard(state.language.languageId);
    else if (path === PAGES.adminUsers.path) {
      void adminApi.getUsers(FIRST_PAGE, DEFAULT_PAGE_SIZE);
      void adminApi.getUsersPages(DEFAULT_PAGE_SIZE);
    } else if (orderState !== null && state.language.resolved && !new URLSearchParams(location.search).has('search')) {
      void adminApi.getOrdersByState(orderState, FIRST_PAGE, DEFAULT_PAGE_SIZE, state.language.languageId);
      void adminApi.getOrdersPages(orderState, DEFAULT_PAGE_SIZE);
    }
  });
}
