/**
 * The storefront's catalog reads, answered with bytes serialized and compressed once per
 * catalog version, language and currency (serializers/cached-json.ts). Without explicit
 * parameters the answer follows the visitor's language and country.
 *
 * Any HTTP cache may keep them (CATALOG_CACHE_CONTROL): a browser revalidates each time
 * (`max-age=0`, a 304 when its ETag is current), a shared cache (a CDN) serves its copy for
 * `s-maxage` seconds and a stale one for `stale-while-revalidate` more while it asks again. The
 * ETag is the hash of the bytes built for the catalog version this process holds: when the
 * version moves (a staff edit, announced to every process), the bytes are built again, and an
 * answer that changed gets a new ETag, so a revalidation then gets 200 with the new catalog.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Container } from 'inversify';
import { TOKENS, type AppConfig, CatalogService, type LanguageId, type PlatformView } from '@subshare/core';
import type { catalog as wire } from '@subshare/core/wire';
import { JsonCache, sendCachedJson, type CachedJson } from '../serializers/cached-json.js';
import { serializePlatform } from '../serializers/platform.serializer.js';
import { currencyFor, defaultLanguage, visitorCountry } from '../middleware/visitor.js';

/**
 * Browsers revalidate every time; shared caches keep a copy a minute and may serve it up to ten
 * minutes longer while they revalidate in the background. A staff edit therefore reaches a
 * visitor behind a CDN within about a minute (a browser at once), and the shop answers a
 * CDN's requests at most once a minute per language, currency and encoding.
 */
// must-revalidate: a browser never uses a stale copy (Chromium otherwise serves it and revalidates
// in the background, so a buyer could see a price already changed); CDNs keep s-maxage and
// stale-while-revalidate.
export const CATALOG_CACHE_CONTROL = 'public, max-age=0, must-revalidate, s-maxage=60, stale-while-revalidate=600';

export function catalogHandlers(container: Container) {
  const catalog = container.get(CatalogService);
  const config = container.get<AppConfig>(TOKENS.Config);
  // Serialized answers per catalog list (one per language), so they go when the catalog reloads.
  const bodies = new JsonCache<PlatformView[]>();
  /** The answer's language and currency: what the query names, else what the visitor's country says (read once). */
  const choose = (req: IncomingMessage, query: { languageId?: LanguageId; currency?: string }) => {
    const country = visitorCountry(req, config);
    return { languageId: query.languageId ?? defaultLanguage(country), currencyCode: currencyFor(country, query.currency) };
  };
  const varyBy = config.countryHeader ? `Accept-Language, ${config.countryHeader}` : 'Accept-Language';
  const send = (req: IncomingMessage, res: ServerResponse, body: CachedJson) => {
    res.setHeader('Cache-Control', CATALOG_CACHE_CONTROL);
    sendCachedJson(req, res, body, varyBy);
  };

  return {
    /** GET /api/main/home: every enabled platform. */
    async home(req: IncomingMessage, res: ServerResponse, query: wire.HomeQuery): Promise<void> {
      const { languageId, currencyCode } = choose(req, query);
      const platforms = await catalog.listPlatforms(languageId);
      const answer = (): wire.HomeAnswer => ({ platforms: platforms.map(serializePlatform), currencyCode });
      send(req, res, bodies.get(platforms, `home:${currencyCode}`, answer));
    },

    /** GET /api/platform/getplatform: one platform (404 platform_not_found). */
    async getPlatform(req: IncomingMessage, res: ServerResponse, query: wire.PlatformQuery): Promise<void> {
      const { languageId, currencyCode } = choose(req, query);
      const platforms = await catalog.listPlatforms(languageId);
      const platform = platforms.find((candidate) => candidate.id === query.id) ?? (await catalog.getPlatform(query.id, languageId));
      const answer = (): wire.PlatformAnswer => ({ platform: serializePlatform(platform), currencyCode });
      send(req, res, bodies.get(platforms, `platform:${platform.id}:${currencyCode}`, answer));
    },
  };
}
