/**
 * The only place that talks HTTP. It knows nothing about Redux: the store plugs in a token
 * source and request listeners through configureApi(), which keeps this layer testable and
 * lets the loading overlay count in-flight requests without every saga remembering to.
 */
import type { HttpErrorCode } from '@subshare/core/wire/errors';
import type { ApiErrorBody } from './types.js';

/**
 * The code of a call that got no answer at all (status 0). The browser's own, so not in the
 * server's dictionary (wire/errors.ts): the one code the web adds to it.
 */
export const NETWORK_ERROR = 'network_error';

/** What `ApiError.code` can be: a code of the server's dictionary, or the browser's NETWORK_ERROR. */
export type ApiErrorCode = HttpErrorCode | typeof NETWORK_ERROR;

export class ApiError extends Error {
  readonly status: number;
  /**
   * Typed by the dictionary, so a comparison with a code that does not exist does not compile.
   * The server answers only its dictionary's codes (the HTTP error handler); a newer server's
   * new code is still a string at runtime and simply matches no comparison here.
   */
  readonly code: ApiErrorCode | undefined;
  readonly errors: Record<string, string>;
  /** The values the server filled into its message (`{ triesLeft: 4 }`), for a translation to say them too. */
  readonly params: Readonly<Record<string, string | number>> | undefined;
  /** The server's own `message`, meant for the visitor; undefined when the body had none. */
  readonly serverMessage: string | undefined;
  /** The whole error body, for answers that carry more than `{ message, code, errors }` (the catalog editor's 409). */
  readonly body: ApiErrorBody;

  constructor(status: number, body: ApiErrorBody, fallbackMessage: string) {
    super(body.message || fallbackMessage);
    this.name = 'ApiError';
    this.status = status;
    this.code = body.code as ApiErrorCode | undefined;
    this.errors = body.errors ?? {};
    this.params = body.params;
    this.serverMessage = typeof body.message === 'string' && body.message.trim() ? body.message : undefined;
    this.body = body;
  }

  /** No answer: the network failed or the server could not be reached. */
  static unreachable(): ApiError {
    return new ApiError(0, { code: NETWORK_ERROR }, 'The server could not be reached.');
  }
}

/**
 * Whether trying again may help: no answer at all (the network, a broken answer) or a 5xx (503
 * while the database is away). A 4xx answer says the request itself is refused, and the same
 * request is refused again: the page offers a way on instead of "Try again".
 */
export function isTemporaryFailure(error: unknown): boolean {
  // Status 0: `send` found the server unreachable (no answer at all).
  return !(error instanceof ApiError) || error.status === 0 || error.status >= 500;
}

export interface ApiHooks {
  getToken?: () => string | null;
  onRequestStart?: () => void;
  onRequestEnd?: () => void;
  /** Called when the current token is answered 401 (expired or revoked). */
  onUnauthorized?: () => void;
}

export interface RequestOptions {
  /** Send the stored bearer token (the spec's "auth" calls). */
  auth?: boolean;
  /** Send this token instead of the stored one (log-out revokes the token it is about to forget). */
  token?: string;
  /** Do not raise the loading overlay (background polling, log-out). */
  silent?: boolean;
  /** Let the request outlive the page (log-out followed by closing the tab). */
  keepalive?: boolean;
  signal?: AbortSignal;
}

export type QueryParams = Record<string, string | number | boolean | null | undefined>;

let hooks: ApiHooks = {};

export function configureApi(next: ApiHooks): void {
  hooks = next;
}

/**
 * GETs asked ahead: a page whose code is still on its way (the panel, the admin area: see
 * app/routes.tsx) asks its first data at once, beside its chunks, instead of after them, by
 * running its own API calls inside `prefetch`. Its saga's same GET, made soon after, takes that
 * answer instead of asking again: once, within PREFETCH_MS, with the same token (so never another
 * session's answer). One nobody takes is ignored once PREFETCH_MS have passed. Within that time a
 * second prefetch of the same GET asks nothing.
 */
// Long enough for a slow phone (or a busy machine) to get from the start to the page's own
// request: the panel and the admin area are prefetched as soon as the store exists.
const PREFETCH_MS = 15_000;
const asked = new Map<string, { at: number; answer: Promise<unknown>; taken: boolean }>();
let prefetching = false;

const askedKey = (url: string, options: RequestOptions | undefined) => `${options?.auth ? (options.token ?? hooks.getToken?.() ?? '') : ''} ${url}`;

/** Runs `calls` (functions of services/api) so that each GET they make is asked now and kept for the same GET soon after. */
export function prefetch(calls: () => void): void {
  prefetching = true;
  try {
    calls();
  } finally {
    prefetching = false;
  }
}

export function apiGet<T>(path: string, params?: QueryParams, options?: RequestOptions): Promise<T> {
  const url = withQuery(path, params);
  const key = askedKey(url, options);
  const early = asked.get(key);
  const recent = early !== undefined && Date.now() - early.at < PREFETCH_MS;
  if (prefetching) {
    // Asked already (the page is prefetched both at start and when its route renders, and again
    // when that render is retried), taken or not: once is enough.
    if (recent) return early.answer as Promise<T>;
    const answer = request<T>('GET', url, undefined, { ...options, silent: true });
    // Nobody may take it: a failure is the saga's to see when it asks, never an unhandled rejection.
    answer.catch(() => undefined);
    asked.set(key, { at: Date.now(), answer, taken: false });
    return answer;
  }
  if (recent && !early.taken) {
    early.taken = true;
    return early.answer as Promise<T>;
  }
  // A GET of the page itself (a refresh, the next visit) asks the server.
  if (early && !recent) asked.delete(key);
  return request<T>('GET', url, undefined, options);
}

export function apiPost<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
  return request<T>('POST', path, body, options);
}

/** POST a file as the raw body, with its own Content-Type (a logo upload); the answer is JSON. */
export function apiUpload<T>(path: string, file: Blob, params?: QueryParams, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': file.type || 'application/octet-stream' };
  const token = options.auth ? (options.token ?? hooks.getToken?.()) : null;
  return send(withQuery(path, params), { method: 'POST', headers, body: file }, token, options, async (response) => (await readBody(response)) as T);
}

/** A file the server writes (a CSV export): its body as a Blob and the name the server gave it, if any. */
export interface DownloadedFile {
  blob: Blob;
  filename: string | null;
}

/**
 * GET a file with the stored bearer token (a plain link could not carry it). Failures are
 * ApiErrors as for JSON calls; the body of an error answer is read as JSON when it is JSON.
 */
export function apiDownload(path: string, params?: QueryParams, options: Omit<RequestOptions, 'auth'> = {}): Promise<DownloadedFile> {
  const token = options.token ?? hooks.getToken?.();
  return send(withQuery(path, params), { method: 'GET', headers: {} }, token, options, async (response) => ({
    blob: await response.blob(),
    filename: filenameOf(response.headers.get('Content-Disposition')),
  }));
}

/** `attachment; filename="orders-6.csv"` → `orders-6.csv`; null when there is none. */
function filenameOf(disposition: string | null): string | null {
  const match = disposition ? /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition) : null;
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return match[1];
  }
}

function withQuery(path: string, params: QueryParams | undefined): string {
  if (!params) return path;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) search.append(key, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

function request<T>(method: string, path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const token = options.auth ? (options.token ?? hooks.getToken?.()) : null;
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body), keepalive: options.keepalive };
  return send(path, init, token, options, async (response) => (await readBody(response)) as T);
}

/**
 * One call to the server: the bearer token as a header, the loading hooks
 * around it, an unreachable server or an error answer as an ApiError; `read` takes in a
 * successful answer.
 */
async function send<T>(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string | Blob; keepalive?: boolean },
  token: string | null | undefined,
  options: { signal?: AbortSignal; silent?: boolean },
  read: (response: Response) => Promise<T>,
): Promise<T> {
  if (token) init.headers.Authorization = `Bearer ${token}`;

  if (!options.silent) hooks.onRequestStart?.();
  try {
    let response: Response;
    try {
      response = await fetch(url, { ...init, signal: options.signal, credentials: 'same-origin' });
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
      throw ApiError.unreachable();
    }

    if (!response.ok) {
      const payload = await readBody(response);
      // Only a refusal of the token still in use ends the session: a late answer to a call made
      // with an older token (log-out, then a new login) must not log the new session out.
      if (response.status === 401 && token && token === hooks.getToken?.()) hooks.onUnauthorized?.();
      const errorBody = isErrorBody(payload) ? payload : {};
      throw new ApiError(response.status, errorBody, response.statusText || `HTTP ${response.status}`);
    }
    return await read(response);
  } finally {
    if (!options.silent) hooks.onRequestEnd?.();
  }
}

/** JSON when the server says so; an empty or non-JSON body becomes undefined. */
async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const type = response.headers.get('Content-Type') ?? '';
  if (!type.includes('json')) return undefined;
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  return typeof value === 'object' && value !== null;
}
