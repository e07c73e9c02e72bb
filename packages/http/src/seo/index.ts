// The first HTML of storefront URLs (React rendered on the server by the web app's bundle), sitemap and robots.
export { Storefront, requestedCurrency, requestedLanguage, type RenderedPage } from './storefront.js';
export { compileTemplate } from './template.js';
