/**
 * The one place where errors become HTTP answers: `{ message, code, params?, errors? }` with the
 * status the error dictionary declares for the code (core/src/wire/errors.ts). Errors that are not ours are logged and answered
 * with a generic 500, so internals never reach the client. Messages are English, for
 * developers, logs and API consumers; a client that shows them in another language translates
 * by `code` (the web app: features/language/errors), so no translation here keys on a sentence.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import {
  databaseUnavailable,
  isDomainError,
  type ErrorType,
  type Logger,
  type OperationsService,
  TooManyRequestsError,
  UnavailableError,
} from '@subshare/core';
import { ERRORS, errorMessage, isErrorCode, type ErrorCode, type ErrorParams } from '@subshare/core/wire';

/** An error answer of the dictionary: its status, the English message (filled) and the code. */
export function errorBody(code: ErrorCode, params?: ErrorParams): { status: number; body: { message: string; code: ErrorCode; params?: ErrorParams } } {
  return { status: ERRORS[code].status, body: { message: errorMessage(code, params), code, ...(params ? { params } : {}) } };
}

const STATUS: Record<ErrorType, number> = {
  validation: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  too_many_requests: 429,
  unavailable: 503,
  internal: 500,
};

interface BodyParserError {
  type?: string;
  status?: number;
  expose?: boolean;
}

/** What an error is answered with: its status, the JSON body and, for 429 and 503, how long to wait. */
export interface ErrorAnswer {
  status: number;
  body: { message: string; code: string; params?: ErrorParams; errors?: unknown };
  retryAfterSeconds?: number;
}

/** Who hears of the errors met: readiness turns not ready on a full disk (OperationsService). */
export type ErrorWatch = Pick<OperationsService, 'noteDatabaseError'>;

/** The answer for an error raised while serving `method path`; errors that are not ours are logged here. */
export function errorAnswer(raised: unknown, logger: Logger, method: string | undefined, path: string, watch?: ErrorWatch): ErrorAnswer {
  watch?.noteDatabaseError(raised);
  // A database that is down, full or does not answer in time is a 503 with Retry-After, whichever call met it.
  const error = databaseUnavailable(raised) ?? raised;
  if (isDomainError(error)) {
    const retryAfterSeconds =
      (error instanceof TooManyRequestsError || error instanceof UnavailableError) && error.retryAfterSeconds ? error.retryAfterSeconds : undefined;
    const status = isErrorCode(error.code) ? ERRORS[error.code].status : STATUS[error.type];
    if (status >= 500) logger.error({ err: error, path }, 'request failed');
    const body = {
      message: error.message,
      code: error.code,
      ...(error.params ? { params: error.params } : {}),
      ...(error.errors ? { errors: error.errors } : {}),
    };
    return { status, body, retryAfterSeconds };
  }
  // Errors raised by express.json() and friends carry a status and a type.
  const parserError = error as BodyParserError;
  if (parserError?.type === 'entity.parse.failed') return errorBody('malformed_json');
  if (parserError?.type === 'entity.too.large') return errorBody('payload_too_large');
  // express.static (missing asset) and other http-errors with a client status.
  if (parserError?.status === 404) return errorBody('not_found');
  if (parserError?.status && parserError.status >= 400 && parserError.status < 500) return { status: parserError.status, body: errorBody('bad_request').body };
  logger.error({ err: error, path, method }, 'unexpected error');
  return errorBody('internal');
}

export function errorHandler(logger: Logger, watch?: ErrorWatch): ErrorRequestHandler {
  return (raised: unknown, req, res, _next) => {
    if (res.headersSent) {
      res.end();
      return;
    }
    const answer = errorAnswer(raised, logger, req.method, req.path, watch);
    if (answer.retryAfterSeconds) res.setHeader('Retry-After', String(answer.retryAfterSeconds));
    res.status(answer.status).json(answer.body);
  };
}

export const apiNotFound: RequestHandler = (req, res) => {
  // The path is the caller's own: said in the message, not repeated as params.
  res
    .status(ERRORS.route_not_found.status)
    .json({ message: errorMessage('route_not_found', { method: req.method, path: req.originalUrl.split('?')[0] }), code: 'route_not_found' });
};
