import type { Request } from 'express';
import type { Container } from 'inversify';
import { CATALOG, TOKENS, type AppConfig, type CatalogService, type LanguageId } from '@subshare/core';
import { parse } from '../schemas/parse.js';
import { getPlatformQuery, homeQuery } from '../schemas/catalog.schemas.js';
import { serializePlatform } from '../serializers/platform.serializer.js';
import { chooseCurrency, defaultLanguage, visitorCountry } from '../middleware/visitor.js';

export function catalogHandlers(container: Container) {
  const catalog = container.get<CatalogService>(CATALOG.Service);
  const config = container.get<AppConfig>(TOKENS.Config);
  const language = (req: Request, requested?: number): LanguageId => (requested as LanguageId | undefined) ?? defaultLanguage(visitorCountry(req, config));

  return {
    /** GET /api/main/home → { platforms, currencyCode } */
    async home(req: Request) {
      const query = parse(homeQuery, req.query);
      const platforms = await catalog.listPlatforms(language(req, query.languageId));
      return { platforms: platforms.map(serializePlatform), currencyCode: chooseCurrency(req, config, query.currency) };
    },

    /** GET /api/platform/getplatform?id&languageId → { platform, currencyCode } */
    async getPlatform(req: Request) {
      const query = parse(getPlatformQuery, req.query);
      const platform = await catalog.getPlatform(query.id, language(req, query.languageId));
      return { platform: serializePlatform(platform), currencyCode: chooseCurrency(req, config, query.currency) };
    },
  };
}
