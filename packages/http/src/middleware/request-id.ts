/**
 * Gives every request its id, first of all middleware: the caller's `X-Request-Id` when it is a
 * safe token (a load balancer or another service names the request), otherwise a new random one
 * (also when the offered one has CR/LF, spaces or is too long: it would reach logs and headers).
 * The id is echoed in the answer's `X-Request-Id` and the rest of the request runs inside it
 * (core's request context), so every log line it writes, errors included, and every job it
 * sends carries it.
 */
import { acceptRequestId, runWithRequestId } from '@subshare/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** The request's id, set on the answer's header (where the access log reads it too). */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const id = acceptRequestId(req.headers['x-request-id']);
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/** The id of a request that went through `assignRequestId`. */
export const requestIdOf = (res: ServerResponse): string | undefined => res.getHeader(REQUEST_ID_HEADER) as string | undefined;

export const requestId: RequestHandler = (req, res, next) => {
  const id = assignRequestId(req, res);
  res.locals.requestId = id;
  runWithRequestId(id, next);
};
