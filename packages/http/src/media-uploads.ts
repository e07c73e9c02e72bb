/**
 * Logos uploaded through the catalog editor, from PostgreSQL, so every `serve` process answers
 * the same URL (`/media/uploads/<sha256>.<ext>`). The name is the hash of the bytes, so the
 * answer never changes: cached for a year, immutable. `nosniff` keeps browsers to the stored
 * type, and an SVG gets a policy that runs nothing and loads nothing, whatever got past the
 * sanitiser, should one be opened directly.
 */
import { Router } from 'express';
import type { Container } from 'inversify';
import { LOGO_TYPES, MediaStore } from '@subshare/core';
import { calls } from '@subshare/core/wire';

const NAME = /^([0-9a-f]{64})\.(svg|png|webp)$/;

export function mediaUploadRoutes(container: Container): Router {
  const media = container.get(MediaStore);
  const router = Router();
  router.get(calls.pages.mediaUpload.path, async (req, res, next) => {
    try {
      const name = req.params.name;
      const match = NAME.exec(typeof name === 'string' ? name : '');
      const file = match ? await media.get(match[1]!) : undefined;
      if (!file || LOGO_TYPES[file.contentType] !== match![2]) {
        res.status(404).json({ message: 'Not found.', code: 'not_found' });
        return;
      }
      res.setHeader('Content-Type', file.contentType);
      res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('ETag', `"${match![1]}"`);
      if (file.contentType === 'image/svg+xml') res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
      if (req.headers['if-none-match'] === `"${match![1]}"`) {
        res.status(304).end();
        return;
      }
      res.send(file.body);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
