/**
 * createApp(container): the whole HTTP surface as an Express app, without listening, so
 * tests drive it with supertest and `serve` puts it behind a port.
 */
import compression from 'compression';
import express, { type Express } from 'express';
import helmet from 'helmet';
import type { Container } from 'inversify';
import { TOKENS, type AppConfig, type Logger } from '@subshare/core';
import { healthRoutes } from './health.js';
import { createHttpMetrics } from './metrics.js';
import { apiNotFound, errorHandler } from './middleware/error-handler.js';
import { inputGuard } from './middleware/input-guard.js';
import { requestId } from './middleware/request-id.js';
import { requestLogger } from './middleware/request-logger.js';
import { tableRouter } from './routes/router.js';
import { routeTable } from './routes/table.js';
import { mediaUploadRoutes } from './media-uploads.js';
import { staticRoutes } from './static.js';

export interface AppOptions {
  /** Where the built web app lives; defaults to packages/web/dist. */
  webDist?: string;
  /** Tests silence the access log. */
  accessLog?: boolean;
}

export const JSON_BODY_LIMIT = '32kb';
export const CATALOG_BODY_LIMIT = '256kb';

export function createApp(container: Container, options: AppOptions = {}): Express {
  const config = container.get<AppConfig>(TOKENS.Config);
  const logger = container.get<Logger>(TOKENS.Logger);
  const table = routeTable(container);
  const app = express();
  // Google's sign-in button is a script and an iframe from accounts.google.com, only when configured.
  const google = config.google.clientId ? ['https://accounts.google.com/gsi/'] : [];

  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', 'strong');
  // First of all: every log line of the request, the access log's included, carries its id.
  app.use(requestId);
  if (options.accessLog !== false) app.use(requestLogger(logger));
  const metrics = createHttpMetrics(container);
  app.use(metrics.observe);
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", ...google],
          // Chakra UI (emotion) injects its styles at run time.
          styleSrc: ["'self'", "'unsafe-inline'", ...google],
          imgSrc: ["'self'", 'data:', 'https:'],
          connectSrc: ["'self'", ...google],
          frameSrc: ["'self'", ...google],
          frameAncestors: ["'none'"],
          formAction: ["'self'"],
          upgradeInsecureRequests: config.publicUrl.startsWith('https:') ? [] : null,
        },
      },
      strictTransportSecurity: config.publicUrl.startsWith('https:'),
      // Google's sign-in popup must be able to talk back to the page that opened it,
      // and its button checks the page's origin.
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    }),
  );
  // Probes and scrapes: /healthz, /readyz, /metrics (off unless METRICS_TOKEN is set).
  app.use(healthRoutes(container));
  app.use(metrics.routes);
  // Calls that answer with bytes compressed once (the catalog reads): ahead of compression.
  app.use(tableRouter(container, table, 'precompressed'));
  app.use(compression());
  app.use('/api', (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  // Provider notifications need the raw bytes: mounted before the JSON parser.
  app.use(tableRouter(container, table, 'raw-body'));
  // The catalog editor saves a whole platform (texts in two languages): a larger limit for those two calls.
  app.use(['/api/catalog/createplatform', '/api/catalog/updateplatform'], express.json({ limit: CATALOG_BODY_LIMIT, strict: true }));
  app.use('/api', express.json({ limit: JSON_BODY_LIMIT, strict: true }));
  app.use('/api', inputGuard);
  app.use(tableRouter(container, table, 'api'));
  app.use('/api', apiNotFound);
  app.use(mediaUploadRoutes(container));
  app.use(staticRoutes(container, options.webDist));
  app.use(errorHandler(logger));
  return app;
}
