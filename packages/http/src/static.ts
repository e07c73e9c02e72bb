/**
 * Serves the built web app and media. Hashed assets are immutable for a year; index.html is
 * revalidated on every load so a deploy is picked up at once; client routes get index.html.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';

// packages/http/{src,dist} → packages/web/dist and packages/http/media
const PACKAGES_DIR = fileURLToPath(new URL('../../', import.meta.url));
export const DEFAULT_WEB_DIST = path.join(PACKAGES_DIR, 'web', 'dist');
export const MEDIA_DIR = path.join(PACKAGES_DIR, 'http', 'media');

const YEAR_SECONDS = 365 * 24 * 3600;

export function staticRoutes(webDist = DEFAULT_WEB_DIST): Router {
  const router = express.Router();
  router.use('/media', express.static(MEDIA_DIR, { maxAge: '1d', fallthrough: false, index: false }));
  router.use(
    '/assets',
    express.static(path.join(webDist, 'assets'), {
      index: false,
      fallthrough: false,
      setHeaders: (res) => res.setHeader('Cache-Control', `public, max-age=${YEAR_SECONDS}, immutable`),
    }),
  );
  router.use(express.static(webDist, { index: false, maxAge: '1h' }));

  const indexFile = path.join(webDist, 'index.html');
  let indexHtml: string | undefined;
  router.get('/{*splat}', (_req, res) => {
    indexHtml ??= existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : undefined;
    if (!indexHtml) {
      res.status(503).type('text/plain').send('The web app is not built yet. Run `npm run build`.');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(indexHtml);
  });
  return router;
}
