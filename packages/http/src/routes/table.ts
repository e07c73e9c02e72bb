/**
 * The route table: every call of the API, one `call()` line each, grouped by area (one file an
 * area). A line names method, path, access, the input and answer schemas, a summary and the
 * handler; the router (router.ts), the guards and `/api/openapi.json` are built from it, so a
 * call is described once.
 */
import type { Container } from 'inversify';
import { accountCalls } from './account.routes.js';
import type { Call } from './call.js';
import { catalogAdminCalls } from './catalog-admin.routes.js';
import { catalogCalls } from './catalog.routes.js';
import { emailCalls } from './email.routes.js';
import { operationsCalls } from './operations.routes.js';
import { ordersCalls } from './orders.routes.js';
import { panelCalls } from './panel.routes.js';
import { paymentsCalls } from './payments.routes.js';
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
    ...panelCalls(container),
    ...subscriptionsCalls(container),
    ...renewalsCalls(container),
    ...emailCalls(container),
    ...operationsCalls(container, () => table),
  );
  return table;
}
