import type { Request, Response } from 'express';
import type { Container } from 'inversify';
import { OPERATIONS, TOKENS, type AppConfig, type OperationsService } from '@subshare/core';
import { defaultLanguage, visitorCountry } from '../middleware/visitor.js';

export function mainHandlers(container: Container) {
  const config = container.get<AppConfig>(TOKENS.Config);
  const operations = container.get<OperationsService>(OPERATIONS.Service);

  return {
    /** GET /api/health: 200 when the shop can serve, 503 otherwise. */
    async health(_req: Request, res: Response) {
      const report = await operations.health();
      res.status(report.database === 'ok' ? 200 : 503).json(report);
    },
    /** GET /api/main/getcountry → a language id (2 for Korean visitors, else 1). */
    getCountry(req: Request) {
      return defaultLanguage(visitorCountry(req, config));
    },
    /** GET /api/main/loginpagedata → { country: "KR" | "GLOBAL" } */
    loginPageData(req: Request) {
      return { country: visitorCountry(req, config) };
    },
    /** GET /api/main/business: the business details for the footer and policy pages. */
    business() {
      return config.business;
    },
  };
}
