/**
 * The server's request listener: the route table's `plain` lines (the storefront's cached
 * catalog reads) answered on Node's own request and response, every other request handed to the
 * Express app, called as the plain request handler it is (`app(req, res)`).
 *
 * Why: through Express, a cached catalog read cost about 0.2 ms of CPU (bench:api), where its
 * answer (bytes compressed once, an ETag) costs a few tens of µs; Express's per-request setup
 * is a share of the panel's cost too. The front door runs the same steps as the app's first
 * middleware, with the same functions, in the same order: the request id, the access log
 * (pino-http, called on req and res), the request histogram (under the line's path), helmet's
 * headers (helmet on req and res), `Cache-Control: no-store` until the handler says otherwise,
 * the guards' rule for the caller (`authorizedCaller`), the client's address by the app's
 * `trust proxy` function; a returned value is sent as the router sends it (`sendJson`), errors
 * as the app's error handler answers them (`errorAnswer`). A request the front door does not
 * take whole goes to Express untouched: another method or path spelling (Express matches paths
 * case-insensitively and with a trailing slash), or a query that fails validation (Express
 * answers the 401 or the 400, in its order).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { Express } from 'express';
import type { Container } from 'inversify';
import { runWithRequestId, TOKENS, type AppConfig, AuthService, type Logger, OperationsService } from '@subshare/core';
import { clientAddress, type TrustProxy } from './client-address.js';
import type { HttpMetrics } from './metrics.js';
import { plainAccessLog } from './middleware/access-log.js';
import { authorizedCaller } from './middleware/auth.js';
import { errorAnswer } from './middleware/error-handler.js';
import { assignRequestId } from './middleware/request-id.js';
import type { Access, Call, PlainInput } from './routes/call.js';
import { queryReader, rawQuery, type QueryReader } from './routes/router.js';
import { securityHeaders } from './security-headers.js';
import { sendJson } from './serializers/cached-json.js';

interface PlainLine {
  path: string;
  access: Exclude<Access, 'provider'>;
  readQuery: QueryReader;
  plain: (input: PlainInput<unknown, Access>) => Promise<unknown>;
}

export interface FrontDoorParts {
  table: Call[];
  metrics: HttpMetrics;
  /** The app's `trust proxy` function. */
  trust: TrustProxy;
  accessLog?: boolean;
}

export function frontDoor(container: Container, app: Express, { table, metrics, trust, accessLog }: FrontDoorParts): RequestListener {
  const config = container.get<AppConfig>(TOKENS.Config);
  const logger = container.get<Logger>(TOKENS.Logger);
  const operations = container.get(OperationsService);
  const auth = container.get(AuthService);
  const lines = new Map<string, PlainLine>();
  for (const line of table) {
    const { plain, method, access, path } = line;
    if (!plain || method !== 'get' || access === 'provider' || path.includes(':')) continue;
    lines.set(path, { path, access, readQuery: queryReader(line), plain });
  }
  const log = accessLog === false ? undefined : plainAccessLog(logger);
  const helmet = securityHeaders(config);

  /** As the app's error handler answers. */
  const fail = (error: unknown, req: IncomingMessage, res: ServerResponse, path: string) => {
    if (res.headersSent) {
      res.end();
      return;
    }
    const answer = errorAnswer(error, logger, req.method, path, operations);
    if (answer.retryAfterSeconds) res.setHeader('Retry-After', String(answer.retryAfterSeconds));
    res.statusCode = answer.status;
    sendJson(req, res, answer.body);
  };

  const answer = async (line: PlainLine, query: Record<string, unknown>, req: IncomingMessage, res: ServerResponse) => {
    // The guards' rule: 401 without a valid token, 403 without the access the line names.
    const user = line.access === 'public' ? undefined : await authorizedCaller(auth, req.headers.authorization, line.access);
    const result = await line.plain({ query: query as never, user: user as never, context: { ip: clientAddress(req, trust) }, req, res });
    if (result !== undefined && !res.headersSent) sendJson(req, res, result);
  };

  return (req, res) => {
    const url = req.url ?? '/';
    const at = url.indexOf('?');
    const line = req.method === 'GET' ? lines.get(at === -1 ? url : url.slice(0, at)) : undefined;
    if (!line) return app(req, res);
    let query: Record<string, unknown>;
    try {
      // Express's query parser ("simple": node:querystring); one memory with the router.
      const raw = rawQuery(url);
      query = line.readQuery(raw, () => parseQuery(raw));
    } catch {
      return app(req, res);
    }
    const id = assignRequestId(req, res);
    runWithRequestId(id, () => {
      log?.(req, res);
      metrics.timeAs(req, res, line.path);
      helmet(req, res, (error?: unknown) => {
        if (error) return fail(error, req, res, line.path);
        res.setHeader('Cache-Control', 'no-store');
        answer(line, query, req, res).catch((raised: unknown) => fail(raised, req, res, line.path));
      });
    });
  };
}
