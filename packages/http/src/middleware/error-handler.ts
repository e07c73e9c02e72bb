/**
 * The one place where errors become HTTP answers: `{ message, code, errors? }` with the
 * status that the error's type calls for. Errors that are not ours are logged and answered
 * with a generic 500, so internals never reach the client. Messages are English, for
 * developers, logs and API consumers; a client that shows them in another language translates
 * by `code` (the web app: features/language/errors), so no translation here keys on a sentence.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { databaseUnavailable, isDomainError, type ErrorType, type Logger, TooManyRequestsError, UnavailableError } from '@subshare/core';

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
      const status = STATUS[error.type];
      if (status >= 500) logger.error({ err: error, path: req.path }, 'request failed');
      res.status(status).json({ message: error.message, code: error.code, ...(error.errors ? { errors: error.errors } : {}) });
      return;
    }
    // Errors raised by express.json() and friends carry a status and a type.
    const parserError = error as BodyParserError;
    if (parserError?.type === 'entity.parse.failed') {
      res.status(400).json({ message: 'The request body is not valid JSON.', code: 'malformed_json' });
      return;
    }
    if (parserError?.type === 'entity.too.large') {
      res.status(413).json({ message: 'The request body is too large.', code: 'payload_too_large' });
      return;
    }
    // express.static (missing asset) and other http-errors with a client status.
    if (parserError?.status === 404) {
      res.status(404).json({ message: 'Not found.', code: 'not_found' });
      return;
    }
    if (parserError?.status && parserError.status >= 400 && parserError.status < 500) {
      res.status(parserError.status).json({ message: 'The request could not be handled.', code: 'bad_request' });
      return;
    }
    logger.error({ err: error, path: req.path, method: req.method }, 'unexpected error');
    res.status(500).json({ message: 'Something went wrong on our side. Please try again.', code: 'internal' });
  };
}

export const apiNotFound: RequestHandler = (req, res) => {
  res.status(404).json({ message: `There is no ${req.method} ${req.originalUrl.split('?')[0]}.`, code: 'route_not_found' });
};
