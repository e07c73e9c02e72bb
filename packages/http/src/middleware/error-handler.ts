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

/** What an error is answered with: its status, the JSON body and, for 429 and 503, how long to wait. */
export interface ErrorAnswer {
  status: number;
  body: { message: string; code: string; errors?: unknown };
  retryAfterSeconds?: number;
}

/** The answer for an error raised while serving `method path`; errors that are not ours are logged here. */
export function errorAnswer(raised: unknown, logger: Logger, method: string | undefined, path: string): ErrorAnswer {
  // A database that is down or does not answer in time is a 503 with Retry-After, whichever call met it.
  const error = databaseUnavailable(raised) ?? raised;
  if (isDomainError(error)) {
    const retryAfterSeconds =
      (error instanceof TooManyRequestsError || error instanceof UnavailableError) && error.retryAfterSeconds ? error.retryAfterSeconds : undefined;
    const status = STATUS[error.type];
    if (status >= 500) logger.error({ err: error, path }, 'request failed');
    return { status, body: { message: error.message, code: error.code, ...(error.errors ? { errors: error.errors } : {}) }, retryAfterSeconds };
  }
  // Errors raised by express.json() and friends carry a status and a type.
  const parserError = error as BodyParserError;
  if (parserError?.type === 'entity.parse.failed') return { status: 400, body: { message: 'The request body is not valid JSON.', code: 'malformed_json' } };
  if (parserError?.type === 'entity.too.large') return { status: 413, body: { message: 'The request body is too large.', code: 'payload_too_large' } };
  // express.static (missing asset) and other http-errors with a client status.
  if (parserError?.status === 404) return { status: 404, body: { message: 'Not found.', code: 'not_found' } };
  if (parserError?.status && parserError.status >= 400 && parserError.status < 500)
    return { status: parserError.status, body: { message: 'The request could not be handled.', code: 'bad_request' } };
  logger.error({ err: error, path, method }, 'unexpected error');
  return { status: 500, body: { message: 'Something went wrong on our side. Please try again.', code: 'internal' } };
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (raised: unknown, req, res, _next) => {
    if (res.headersSent) {
      res.end();
      return;
    }
    const answer = errorAnswer(raised, logger, req.method, req.path);
    if (answer.retryAfterSeconds) res.setHeader('Retry-After', String(answer.retryAfterSeconds));
    res.status(answer.status).json(answer.body);
  };
}

export const apiNotFound: RequestHandler = (req, res) => {
  res.status(404).json({ message: `There is no ${req.method} ${req.originalUrl.split('?')[0]}.`, code: 'route_not_found' });
};
