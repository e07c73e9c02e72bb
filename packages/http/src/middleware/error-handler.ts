/**
 * The one place where errors become HTTP answers: `{ message, code, params?, errors? }` with the
 * status the error dictionary declares for the code (core/src/wire/errors.ts). Errors that are not ours are logged and answered
 * with a generic 500, so internals never reach the client. Messages are English, for
 * developers, logs and API consumers; a client that shows them in another language translates
 * by `code` (the web app: features/language/errors), so no translation here keys on a sentence.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { databaseUnavailable, isDomainError, type ErrorType, type Logger, TooManyRequestsError, UnavailableError } from '@subshare/core';
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

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (raised: unknown, req, res, _next) => {
    if (res.headersSent) {
      res.end();
      return;
    }
    // A database that is down or does not answer in time is a 503 with Retry-After, whichever call met it.
    const error = databaseUnavailable(raised) ?? raised;
    if (isDomainError(error)) {
      if ((error instanceof TooManyRequestsError || error instanceof UnavailableError) && error.retryAfterSeconds)
        res.setHeader('Retry-After', String(error.retryAfterSeconds));
      const status = isErrorCode(error.code) ? ERRORS[error.code].status : STATUS[error.type];
      if (status >= 500) logger.error({ err: error, path: req.path }, 'request failed');
      res.status(status).json({
        message: error.message,
        code: error.code,
        ...(error.params ? { params: error.params } : {}),
        ...(error.errors ? { errors: error.errors } : {}),
      });
      return;
    }
    // Errors raised by express.json() and friends carry a status and a type.
    const parserError = error as BodyParserError;
    if (parserError?.type === 'entity.parse.failed') {
      const { status, body } = errorBody('malformed_json');
      res.status(status).json(body);
      return;
    }
    if (parserError?.type === 'entity.too.large') {
      const { status, body } = errorBody('payload_too_large');
      res.status(status).json(body);
      return;
    }
    // express.static (missing asset) and other http-errors with a client status.
    if (parserError?.status === 404) {
      const { status, body } = errorBody('not_found');
      res.status(status).json(body);
      return;
    }
    if (parserError?.status && parserError.status >= 400 && parserError.status < 500) {
      res.status(parserError.status).json(errorBody('bad_request').body);
      return;
    }
    logger.error({ err: error, path: req.path, method: req.method }, 'unexpected error');
    const { status, body } = errorBody('internal');
    res.status(status).json(body);
  };
}

export const apiNotFound: RequestHandler = (req, res) => {
  // The path is the caller's own: said in the message, not repeated as params.
  res
    .status(ERRORS.route_not_found.status)
    .json({ message: errorMessage('route_not_found', { method: req.method, path: req.originalUrl.split('?')[0] }), code: 'route_not_found' });
};
