import type { Request, Response } from 'express';
import type { Container } from 'inversify';
import type * as yup from 'yup';
import { CATALOG, TOKENS, type AppConfig, type CatalogService, type LanguageId, type PlatformView } from '@subshare/core';
import { parse } from '../schemas/parse.js';
import { getPlatformQuery, homeQuery } from '../schemas/catalog.schemas.js';
import { JsonCache, sendCachedJson } from '../serializers/cached-json.js';
import { serializePlatform } from '../serializers/platform.serializer.js';
import { chooseCurrency, defaultLanguage, visitorCountry } from '../middleware/visitor.js';

/**
 * A query schema's result per raw query string. The catalog calls see few distinct query
 * strings, and validating each request again was a measurable share of their time. Invalid
 * queries throw as usual and are not kept; the memory is bounded.
 */
function memoizedQuery<S extends yup.AnyObjectSchema>(schema: S, max = 1_000): (req: Request) => yup.InferType<S> {
  const parsed = new Map<string, yup.InferType<S>>();
  return (req) => {
    const at = req.url.indexOf('?');
    const raw = at === -1 ? '' : req.url.slice(at + 1);
    let value = parsed.get(raw);
    if (value === undefined) {
      value = parse(schema, req.query);
      if (parsed.size >= max) parsed.clear();
      parsed.set(raw, value);
    }
    return value;
  };
}

export function catalogHandlers(container: Container) {
  const catalog = container.get<CatalogService>(CATALOG.Service);
  const config = container.get<AppConfig>(TOKENS.Config);
  // Serialized answers per catalog list (one per language), so they go when the catalog reloads.
  const bodies = new JsonCache<PlatformView[]>();
  const homeQueryOf = memoizedQuery(homeQuery);
  const platformQueryOf = memoizedQuery(getPlatformQuery);
  const language = (req: Request, requested?: number): LanguageId => (requested as LanguageId | undefined) ?? defaultLanguage(visitorCountry(req, config));
  // Without explicit parameters the answer follows the visitor's language and country.
  const vary = (res: Response) => {
    res.vary('Accept-Language');
    if (config.countryHeader) res.vary(config.countryHeader);
  };

  return {
    /** GET /api/main/home → { platforms, currencyCode } */
    async home(req: Request, res: Response) {
      const query = homeQueryOf(req);
      const currencyCode = chooseCurrency(req, config, query.currency);
      const platforms = await catalog.listPlatforms(language(req, query.languageId));
      vary(res);
      sendCachedJson(
        req,
        res,
        bodies.get(platforms, `home:${currencyCode}`, () => ({ platforms: platforms.map(serializePlatform), currencyCode })),
      );
    },

    /**
     * GET /api/platform/getplatforms (staff): every platform in English, enabled or not, in the
     * spec's platform shape plus `isEnabled` (the admin forms pick a platform and its slotsCount).
     */
    async getPlatforms() {
      return (await catalog.listAllPlatforms(1)).map((platform) => ({ ...serializePlatform(platform), isEnabled: platform.isEnabled }));
    },

    /** GET /api/platform/getplatform?id&languageId → { platform, currencyCode } */
    async getPlatform(req: Request, res: Response) {
      const query = platformQueryOf(req);
      const currencyCode = chooseCurrency(req, config, query.currency);
      const languageId = language(req, query.languageId);
      const platforms = await catalog.listPlatforms(languageId);
      const platform = platforms.find((candidate) => candidate.id === query.id) ?? (await catalog.getPlatform(query.id, languageId));
      vary(res);
      sendCachedJson(
        req,
        res,
        bodies.get(platforms, `platform:${platform.id}:${currencyCode}`, () => ({ platform: serializePlatform(platform), currencyCode })),
      );
    },
  };
}
