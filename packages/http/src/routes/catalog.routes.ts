/**
 * Catalog calls. The storefront's two reads are served precompressed: their answers are
 * serialized and compressed once per catalog version (handlers/catalog.handlers.ts), so they
 * are mounted ahead of the compression middleware; any HTTP cache may keep them (ETag,
 * Cache-Control with s-maxage and stale-while-revalidate).
 */
import type { Container } from 'inversify';
import { TOKENS, type AppConfig, CatalogService } from '@subshare/core';
import { calls } from '@subshare/core/wire';
import { catalogHandlers } from '../handlers/catalog.handlers.js';
import { defaultLanguage, visitorCountry } from '../middleware/visitor.js';
import { serializePlatform } from '../serializers/platform.serializer.js';
import { bind, type Call } from './call.js';

export function catalogCalls(container: Container): Call[] {
  const catalog = container.get(CatalogService);
  const config = container.get<AppConfig>(TOKENS.Config);
  const cached = catalogHandlers(container);
  return [
    bind(calls.catalog.getHome, undefined, {
      stage: 'precompressed',
      plain: ({ req, res, query }) => cached.home(req, res, query),
    }),
    bind(calls.catalog.getPlatform, undefined, {
      stage: 'precompressed',
      plain: ({ req, res, query }) => cached.getPlatform(req, res, query),
    }),
    bind(calls.catalog.getCountry, ({ req }) => defaultLanguage(visitorCountry(req, config))),
    bind(calls.catalog.getBusiness, () => config.business),
    bind(calls.catalog.getAllPlatforms, async () =>
      (await catalog.listAllPlatforms(1)).map((platform) => ({ ...serializePlatform(platform), isEnabled: platform.isEnabled })),
    ),
  ];
}
