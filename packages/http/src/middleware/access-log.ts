/**
 * The access log: pino-http on the app's logger. Only the method and the path are logged, never
 * the query string (it can carry e-mail addresses and OAuth codes) and never a header
 * (authorization, cookies). Each line names the request by its `requestId`
 * (middleware/request-id.ts), as every other line of that request does; it is put on the line
 * because 'finish' fires outside the request's context.
 *
 * Successful requests are logged at debug, client errors and aborted requests at info, server
 * errors at error, with one message, `request completed` (or `request aborted` when the client
 * went away first).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { Request, RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '@subshare/core';
import { requestIdOf } from './request-id.js';

interface LoggedRequest {
  method?: string;
  path: string;
}

/** Express's routers rewrite req.url on the way; originalUrl keeps what was asked. */
const pathOf = (req: IncomingMessage) => ((req as Partial<Request>).originalUrl ?? req.url ?? '').split('?')[0];
const aborted = (req: IncomingMessage, res: ServerResponse) => req.readableAborted || !res.writableEnded;
const message = (req: IncomingMessage, res: ServerResponse) => (aborted(req, res) ? 'request aborted' : 'request completed');
const line = (req: IncomingMessage, res: ServerResponse, responseTime: number) => ({
  requestId: requestIdOf(res),
  req: { method: req.method, path: pathOf(req) } satisfies LoggedRequest,
  res: { statusCode: res.statusCode },
  responseTime,
});

/** The access log as Express middleware. */
export function accessLog(logger: Logger): RequestHandler {
  const log = plainAccessLog(logger);
  return (req, res, next) => {
    log(req, res);
    next();
  };
}

/** pino-http as the plain function it is: starts the line of a request on Node's own req and res. */
export function plainAccessLog(logger: Logger): (req: IncomingMessage, res: ServerResponse) => void {
  const middleware = pinoHttp<IncomingMessage, ServerResponse>({
    // pino-http makes a child logger per request (req.log); the app logger's redaction (its list
    // of secret keys, with wildcards) ran for each one. These lines carry nothing to redact (the
    // method, the path, the status, the request id), and nothing logs through req.log.
    logger: logger.child({}, { redact: { paths: [] } }),
    genReqId: (_req, res) => requestIdOf(res) ?? '',
    // The request's own logger (req.log) carries only the method and path, as the lines do.
    wrapSerializers: false,
    // pino runs it on the lines' `req` too, which is that already.
    serializers: { req: (req: IncomingMessage | LoggedRequest) => (req instanceof Readable ? { method: req.method, path: pathOf(req) } : req) },
    quietResLogger: true,
    customLogLevel: (req, res, error) => (error || res.statusCode >= 500 ? 'error' : aborted(req, res) || res.statusCode >= 400 ? 'info' : 'debug'),
    customSuccessMessage: message,
    customErrorMessage: message,
    customSuccessObject: (req, res, { responseTime }: { responseTime: number }) => line(req, res, responseTime),
    // The error handler has logged the error itself, with its stack: the access line says what was answered.
    customErrorObject: (req, res, _error, { responseTime }: { responseTime: number }) => line(req, res, responseTime),
  });
  return (req, res) => middleware(req, res);
}
