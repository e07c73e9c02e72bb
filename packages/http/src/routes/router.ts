/**
 * The Express router built from the route table: per line, the guard its access names, the
 * input validated by its schemas (core's `validate`: strict types, unknown fields dropped, a 400
 * naming every bad field), then the handler with typed input; a returned value is sent as JSON.
 */
import compression from 'compression';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Container } from 'inversify';
import { validate, type AuthenticatedUser } from '@subshare/core';
import { guards, requestContext } from '../middleware/auth.js';
import { isJsonAnswer, type Call, type CallInput, type Stage } from './call.js';
import { sendJson } from '../serializers/cached-json.js';

const RAW_BODY_LIMIT = '64kb';
/** Distinct query strings remembered per line (see `queryReader`). */
const QUERY_MEMORY = 1_000;

/**
 * A query's validated value per raw query string. The storefront's calls see few distinct
 * query strings, and validating each request again was a measurable share of the catalog
 * calls' time. Values are frozen, as they are shared; invalid queries throw and are not kept.
 * One memory per line.
 */
export type QueryReader = (raw: string, parse: () => unknown) => Record<string, unknown>;

const queryReaders = new WeakMap<Call, QueryReader>();

export function queryReader(line: Call): QueryReader {
  let reader = queryReaders.get(line);
  if (!reader) {
    const schema = line.query;
    const parsed = new Map<string, Record<string, unknown>>();
    reader = !schema
      ? () => ({})
      : (raw, parse) => {
          let value = parsed.get(raw);
          if (value === undefined) {
            value = Object.freeze(validate(schema, parse())) as Record<string, unknown>;
            if (parsed.size >= QUERY_MEMORY) parsed.clear();
            parsed.set(raw, value);
          }
          return value;
        };
    queryReaders.set(line, reader);
  }
  return reader;
}

/** The raw query string of a request (what follows `?`). */
export function rawQuery(url: string): string {
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at + 1);
}

function endpoint(line: Call): RequestHandler {
  const readQuery = queryReader(line);
  const json = isJsonAnswer(line.answer);
  return async (req: Request, res: Response, next) => {
    try {
      const query = readQuery(rawQuery(req.originalUrl), () => req.query) as never;
      const input: CallInput<unknown, unknown, unknown, 'user'> = {
        query,
        body: (line.body ? validate(line.body, req.body) : {}) as never,
        params: (line.params ? validate(line.params, req.params) : {}) as never,
        user: res.locals.user as AuthenticatedUser,
        context: requestContext(req),
        req,
        res,
      };
      const result = line.plain ? await line.plain(input) : await line.handler?.(input);
      if (res.headersSent) return;
      if (json && result !== undefined) sendJson(req, res, result);
      else if (!isJsonAnswer(line.answer) && line.answer.status === 204) res.status(204).end();
    } catch (error) {
      next(error);
    }
  };
}

/** What app.ts sets on every /api answer; lines mounted ahead of it set it themselves. */
export const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/** The API's paths (Express matches routes case-insensitively: so does this). */
export const API_PATH = /^\/api\//i;

/** The lines of one stage as a router (app.ts mounts each stage where it belongs). */
export function tableRouter(container: Container, table: Call[], stage: Stage): Router {
  const router = Router();
  const can = guards(container);
  // The compression app.ts skips for the API: its JSON answers compress themselves (sendJson), its others get it here.
  const compress = compression();
  for (const line of table.filter((candidate) => (candidate.stage ?? 'api') === stage)) {
    const guard = line.access === 'provider' ? can.public : can[line.access];
    // Lines mounted ahead of app.ts's `/api` defaults set what those defaults would have.
    const before: RequestHandler[] =
      stage === 'api'
        ? []
        : stage === 'raw-body'
          ? [express.raw({ type: () => true, limit: line.bodyLimit ?? RAW_BODY_LIMIT })]
          : line.path.startsWith('/api/')
            ? [noStore]
            : [];
    if (!isJsonAnswer(line.answer) && API_PATH.test(line.path)) before.push(compress);
    router[line.method](line.path, ...guard, ...before, endpoint(line));
  }
  return router;
}
