/**
 * createApp(container): the whole HTTP surface as an Express app, without listening, so
 * tests drive it with supertest. createServerHandler(container): that app behind the front door
 * (front-door.ts), the request listener `serve` puts behind a port.
 */
import compression from 'compression';
import type { RequestListener } from 'node:http';
import express, { type Express } from 'express';
import type { Container } from 'inversify';
import { TOKENS, type AppConfig, type Logger, OperationsService } from '@subshare/core';
import { healthRoutes } from './health.js';
import { trustProxy, type TrustProxy } from './client-address.js';
import { frontDoor } from './front-door.js';
import { createHttpMetrics, type HttpMetrics } from './metrics.js';
import { apiNotFound, errorHandler } from './middleware/error-handler.js';
import { inputGuard } from './middleware/input-guard.js';
import { requestId } from './middleware/request-id.js';
import { accessLog } from './middleware/access-log.js';
import type { Call } from './routes/call.js';
import { API_PATH, tableRouter } from './routes/router.js';
import { routeTable } from './routes/table.js';
import { mediaUploadRoutes } from './media-uploads.js';
import { securityHeaders } from './security-headers.js';
import { SHOP_FRAME, shopFrame, staticRoutes } from './static.js';

export interface AppOptions {
  /** Where the built web app lives; defaults to packages/web/dist. */
  webDist?: string;
  /** Tests silence the access log. */
  accessLog?: boolean;
}

export const JSON_BODY_LIMIT = '32kb';

export interface ServerHandler {
  /** The Express app (its `locals` carry `draining`). */
  app: Express;
  /** The server's request listener: the front door, then the app. */
  handle: RequestListener;
}

export function createApp(container: Container, options: AppOptions = {}): Express {
  return createServerHandler(container, options).app;
}

export function createServerHandler(container: Container, options: AppOptions = {}): ServerHandler {
  const table = routeTable(container);
  const metrics = createHttpMetrics(container);
  const trust = trustProxy(container.get<AppConfig>(TOKENS.Config).trustProxy);
  const app = buildApp(container, options, table, metrics, trust);
  return { app, handle: frontDoor(container, app, { table, metrics, trust, accessLog: options.accessLog }) };
}

function buildApp(container: Container, options: AppOptions, table: Call[], metrics: HttpMetrics, trust: TrustProxy): Express {
  const config = container.get<AppConfig>(TOKENS.Config);
  const logger = container.get<Logger>(TOKENS.Logger);
  const app = express();
  // The shop's frame, also for the pages the renewal e-mails' links open (handlers/renewal-link.page.ts).
  const frame = shopFrame(container, options.webDist);
  app.locals[SHOP_FRAME] = frame;
  app.disable('x-powered-by');
  app.set('trust proxy', trust);
  app.set('etag', 'strong');
  // What every request gets first, in order. The request id comes first of all: every log line
  // of the request, the access log's included, carries it.
  app.use(requestId);
  if (options.accessLog !== false) app.use(accessLog(logger));
  app.use(metrics.observe);
  app.use(securityHeaders(config));
  // Probes and scrapes: /healthz, /readyz, /metrics (off unless METRICS_TOKEN is set).
  app.use(healthRoutes(container));
  app.use(metrics.routes);
  // Calls that answer with bytes compressed once (the catalog reads, cacheable by any HTTP cache):
  // ahead of compression. The front door answers them before Express; these serve the rest
  // (another path spelling, an invalid query) and supertest.
  app.use(tableRouter(container, table, 'precompressed'));
  // Compression for pages, files and the API's other answers (the CSV export). The route table's
  // JSON answers compress themselves as they are sent (sendJson), and skip it: wrapping the
  // response alone cost a panel read about 0.1 ms of CPU (bench:api). The table's other lines
  // carry it themselves (router.ts).
  const compress = compression();
  app.use((req, res, next) => (API_PATH.test(req.url) ? next() : compress(req, res, next)));
  app.use('/api', (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  // Provider notifications need the raw bytes: mounted before the JSON parser.
  app.use(tableRouter(container, table, 'raw-body'));
  // Calls whose declaration allows a larger JSON body (the catalog editor saves a whole platform, texts in two languages).
  for (const line of table.filter((candidate) => candidate.body && candidate.bodyLimit))
    app.use(line.path, express.json({ limit: line.bodyLimit, strict: true }));
  app.use('/api', express.json({ limit: JSON_BODY_LIMIT, strict: true }));
  app.use('/api', inputGuard);
  app.use(tableRouter(container, table, 'api'));
  app.use('/api', apiNotFound);
  app.use(mediaUploadRoutes(container));
  app.use(staticRoutes(container, options.webDist, frame));
  app.use(errorHandler(logger, container.get(OperationsService)));
  return app;
}
