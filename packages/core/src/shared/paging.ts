/**
 * Paging as the admin area pages (spec sections 4 and 9): pages start at 1, PAGE_SIZE_DEFAULT a
 * page unless asked otherwise, 1 to PAGE_SIZE_MAX a page (core's promises, which the web's pager reads too); `pages` is ceil(count / limit), 0 when there is nothing.
 * Every staff list validates its query with these rules, so they answer the same 400s.
 */
import * as yup from 'yup';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../promises/index.js';

export const PAGE_LIMIT_DEFAULT = PAGE_SIZE_DEFAULT;
export const PAGE_LIMIT_MAX = PAGE_SIZE_MAX;
/** Far beyond any real list; keeps `(page - 1) * limit` a safe integer for the database. */
const PAGE_MAX = 1_000_000;

const wholeNumber = (label: string) => yup.number().typeError(`${label} must be a number`).integer(`${label} must be a whole number`);

export const pageRule = () => wholeNumber('page').min(1, 'page must be 1 or more').max(PAGE_MAX, 'page is too large').default(1);
export const limitRule = () =>
  wholeNumber('limit').min(1, `limit must be 1 to ${PAGE_LIMIT_MAX}`).max(PAGE_LIMIT_MAX, `limit must be 1 to ${PAGE_LIMIT_MAX}`).default(PAGE_LIMIT_DEFAULT);

/** `{ page, limit }` with the defaults; extend it with a list's own filters. */
export const pagingSchema = () => yup.object({ page: pageRule(), limit: limitRule() });
/** `{ limit }` alone: the `*pages` calls. */
export const pageCountSchema = () => yup.object({ limit: limitRule() });

/** The spec's paged count response. */
export interface PageCount {
  pages: number;
  count: number;
}

export function pagesOf(count: number, limit: number): number {
  return Math.ceil(count / limit);
}

export function offsetOf(page: number, limit: number): number {
  return (page - 1) * limit;
}
