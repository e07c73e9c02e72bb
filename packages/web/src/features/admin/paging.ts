/**
 * The admin lists' paging (spec sections 4 and 9): pages start at 1, the sizes and the default
 * are core's promises (the server's paging reads them too); Previous is disabled on page 1, Next when the page is the last one or beyond;
 * choosing another size goes back to page 1.
 */
import type { CaseReducer, Draft, PayloadAction } from '@reduxjs/toolkit';
import { PAGE_SIZE_DEFAULT, PAGE_SIZES, type PageSize } from '@subshare/core/promises';

export { PAGE_SIZES, type PageSize };
export const DEFAULT_PAGE_SIZE: PageSize = PAGE_SIZE_DEFAULT;
export const FIRST_PAGE = 1;

export interface Paging {
  page: number;
  limit: number;
  /** The server's page count for this limit (0 while unknown or when the list is empty). */
  pages: number;
  /** Rows in the whole list. */
  count: number;
}

export const initialPaging = (): Paging => ({ page: FIRST_PAGE, limit: DEFAULT_PAGE_SIZE, pages: 0, count: 0 });

export const isPageSize = (value: unknown): value is PageSize => PAGE_SIZES.includes(value as PageSize);

export const canGoBack = (paging: Paging): boolean => paging.page > FIRST_PAGE;

export const canGoForward = (paging: Paging): boolean => paging.page < paging.pages;

/** The number shown in the # column: counted across pages. */
export const rowNumber = (paging: Paging, index: number): number => (paging.page - 1) * paging.limit + index + 1;

/** The pages a count fills at a limit (after a row left the list). */
export const pagesFor = (count: number, limit: number): number => (count <= 0 ? 0 : Math.ceil(count / limit));

/** loading: asked (rows already shown stay until the answer); failed: only logged (spec section 8), the page says so. */
export type LoadStatus = 'idle' | 'loading' | 'loaded' | 'failed';

/** What every admin list holds; `search`, where a list has one, replaces the paged rows (spec section 4). */
export interface PagedList<Row> {
  paging: Paging;
  rows: Row[];
  status: LoadStatus;
  search?: unknown;
}

/** One page of a list as the server answered it. */
export interface PageLoaded<Row> {
  rows: Row[];
  count: number;
  pages: number;
}

/** The reducers every paged list has, named after the list: `ordersPageChosen`, `auditLoaded`, … */
export type PagedListReducers<Name extends string, State, Row> = Record<`${Name}PageChosen` | `${Name}LimitChosen`, CaseReducer<State, PayloadAction<number>>> &
  Record<`${Name}Refreshed` | `${Name}Failed`, CaseReducer<State>> &
  Record<`${Name}Loaded`, CaseReducer<State, PayloadAction<PageLoaded<Row>>>>;

/**
 * The paging rules of every admin list, once: a page number below 1 or not whole, or a size not
 * offered, changes nothing; another size goes back to page 1; Refresh asks the current page again;
 * each of these leaves a search for the paged list. Spread into a slice's reducers, beside the
 * list's own (opening, filters, row actions); `list` finds the list in the slice's state.
 */
export function pagedListReducers<Name extends string, State, Row>(
  name: Name,
  list: (state: Draft<State>) => PagedList<Draft<Row>>,
): PagedListReducers<Name, State, Row> {
  const ask = (target: PagedList<Draft<Row>>, page: number) => {
    if (!Number.isInteger(page) || page < FIRST_PAGE) return;
    target.paging.page = page;
    if (target.search !== undefined) target.search = null;
    target.status = 'loading';
  };
  const reducers: Record<string, CaseReducer<State, PayloadAction<never>>> = {
    [`${name}PageChosen`]: (state: Draft<State>, action: PayloadAction<number>) => ask(list(state), action.payload),
    [`${name}LimitChosen`]: (state: Draft<State>, action: PayloadAction<number>) => {
      if (!isPageSize(action.payload)) return;
      list(state).paging.limit = action.payload;
      ask(list(state), FIRST_PAGE);
    },
    [`${name}Refreshed`]: (state: Draft<State>) => ask(list(state), list(state).paging.page),
    [`${name}Loaded`]: (state: Draft<State>, action: PayloadAction<PageLoaded<Row>>) => {
      const target = list(state);
      target.rows = action.payload.rows as Draft<Row>[];
      target.paging.count = action.payload.count;
      target.paging.pages = action.payload.pages;
      target.status = 'loaded';
    },
    [`${name}Failed`]: (state: Draft<State>) => {
      const target = list(state);
      target.status = 'failed';
      target.rows = [];
    },
  };
  return reducers as unknown as PagedListReducers<Name, State, Row>;
}
