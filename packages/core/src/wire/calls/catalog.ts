/** The storefront's catalog reads, and the staff's list of every platform. */
import { declare } from '../declare.js';
import * as catalog from '../catalog.js';

export const getHome = declare({
  operationId: 'getHome',
  method: 'get',
  path: '/api/main/home',
  access: 'public',
  tag: 'catalog',
  summary: 'Home page: the platform grid with prices',
  description: "Without languageId and currency, the visitor's language and country decide.",
  query: catalog.homeQuery,
  answer: catalog.homeAnswer,
  errors: [],
  servedBy: 'http/src/handlers/catalog.handlers.ts',
});

export const getPlatform = declare({
  operationId: 'getPlatform',
  method: 'get',
  path: '/api/platform/getplatform',
  access: 'public',
  tag: 'catalog',
  summary: 'One platform with durations, types, prices and FAQ',
  description: '404 `platform_not_found` for an unknown or disabled platform.',
  query: catalog.platformQuery,
  answer: catalog.platformAnswer,
  errors: ['platform_not_found'],
  servedBy: 'http/src/handlers/catalog.handlers.ts',
});

export const getCountry = declare({
  operationId: 'getCountry',
  method: 'get',
  path: '/api/main/getcountry',
  access: 'public',
  tag: 'catalog',
  summary: "The visitor's language from their country (1 English, 2 Korean)",
  answer: catalog.countryAnswer,
  errors: [],
  servedBy: 'http/src/middleware/visitor.ts',
});

export const getBusiness = declare({
  operationId: 'getBusiness',
  method: 'get',
  path: '/api/main/business',
  access: 'public',
  tag: 'catalog',
  summary: "The shop's business details (footer, policy pages)",
  extra: true,
  answer: catalog.businessAnswer,
  errors: [],
  servedBy: 'core/src/shared/config.ts',
});

export const getAllPlatforms = declare({
  operationId: 'getAllPlatforms',
  method: 'get',
  path: '/api/platform/getplatforms',
  access: 'staff',
  tag: 'staff',
  summary: 'Every platform in English, enabled or not (admin forms)',
  description: 'The `getplatform` shape plus `isEnabled`; read from the database, not the storefront cache.',
  answer: catalog.allPlatformsAnswer,
  errors: [],
  servedBy: 'core/src/modules/catalog/catalog.service.ts',
});
