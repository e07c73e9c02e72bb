/**
 * The root reducer. The storefront's slices are always present; features that load lazily
 * (the login steps) inject theirs when their chunk arrives, so their reducers never weigh on
 * the first download. A lazy feature declares its slice by augmenting `LazyLoadedSlices`.
 */
import { combineSlices } from '@reduxjs/toolkit';
import { authReducer } from '../features/auth/slice';
import { businessReducer } from '../features/business/slice';
import { catalogReducer } from '../features/catalog/slice';
import { languageReducer } from '../features/language/slice';
import { shellReducer } from '../features/shell/slice';

// Filled in by lazy features through declaration merging (`declare module '…/rootReducer'`).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface LazyLoadedSlices {}

export const rootReducer = combineSlices({
  shell: shellReducer,
  language: languageReducer,
  auth: authReducer,
  catalog: catalogReducer,
  business: businessReducer,
}).withLazyLoadedSlices<LazyLoadedSlices>();

export type RootState = ReturnType<typeof rootReducer>;
