/**
 * The request id that follows one piece of work through every process it reaches: an HTTP
 * request takes the caller's X-Request-Id (when it is a safe token) or a new random one, the
 * logger's mixin puts it on every line written while that work runs (AsyncLocalStorage carries
 * it across awaits), the job queue copies it into the jobs the work sends, and the worker runs
 * each job inside its id again. So one id leads from a payment notification to its e-mail.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** 1 to 64 of letters, digits and `. _ : -`: no spaces, CR/LF or quotes can reach a log line or header. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/;

/** The key under which a job's data carries the id of the work that sent it. */
export const JOB_REQUEST_ID_KEY = 'requestId';

interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function isValidRequestId(value: unknown): value is string {
  return typeof value === 'string' && REQUEST_ID_PATTERN.test(value);
}

/** The caller's id when it is a safe token, otherwise a new random one. */
export function acceptRequestId(offered: unknown): string {
  return isValidRequestId(offered) ? offered : randomUUID();
}

/**
 * Runs `fn` with `requestId` as the current request id (for it and everything it awaits or
 * starts); with undefined, outside any id, so work that was woken up from inside a request
 * (a job queue's poll loop, say) does not take that request's id.
 */
export function runWithRequestId<T>(requestId: string | undefined, fn: () => T): T {
  return requestId === undefined ? storage.exit(fn) : storage.run({ requestId }, fn);
}

/** The id of the work running now, if any. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
