/**
 * The one generic typed client: every call of the API by its operationId, typed from its
 * declaration in `@subshare/core/wire` (input from its schemas, answer from its answer schema),
 * with method, path and token from the generated route table (routes.generated.ts, so the
 * bundle carries no schemas). No API path and no answer type is written in packages/web:
 * `callApi('getOrder', { query: { id } })` answers `orders.OrderAnswer`.
 */
import type { AnswerOf, BodyOf, Declaration, ParamsOf, QueryOf, calls } from '@subshare/core/wire';
import { apiDownload, apiGet, apiPost, apiUpload, type DownloadedFile, type QueryParams, type RequestOptions } from './client';
import { ROUTES } from './routes.generated';

type Areas = typeof calls;
type Merge<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void ? I : never;
/** Every declaration the browser calls (not the providers' notifications, not the pages), by operationId. */
type OnlyCalls<T> = { [K in keyof T as T[K] extends Declaration ? (T[K] extends { access: 'provider' } ? never : K) : never]: T[K] };
export type WebCalls = OnlyCalls<Merge<Areas[Exclude<keyof Areas, 'pages' | 'DECLARATIONS'>]>>;
export type OperationId = keyof WebCalls;

type Empty = Record<string, never>;
type Part<T, K extends string> = [T] extends [never] ? object : T extends Empty ? { [P in K]?: undefined } : { [P in K]: T };
/** What a call takes: `query`, `body` and `params` as its declaration's schemas read them (before defaults). */
export type CallInput<K extends OperationId> = Part<QueryOf<WebCalls[K]>, 'query'> & Part<BodyOf<WebCalls[K]>, 'body'> & Part<ParamsOf<WebCalls[K]>, 'params'>;
export type CallAnswer<K extends OperationId> = AnswerOf<WebCalls[K]>;

/** The path with its `:name` parameters filled in. */
function pathOf(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:(\w+)/g, (_whole, name: string) => encodeURIComponent(String(params?.[name] ?? '')));
}

const withToken = (auth: boolean, options: RequestOptions | undefined): RequestOptions => ({ ...options, auth: auth || options?.auth });

/** Calls `operationId` with `input`; its answer, typed by the declaration. */
export function callApi<K extends OperationId>(operationId: K, input: CallInput<K>, options?: RequestOptions): Promise<CallAnswer<K>> {
  const route = ROUTES[operationId];
  const { query, body, params } = input as { query?: QueryParams; body?: unknown; params?: Record<string, unknown> };
  const path = pathOf(route.path, params);
  return route.method === 'GET'
    ? apiGet<CallAnswer<K>>(path, query, withToken(route.auth, options))
    : apiPost<CallAnswer<K>>(path, body, withToken(route.auth, options));
}

/** A call that answers a file (the CSV export): its body and name. */
export function downloadApi<K extends OperationId>(operationId: K, input: CallInput<K>, options?: Omit<RequestOptions, 'auth'>): Promise<DownloadedFile> {
  const { query } = input as { query?: QueryParams };
  return apiDownload(ROUTES[operationId].path, query, options);
}

/** A call whose body is a file (the logo upload). */
export function uploadApi<K extends OperationId>(operationId: K, file: Blob, options?: RequestOptions): Promise<CallAnswer<K>> {
  const route = ROUTES[operationId];
  return apiUpload<CallAnswer<K>>(route.path, file, undefined, withToken(route.auth, options));
}
