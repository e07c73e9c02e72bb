/**
 * Every API route, one line each: method, path, handler. Guards and schemas come with the
 * calls that need them; handlers stay thin and make one core call.
 */
import { Router } from 'express';
import type { Container } from 'inversify';
import { json } from '../middleware/async.js';
import { catalogHandlers } from '../handlers/catalog.handlers.js';
import { mainHandlers } from '../handlers/main.handlers.js';

export function apiRoutes(container: Container): Router {
  const router = Router();
  const main = mainHandlers(container);
  const catalog = catalogHandlers(container);

  router.get('/api/health', json(main.health));
  router.get('/api/main/home', json(catalog.home));
  router.get('/api/main/getcountry', json(main.getCountry));
  router.get('/api/main/loginpagedata', json(main.loginPageData));
  router.get('/api/main/business', json(main.business));
  router.get('/api/platform/getplatform', json(catalog.getPlatform));

  return router;
}
