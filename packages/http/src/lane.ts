/**
 * The lane: GETs read often enough that Express's own cost counts (lines with a `bare` handler:
 * the storefront's catalog reads, answered from memory, and the buyer's panel) are answered on
 * Node's own request and response, ahead of Express. Express gives every request and response
 * its own prototypes before routing, and that alone cost more than the rest of the catalog calls
 * together (bench:api: an Express "hello" spends about 80 µs of CPU per request on this machine,
 * a bare node:http one about 12); for the panel, Express and its routers were about 0.1 ms of its
 * 1.3.
 *
 * Nothing is skipped: the lane runs the middleware app.ts runs first for every request (request
 * id, access log, request metrics, security headers) and `Cache-Control: no-store`, checks the
 * caller as the Express guards do (`authorizedCaller`, one rule for both), then validates the
 * query with the line's schema (one memory with the router), works out the client's address as
 * Express does (`trust proxy`, for the audit log and rate limits) and calls the handler; a
 * returned value is sent as JSON (`sendJson`). A failure (no token, a bad query, an unknown
 * platform, the database down) is handed, with Express's request and response set up as Express
 * would, to the app's error handler: the same answers as elsewhere. Everything else (HEAD,
 * another spelling of the path such as a trailing slash) goes to Express, whose router holds the
 * same lines.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, Express, Request, Response } from 'express';
import type { Container } from 'inversify';
import proxyAddr from 'proxy-addr';
import { IDENTITY, type AuthService } from '@subshare/core';
import { authorizedCaller } from './middleware/auth.js';
import type { BareMiddleware, BareResponse } from './middleware/bare.js';
import type { Access, Call } from './routes/call.js';
import { noStore, queryReader, rawQuery, type QueryReader } from './routes/router.js';
import { sendJson } from './serializers/cached-json.js';

interface LaneLine {
  route: string;
  access: Exclude<Access, 'provider'>;
  readQuery: QueryReader;
  answer: NonNullable<Call['bare']>;
}

/** Answers the request and says true, or says false and leaves it untouched for Express. */
export type Lane = (req: IncomingMessage, res: ServerResponse) => boolean;

export function createLane(container: Container, app: Express, table: Call[], front: BareMiddleware[], onError: ErrorRequestHandler): Lane {
  const auth = container.get<AuthService>(IDENTITY.Auth);
  const lines = new Map<string, LaneLine>();
  for (const line of table) {
    const { access } = line;
    if (!line.bare || line.method !== 'get' || access === 'provider' || line.path.includes(':')) continue;
    lines.set(line.path, { route: line.path, access, readQuery: queryReader(line), answer: line.bare });
  }
  const chain = [...front, noStore];
  /** The client's address as Express's `req.ip` gives it, behind the proxies `trust proxy` names. */
  const clientIp = (req: IncomingMessage) => proxyAddr(req, app.get('trust proxy fn') as (address: string, hop: number) => boolean);

  /** What Express's app.handle does before routing, for the error handler's res.status().json(). */
  const asExpress = (req: IncomingMessage, res: ServerResponse): [Request, Response] => {
    const expressReq = Object.setPrototypeOf(req, app.request) as Request;
    const expressRes = Object.setPrototypeOf(res, app.response) as Response;
    expressReq.res = expressRes;
    expressRes.req = expressReq;
    return [expressReq, expressRes];
  };

  return (req, res) => {
    if (req.method !== 'GET') return false;
    const url = req.url ?? '/';
    const at = url.indexOf('?');
    const line = lines.get(at === -1 ? url : url.slice(0, at));
    if (!line) return false;

    const answerer = res as BareResponse;
    answerer.locals = Object.create(null) as Record<string, unknown>;
    answerer.locals.route = line.route;
    const fail = (error: unknown) => {
      const [expressReq, expressRes] = asExpress(req, res);
      onError(error, expressReq, expressRes, () => undefined);
    };
    const answer = async () => {
      // The caller first, then the query: a call without a token is a 401 whatever it asks, as in Express.
      const user = line.access === 'public' ? undefined : await authorizedCaller(auth, req.headers.authorization, line.access);
      const raw = rawQuery(url);
      const query = line.readQuery(raw, () => (app.get('query parser fn') as (raw: string) => unknown)(raw));
      const result = await line.answer({ query: query as never, user, context: { ip: clientIp(req) }, req, res });
      if (result !== undefined && !res.headersSent) sendJson(req, res, result);
    };
    let index = 0;
    const next = (error?: unknown) => {
      try {
        if (error) fail(error);
        else if (index < chain.length) chain[index++](req, answerer, next);
        else answer().catch(fail);
      } catch (raised) {
        fail(raised);
      }
    };
    next();
    return true;
  };
}
