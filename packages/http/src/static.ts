/**
 * Serves the built web app and media. Hashed assets are immutable for a year; the HTML is
 * revalidated on every load (ETag) so a deploy is picked up at once. Every client route gets
 * index.html filled in for that URL (seo/): the storefront pages rendered by React on the server
 * (the web app's bundle in packages/web/dist-server), their title, meta tags, `<html lang>` and
 * state; plus /robots.txt and /sitemap.xml.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { Container } from 'inversify';
import { TOKENS, type AppConfig, CatalogService, type Logger } from '@subshare/core';
import { calls } from '@subshare/core/wire';
import { Storefront } from './seo/index.js';
import { bundleLoader } from './seo/renderer.js';
import { storefrontFormRoutes } from './storefront-forms.js';

// packages/http/{src,dist} → packages/web/dist and packages/http/media
const PACKAGES_DIR = fileURLToPath(new URL('../../', import.meta.url));
export const DEFAULT_WEB_DIST = path.join(PACKAGES_DIR, 'web', 'dist');
/** The server bundle is built next to dist/ (`dist-server/`); a web build copied elsewhere without it uses the package's own. */
function serverBundleOf(webDist: string): string {
  const beside = path.join(path.dirname(webDist), 'dist-server', 'entry-server.js');
  return existsSync(beside) ? beside : path.join(PACKAGES_DIR, 'web', 'dist-server', 'entry-server.js');
}
export const MEDIA_DIR = path.join(PACKAGES_DIR, 'http', 'media');

const YEAR_SECONDS = 365 * 24 * 3600;

/** Where app.locals keeps the ShopFrame (for the pages outside static.ts that show the shop's frame). */
export const SHOP_FRAME = 'shopFrame';

/** The storefront's renderer and the built index.html it fills in (read once it exists). */
export interface ShopFrame {
  storefront: Storefront;
  indexHtml(): string | undefined;
}

export function shopFrame(container: Container, webDist = DEFAULT_WEB_DIST): ShopFrame {
  const config = container.get<AppConfig>(TOKENS.Config);
  const storefront = new Storefront(container.get(CatalogService), config, bundleLoader(serverBundleOf(webDist)));
  const indexFile = path.join(webDist, 'index.html');
  let indexHtml: string | undefined;
  return {
    storefront,
    indexHtml: () => (indexHtml ??= existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : undefined),
  };
}

export function staticRoutes(container: Container, webDist = DEFAULT_WEB_DIST, frame = shopFrame(container, webDist)): Router {
  const config = container.get<AppConfig>(TOKENS.Config);
  const logger = container.get<Logger>(TOKENS.Logger);
  const { storefront } = frame;
  const router = express.Router();

  // The storefront's forms for a visitor without script (or before it runs): /display, /checkout.
  router.use(storefrontFormRoutes(container));

  router.get(calls.pages.robotsTxt.path, (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('text/plain').send(storefront.robots());
  });
  router.get(calls.pages.sitemapXml.path, async (_req: Request, res: Response, next: NextFunction) => {
    try {
      const xml = await storefront.sitemap();
      if (xml === undefined) {
        res.status(503).type('text/plain').send('The web app is not built yet. Run `npm run build`.');
        return;
      }
      res.setHeader('Cache-Control', 'public, max-age=3600');
      res.type('application/xml').send(xml);
    } catch (error) {
      next(error);
    }
  });

  // Asked for by browsers on pages without <link rel=icon> (a JSON answer, an image) and by other
  // clients: the web app's SVG icon, which browsers read by its content type whatever the name.
  const favicon = path.join(webDist, 'favicon.svg');
  router.get(calls.pages.faviconIco.path, (_req, res, next) => {
    if (!existsSync(favicon)) return next();
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.type('image/svg+xml').sendFile(favicon);
  });

  router.use(calls.pages.mediaFile.path, express.static(MEDIA_DIR, { maxAge: '1d', fallthrough: false, index: false }));
  router.use(
    '/assets',
    express.static(path.join(webDist, 'assets'), {
      index: false,
      fallthrough: false,
      setHeaders: (res) => res.setHeader('Cache-Control', `public, max-age=${YEAR_SECONDS}, immutable`),
    }),
  );
  router.use(express.static(webDist, { index: false, maxAge: '1h' }));

  router.get(calls.pages.storefrontPage.path, async (req: Request, res: Response) => {
    const indexHtml = frame.indexHtml();
    if (!indexHtml) {
      res.status(503).type('text/plain').send('The web app is not built yet. Run `npm run build`.');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    // Without ?lang and ?currency, the page follows the visitor's language and country.
    res.vary('Accept-Language');
    res.vary('Cookie');
    if (config.countryHeader) res.vary(config.countryHeader);
    try {
      const page = await storefront.render(indexHtml, req);
      res.status(page.status).setHeader('ETag', page.etag);
      res.type('html').send(page.body);
    } catch (error) {
      // The catalog is unreachable: the bare app shell still loads and shows its own error.
      logger.error({ err: error, path: req.path }, 'rendering the storefront page failed; serving the plain app shell');
      res.type('html').send(indexHtml);
    }
  });
  return router;
}
