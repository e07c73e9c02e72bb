import { Router } from 'express';
import type { Container } from 'inversify';
import { TOKENS, type AppConfig } from '@subshare/core';
import { openApiDocument } from './document.js';

export { API_CALLS, type Access, type ApiCall } from './calls.js';

/** GET /api/openapi.json: the description of every call, built once per process. */
export function openApiRoutes(container: Container): Router {
  const body = JSON.stringify(openApiDocument(container.get<AppConfig>(TOKENS.Config).publicUrl));
  const router = Router();
  router.get('/api/openapi.json', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').type('application/json').send(body);
  });
  return router;
}
