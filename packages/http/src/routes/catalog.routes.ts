/**
 * The catalog reads that every storefront page makes, mounted ahead of the compression
 * middleware (app.ts): their answers are serialized and compressed once per catalog version
 * (serializers/cached-json.ts), so compressing them again per request would only cost time.
 * Same style as routes/index.ts: method, path, guard, handler.
 */
import { Router, type RequestHandler } from 'express';
import type { Container } from 'inversify';
import { catalogHandlers } from '../handlers/catalog.handlers.js';
import { json } from '../middleware/async.js';
import { guards } from '../middleware/auth.js';

// The API's default (app.ts sets it for /api after compression, which these routes come before).
const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

export function catalogReadRoutes(container: Container): Router {
  const router = Router();
  const can = guards(container);
  const catalog = catalogHandlers(container);

  router.get('/api/main/home', ...can.public, noStore, json(catalog.home));
  router.get('/api/platform/getplatform', ...can.public, noStore, json(catalog.getPlatform));

  return router;
}
