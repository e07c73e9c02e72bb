/**
 * The route table: every call of the API, one `bind(declaration, handler)` line each, grouped by
 * area (one file an area). The declarations (`@subshare/core/wire` calls/) say what each call
 * is; the router (router.ts), the guards and `/api/openapi.json` are built from them.
 */
import type { Container } from 'inversify';
import { DECLARATIONS, calls, type Declaration } from '@subshare/core/wire';
import { accountCalls } from './account.routes.js';
import type { Call } from './call.js';
import { catalogAdminCalls } from './catalog-admin.routes.js';
import { catalogCalls } from './catalog.routes.js';
import { emailCalls } from './email.routes.js';
import { operationsCalls } from './operations.routes.js';
import { ordersCalls } from './orders.routes.js';
import { panelCalls } from './panel.routes.js';
import { paymentsCalls } from './payments.routes.js';
import { promotionsCalls } from './promotions.routes.js';
import { refundsCalls } from './refunds.routes.js';
import { renewalsCalls } from './renewals.routes.js';
import { staffCalls } from './staff.routes.js';
import { subscriptionsCalls } from './subscriptions.routes.js';

export function routeTable(container: Container): Call[] {
  const table: Call[] = [];
  table.push(
    ...catalogCalls(container),
    ...catalogAdminCalls(container),
    ...accountCalls(container),
    ...ordersCalls(container),
    ...paymentsCalls(container),
    ...staffCalls(container),
    ...refundsCalls(container),
    ...promotionsCalls(container),
    ...panelCalls(container),
    ...subscriptionsCalls(container),
    ...renewalsCalls(container),
    ...emailCalls(container),
    ...operationsCalls(container, () => table),
  );
  assertEveryCallBound(table);
  return table;
}

/** The pages static.ts serves with the web app's files (by their declared paths). */
export const PAGES_BOUND_IN_STATIC: readonly Declaration[] = [
  calls.pages.storefrontPage,
  calls.pages.robotsTxt,
  calls.pages.sitemapXml,
  calls.pages.faviconIco,
];

/**
 * The routes outside /api served by routers of their own, each by its declared path: the probes
 * (health.ts), /metrics (metrics.ts), media (static.ts, media-uploads.ts) and the storefront's two
 * forms (storefront-forms.ts). Declared so docs/api.md lists them with the rest.
 */
export const BOUND_OUTSIDE_THE_TABLE: readonly Declaration[] = [
  calls.pages.healthz,
  calls.pages.readyz,
  calls.pages.metrics,
  calls.pages.mediaFile,
  calls.pages.mediaUpload,
  calls.pages.displayChoice,
  calls.pages.checkoutRedirect,
];

/** A declaration without a line (or with two) is a call the document promises and nobody serves: refuse to start. */
function assertEveryCallBound(table: Call[]): void {
  const bound = new Map<string, number>();
  for (const line of table) bound.set(line.operationId, (bound.get(line.operationId) ?? 0) + 1);
  for (const page of [...PAGES_BOUND_IN_STATIC, ...BOUND_OUTSIDE_THE_TABLE]) bound.set(page.operationId, (bound.get(page.operationId) ?? 0) + 1);
  const wrong = DECLARATIONS.filter((declaration) => bound.get(declaration.operationId) !== 1).map((declaration) => declaration.operationId);
  if (wrong.length > 0 || bound.size !== DECLARATIONS.length)
    throw new Error(`Declarations not bound exactly once: ${wrong.join(', ') || 'a line without a declaration'}.`);
}
