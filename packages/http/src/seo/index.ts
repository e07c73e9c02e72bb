// Search engines and first paint: per-URL head tags, pre-rendered storefront markup, sitemap and robots.
export { Storefront, requestedCurrency, requestedLanguage, type RenderedPage } from './storefront.js';
export { matchRoute, type StorefrontRoute } from './routes.js';
export { compileTemplate } from './template.js';
