/**
 * The admin lists' paging (spec sections 4 and 9): pages start at 1, 20 rows by default, sizes
 * 10/20/50/100; Previous is disabled on page 1, Next when the page is the last one or beyond;
 * choosing another size goes back to page 1.
 */
export const PAGE_SIZES = [10, 20, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 20;
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
