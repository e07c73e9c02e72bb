/**
 * The storefront's catalog reads, answered with bytes serialized and compressed once per
 * catalog version, language and currency (serializers/cached-json.ts). Without explicit
 * parameters the answer follows the visitor's language and country. They use Node's own request
 * and response only, as they are answered ahead of Express (lane.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Container } from 'inversify';
import { CATALOG, TOKENS, type AppConfig, type CatalogService, type LanguageId, type PlatformView } from '@subshare/core';
import type { catalog as wire } from '@subshare/core/wire';
import { addVary, JsonCache, sendCachedJson } from '../serializers/cached-json.js';
import { serializePlatform } from '../serializers/platform.serializer.js';
import { chooseCurrency, defaultLanguage, visitorCountry } from '../middleware/visitor.js';

export function catalogHandlers(container: Container) {
  const catalog = container.get<CatalogService>(CATALOG.Service);
  const config = container.get<AppConfig>(TOKENS.Config);
  // Serialized answers per catalog list (one per language), so they go when the catalog reloads.
  const bodies = new JsonCache<PlatformView[]>();
  const language = (req: IncomingMessage, requested?: LanguageId): LanguageId => requested ?? defaultLanguage(visitorCountry(req, config));
  const varyBy = config.countryHeader ? `Accept-Language, ${config.countryHeader}` : 'Accept-Language';

  return {
    /** GET /api/main/home: every enabled platform. */
    async home(req: IncomingMessage, res: ServerResponse, query: wire.HomeQuery): Promise<void> {
      const currencyCode = chooseCurrency(req, config, query.currency);
      const platforms = await catalog.listPlatforms(language(req, query.languageId));
      addVary(res, varyBy);
      const answer = (): wire.HomeAnswer => ({ platforms: platforms.map(serializePlatform), currencyCode });
      sendCachedJson(req, res, bodies.get(platforms, `home:${currencyCode}`, answer));
    },

    /** GET /api/platform/getplatform: one platform (404 platform_not_found). */
    async getPlatform(req: IncomingMessage, res: ServerResponse, query: wire.PlatformQuery): Promise<void> {
      const currencyCode = chooseCurrency(req, config, query.currency);
      const languageId = language(req, query.languageId);
      const platforms = await catalog.listPlatforms(languageId);
      const platform = platforms.find((candidate) => candidate.id === query.id) ?? (await catalog.getPlatform(query.id, languageId));
      addVary(res, varyBy);
      const answer = (): wire.PlatformAnswer => ({ platform: serializePlatform(platform), currencyCode });
      sendCachedJson(req, res, bodies.get(platforms, `platform:${platform.id}:${currencyCode}`, answer));
    },
  };
}
