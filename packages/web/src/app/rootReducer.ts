/**
 * The root reducer. The storefront's slices are always present; features that load lazily
 * (the login steps) inject theirs when their chunk arrives, so their reducers never weigh on
 * the first download. A lazy feature's slice is listed in `LazyLoadedSlices`.
 */
import { combineSlices, type WithSlice } from '@reduxjs/toolkit';
import type { auditLogSlice } from '../features/admin/audit/slice';
import type { catalogEditorSlice } from '../features/admin/catalog/slice';
import type { accountHealthSlice } from '../features/admin/health/slice';
import type { outboxSlice } from '../features/admin/outbox/slice';
import type { adminSlice } from '../features/admin/slice';
import type { staffPageSlice } from '../features/admin/staff/slice';
import type { promosPageSlice } from '../features/admin/promos/slice';
import type { checkoutSlice } from '../features/checkout/slice';
import type { loginSlice } from '../features/login/slice';
import type { panelSlice } from '../features/panel/slice';
import { authReducer } from '../features/auth/slice';
import { businessReducer } from '../features/business/slice';
import { catalogReducer } from '../features/catalog/slice';
import { languageReducer } from '../features/language/slice';
import { shellReducer } from '../features/shell/slice';

/**
 * The lazy features' slices, listed once here for the store's type. Type imports only: the
 * slices' code stays in their chunks, which call `injectInto(rootReducer)` when they load.
 */
export type LazyLoadedSlices = WithSlice<typeof auditLogSlice> &
  WithSlice<typeof catalogEditorSlice> &
  WithSlice<typeof accountHealthSlice> &
  WithSlice<typeof outboxSlice> &
  WithSlice<typeof adminSlice> &
  WithSlice<typeof staffPageSlice> &
  WithSlice<typeof promosPageSlice> &
  WithSlice<typeof checkoutSlice> &
  WithSlice<typeof loginSlice> &
  WithSlice<typeof panelSlice>;

export const rootReducer = combineSlices({
  shell: shellReducer,
  language: languageReducer,
  auth: authReducer,
  catalog: catalogReducer,
  business: businessReducer,
}).withLazyLoadedSlices<LazyLoadedSlices>();

export type RootState = ReturnType<typeof rootReducer>;
