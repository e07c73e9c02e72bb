/**
 * Every call of the API and every server-rendered page, declared once (one file per area). The
 * HTTP server binds a handler to each (packages/http/src/routes), and the OpenAPI document, the
 * web's client and docs/api.md are derived from them. A test holds operationIds unique and every
 * declaration bound.
 */
import type { Declaration } from '../declare.js';
import * as account from './account.js';
import * as catalogAdmin from './catalog-admin.js';
import * as catalog from './catalog.js';
import * as email from './email.js';
import * as operations from './operations.js';
import * as orders from './orders.js';
import * as pages from './pages.js';
import * as panel from './panel.js';
import * as payments from './payments.js';
import * as promotions from './promotions.js';
import * as refunds from './refunds.js';
import * as renewals from './renewals.js';
import * as staff from './staff.js';
import * as subscriptions from './subscriptions.js';

export { account, catalog, catalogAdmin, email, operations, orders, pages, panel, payments, promotions, refunds, renewals, staff, subscriptions };

const onlyDeclarations = (area: Record<string, unknown>): Declaration[] =>
  Object.values(area).filter((value): value is Declaration => typeof value === 'object' && value !== null && 'operationId' in value);

/** Every declaration, areas in the order the server mounts them. */
export const DECLARATIONS: readonly Declaration[] = [
  catalog,
  catalogAdmin,
  account,
  orders,
  payments,
  staff,
  refunds,
  promotions,
  panel,
  subscriptions,
  renewals,
  email,
  operations,
  pages,
].flatMap(onlyDeclarations);
