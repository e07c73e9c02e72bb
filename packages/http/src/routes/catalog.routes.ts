/**
 * Catalog calls. The storefront's two reads are served precompressed: their answers are
 * serialized and compressed once per catalog version (handlers/catalog.handlers.ts), so they
 * are mounted ahead of the compression middleware; any HTTP cache may keep them (ETag,
 * Cache-Control with s-maxage and stale-while-revalidate).
 */
import type { Container } from 'inversify';
import { CATALOG, TOKENS, type AppConfig, type CatalogService } from '@subshare/core';
import * as wire from '@subshare/core/wire';
import { catalogHandlers } from '../handlers/catalog.handlers.js';
import { defaultLanguage, visitorCountry } from '../middleware/visitor.js';
import { serializePlatform } from '../serializers/platform.serializer.js';
import { call, type Call } from './call.js';

export function catalogCalls(container: Container): Call[] {
  const catalog = container.get<CatalogService>(CATALOG.Service);
  const config = container.get<AppConfig>(TOKENS.Config);
  const cached = catalogHandlers(container);
  return [
    call({
      method: 'get',
      path: '/api/main/home',
      access: 'public',
      tag: 'catalog',
      summary: 'Home page: the platform grid with prices',
      description: "Without languageId and currency, the visitor's language and country decide.",
      stage: 'precompressed',
      query: wire.catalog.homeQuery,
      answer: wire.catalog.homeAnswer,
      plain: ({ req, res, query }) => cached.home(req, res, query),
    }),
    call({
      method: 'get',
      path: '/api/platform/getplatform',
      access: 'public',
      tag: 'catalog',
      summary: 'One platform with durations, types, prices and FAQ',
      description: '404 `platform_not_found` for an unknown or disabled platform.',
      stage: 'precompressed',
      query: wire.catalog.platformQuery,
      answer: wire.catalog.platformAnswer,
      plain: ({ req, res, query }) => cached.getPlatform(req, res, query),
    }),
    call({
      method: 'get',
      path: '/api/main/getcountry',
      access: 'public',
      tag: 'catalog',
      summary: "The visitor's language from their country (1 English, 2 Korean)",
      answer: wire.catalog.countryAnswer,
      handler: ({ req }) => defaultLanguage(visitorCountry(req, config)),
    }),
    call({
      method: 'get',
      path: '/api/main/business',
      access: 'public',
      tag: 'catalog',
      summary: "The shop's business details (footer, policy pages)",
      extra: true,
      answer: wire.catalog.businessAnswer,
      handler: () => config.business,
    }),
    call({
      method: 'get',
      path: '/api/platform/getplatforms',
      access: 'staff',
      tag: 'staff',
      summary: 'Every platform in English, enabled or not (admin forms)',
      description: 'The `getplatform` shape plus `isEnabled`; read from the database, not the storefront cache.',
      answer: wire.catalog.allPlatformsAnswer,
      handler: async () => (await catalog.listAllPlatforms(1)).map((platform) => ({ ...serializePlatform(platform), isEnabled: platform.isEnabled })),
    }),
  ];
}
