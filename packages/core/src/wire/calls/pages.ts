/**
 * The server-rendered pages: not JSON calls, so not in the OpenAPI document, but declared like
 * the calls (docs/api.md lists them) and bound the same way. The storefront's HTML is rendered
 * by the web app's server bundle through the contract in wire/ssr.ts.
 */
import * as yup from 'yup';
import { declare } from '../declare.js';

export const storefrontPage = declare({
  operationId: 'storefrontPage',
  method: 'get',
  path: '/{*splat}',
  access: 'public',
  tag: 'pages',
  summary: 'Any storefront page (home, platform, content, private pages), rendered by React on the server',
  description:
    'The catalog read from the storefront cache (forgotten when the catalog version moves: core/src/modules/catalog/catalog.service.ts), ' +
    'rendered by the web bundle (wire/ssr.ts contract; web/src/entry-server.tsx). 404 for an unknown platform or page; 503 before the web app is built.',
  answer: { status: 200, contentType: 'text/html', description: 'The page: head, markup and the state the browser starts from.' },
  errors: [],
  servedBy: 'http/src/seo/storefront.ts',
});

export const demoCheckoutPage = declare({
  operationId: 'demoCheckoutPage',
  method: 'get',
  path: '/demo-checkout/:token',
  access: 'public',
  tag: 'pages',
  summary: "The demo provider's checkout page (Pay or Cancel; no money moves)",
  description: '404 with a page saying so when the token is not valid or its method is no longer served by the demo.',
  params: yup.object({ token: yup.string().required() }),
  answer: { status: 200, contentType: 'text/html', description: 'The demo checkout page.' },
  errors: [],
  servedBy: 'http/src/handlers/demo-checkout.page.ts',
});

export const robotsTxt = declare({
  operationId: 'robotsTxt',
  method: 'get',
  path: '/robots.txt',
  access: 'public',
  tag: 'pages',
  summary: 'Where crawlers may go, and the sitemap',
  answer: { status: 200, contentType: 'text/plain', description: 'robots.txt' },
  errors: [],
  servedBy: 'http/src/seo/storefront.ts',
});

export const faviconIco = declare({
  operationId: 'faviconIco',
  method: 'get',
  path: '/favicon.ico',
  access: 'public',
  tag: 'pages',
  summary: "The shop's icon (the web app's favicon.svg), where browsers look for it on a page without an icon link",
  answer: { status: 200, contentType: 'image/svg+xml', description: 'The icon (SVG; browsers read it by its type, whatever the name).' },
  errors: [],
  servedBy: 'http/src/static.ts',
});

export const sitemapXml = declare({
  operationId: 'sitemapXml',
  method: 'get',
  path: '/sitemap.xml',
  access: 'public',
  tag: 'pages',
  summary: 'Every public page in both languages',
  answer: { status: 200, contentType: 'application/xml', description: 'The sitemap.' },
  errors: [],
  servedBy: 'http/src/seo/sitemap.ts',
});
