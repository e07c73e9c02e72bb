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
import { JsonCache, sendCachedJson } from '../serializers/cached-json.js';
import { serializePlatform } from '../serializers/platform.serializer.js';
import { currencyFor, defaultLanguage, visitorCountry } from '../middleware/visitor.js';

export function catalogHandlers(container: Container) {
  const catalog = container.get<CatalogService>(CATALOG.Service);
  const config = container.get<AppConfig>(TOKENS.Config);
  // Serialized answers per catalog list (one per language), so they go when the catalog reloads.
  const bodies = new JsonCache<PlatformView[]>();
  /** The answer's language and currency: what the query names, else what the visitor's country says (read once). */
  const choose = (req: IncomingMessage, query: { languageId?: LanguageId; currency?: string }) => {
    const country = visitorCountry(req, config);
    return { languageId: query.languageId ?? defaultLanguage(country), currencyCode: currencyFor(country, query.currency) };
  };
  const varyBy = config.countryHeader ? `Accept-Language, ${config.countryHeader}` : 'Accept-Language';

  return {
    /** GET /api/main/home: every enabled platform. */
    async home(req: IncomingMessage, res: ServerResponse, query: wire.HomeQuery): Promise<void> {
      const { languageId, currencyCode } = choose(req, query);
      const platforms = await catalog.listPlatforms(languageId);
      const answer = (): wire.HomeAnswer => ({ platforms: platforms.map(serializePlatform), currencyCode });
      sendCachedJson(req, res, bodies.get(platforms, `home:${currencyCode}`, answer), varyBy);
    },

    /** GET /api/platform/getplatform: one platform (404 platform_not_found). */
    async getPlatform(req: IncomingMessage, res: ServerResponse, query: wire.PlatformQuery): Promise<void> {
      const { languageId, currencyCode } = choose(req, query);
      const platforms = await catalog.listPlatforms(languageId);
      const platform = platforms.find((candidate) => candidate.id === query.id) ?? (await catalog.getPlatform(query.id, languageId));
      const answer = (): wire.PlatformAnswer => ({ platform: serializePlatform(platform), currencyCode });
      sendCachedJson(req, res, bodies.get(platforms, `platform:${platform.id}:${currencyCode}`, answer), varyBy);
    },
  };
}
