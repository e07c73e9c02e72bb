/**
 * The Express router built from the route table: per line, the guard its access names, the
 * input validated by its schemas (core's `validate`: strict types, unknown fields dropped, a 400
 * naming every bad field), then the handler with typed input; a returned value is sent as JSON.
 */
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Container } from 'inversify';
import type * as yup from 'yup';
import { validate, type AuthenticatedUser } from '@subshare/core';
import { guards, requestContext } from '../middleware/auth.js';
import { isJsonAnswer, type Call, type CallInput, type Stage } from './call.js';

const RAW_BODY_LIMIT = '64kb';
/** Distinct query strings remembered per line (see `queryParser`). */
const QUERY_MEMORY = 1_000;

/**
 * A query's validated value per raw query string. The storefront's calls see few distinct
 * query strings, and validating each request again was a measurable share of the catalog
 * calls' time. Values are frozen, as they are shared; invalid queries throw and are not kept.
 */
function queryParser(schema: yup.AnyObjectSchema | undefined): (req: Request) => Record<string, unknown> {
  if (!schema) return () => ({});
  const parsed = new Map<string, Record<string, unknown>>();
  return (req) => {
    const at = req.originalUrl.indexOf('?');
    const raw = at === -1 ? '' : req.originalUrl.slice(at + 1);
    let value = parsed.get(raw);
    if (value === undefined) {
      value = Object.freeze(validate(schema, req.query)) as Record<string, unknown>;
      if (parsed.size >= QUERY_MEMORY) parsed.clear();
      parsed.set(raw, value);
    }
    return value;
  };
}

function endpoint(line: Call): RequestHandler {
  const queryOf = queryParser(line.query);
  const json = isJsonAnswer(line.answer);
  return async (req: Request, res: Response, next) => {
    try {
      const input: CallInput<unknown, unknown, unknown, 'user'> = {
        query: queryOf(req) as never,
        body: (line.body ? validate(line.body, req.body) : {}) as never,
        params: (line.params ? validate(line.params, req.params) : {}) as never,
        user: res.locals.user as AuthenticatedUser,
        context: requestContext(req),
        req,
        res,
      };
      const result = await line.handler(input);
      if (res.headersSent) return;
      if (json && result !== undefined) res.json(result);
      else if (!isJsonAnswer(line.answer) && line.answer.status === 204) res.status(204).end();
    } catch (error) {
      next(error);
    }
  };
}

const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/** The lines of one stage as a router (app.ts mounts each stage where it belongs). */
export function tableRouter(container: Container, table: Call[], stage: Stage): Router {
  const router = Router();
  const can = guards(container);
  for (const line of table.filter((candidate) => (candidate.stage ?? 'api') === stage)) {
    const guard = line.access === 'provider' ? can.public : can[line.access];
    // Lines mounted ahead of app.ts's `/api` defaults set what those defaults would have.
    const before: RequestHandler[] =
      stage === 'api'
        ? []
        : stage === 'raw-body'
          ? [express.raw({ type: () => true, limit: line.rawBodyLimit ?? RAW_BODY_LIMIT })]
          : line.path.startsWith('/api/')
            ? [noStore]
            : [];
    router[line.method](line.path, ...guard, ...before, endpoint(line));
  }
  return router;
}
