/**
 * The server-rendered pages: not JSON calls, so not in the OpenAPI document, but declared like
 * the calls (docs/api.md lists them) and bound the same way. The storefront's HTML is rendered
 * by the web app's server bundle through the contract in wire/ssr.ts.
 */
import * as yup from 'yup';
import { PAGES, pagePattern } from '../../pages/index.js';
import { CHECKOUT_PATH, DISPLAY_CHOICE_PATH } from '../../storefront/index.js';
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

// Routes outside /api that are neither pages nor JSON calls of the table: probes, metrics, media
// and the storefront's two plain-HTML forms. Served by Express routers of their own (each by its
// declared path), listed in packages/http/src/routes/table.ts's BOUND_OUTSIDE_THE_TABLE.

export const healthz = declare({
  operationId: 'healthz',
  method: 'get',
  path: '/healthz',
  access: 'public',
  tag: 'operations',
  summary: 'Liveness: the process answers (no database call, so an outage never restarts healthy processes)',
  answer: { status: 200, contentType: 'application/json', description: '`{ "status": "alive" }`' },
  errors: [],
  servedBy: 'http/src/health.ts',
});

export const readyz = declare({
  operationId: 'readyz',
  method: 'get',
  path: '/readyz',
  access: 'public',
  tag: 'operations',
  summary: 'Readiness: send this process traffic? (database answers in time, migrations applied, not draining)',
  description:
    "503 `{ status: 'not_ready', reasons }` with every reason that holds: draining, database_unreachable, database_timeout, migrations_pending, database_disk_full.",
  answer: { status: 200, contentType: 'application/json', description: "`{ status: 'ready', database: 'ok', pendingMigrations: 0 }`" },
  errors: [],
  servedBy: 'http/src/health.ts',
});

export const metrics = declare({
  operationId: 'metrics',
  method: 'get',
  path: '/metrics',
  access: 'public',
  tag: 'operations',
  summary: 'Prometheus metrics: requests by route template, jobs, the outbox, activations, renewals',
  description: 'Needs `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise); 404 when METRICS_TOKEN is not set.',
  answer: { status: 200, contentType: 'text/plain', description: "Prometheus's text format." },
  errors: [],
  servedBy: 'http/src/metrics.ts',
});

export const mediaFile = declare({
  operationId: 'mediaFile',
  method: 'get',
  path: '/media',
  access: 'public',
  tag: 'pages',
  summary: "The shop's own media under /media/… (the demo catalog's logos, the hero image), cached a day",
  answer: { status: 200, contentType: 'image/svg+xml', description: 'The file, by its type; 404 for an unknown name.' },
  errors: [],
  servedBy: 'http/src/static.ts',
});

export const mediaUpload = declare({
  operationId: 'mediaUpload',
  method: 'get',
  path: '/media/uploads/:name',
  access: 'public',
  tag: 'pages',
  summary: 'An uploaded logo (`<sha256>.<ext>`), from the database, with immutable caching',
  params: yup.object({ name: yup.string().required() }),
  answer: { status: 200, contentType: 'image/svg+xml', description: 'The logo (SVG, PNG or WebP); 404 JSON `not_found` for an unknown name.' },
  errors: [],
  servedBy: 'http/src/media-uploads.ts',
});

export const displayChoice = declare({
  operationId: 'displayChoice',
  method: 'post',
  path: DISPLAY_CHOICE_PATH,
  access: 'public',
  tag: 'pages',
  summary: 'The language and currency chooser without script: stores the choice in its display cookie',
  description: 'A form post (`lang` en/ko, `currency` EUR/KRW, `return`): 400 `validation` for another value.',
  answer: { status: 303, description: 'Back to `return` (a path of this shop, else /).' },
  errors: [],
  servedBy: 'http/src/storefront-forms.ts',
});

export const checkoutRedirect = declare({
  operationId: 'checkoutRedirect',
  method: 'get',
  path: CHECKOUT_PATH,
  access: 'public',
  tag: 'pages',
  summary: "The platform page's Go to payment without script: on to the payment page, or to login first",
  description: `\`?platform=&type=&duration=\` (and optionally \`code=\`, a promotion code the platform page's link carried, passed on when it can be one): 303 to \`${pagePattern(PAGES.payment)}?…\` for a verified caller, else to \`${pagePattern(PAGES.login)}?returnUrl=…\`; 400 \`invalid_choice\` when a field is missing or not a positive id.`,
  answer: { status: 303, description: 'A redirect to the payment page or the login page.' },
  errors: ['invalid_choice'],
  servedBy: 'http/src/storefront-forms.ts',
});
