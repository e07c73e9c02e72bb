/**
 * The API routes not yet in the route table (table.ts), one line each: method, path, guard,
 * handler; openapi/calls.ts describes them. A call moves to the table with its schemas, and
 * its line here and in calls.ts goes; when none is left, this file and calls.ts go too.
 */
import { Router } from 'express';
import type { Container } from 'inversify';
import { json } from '../middleware/async.js';
import { guards } from '../middleware/auth.js';
import { adminHandlers } from '../handlers/admin.handlers.js';
import { orderHandlers } from '../handlers/order.handlers.js';

export function legacyApiRoutes(container: Container): Router {
  const router = Router();
  const can = guards(container);
  const order = orderHandlers(container);
  const admin = adminHandlers(container);

  // The admin area's lists (spec section 7; paging per section 4: page from 1, limit 1 to 100, default 20).
  router.get('/api/order/getbystate', ...can.staff, json(order.getByState));
  router.get('/api/order/getorders', ...can.staff, json(order.getOrders));
  router.get('/api/order/getorderspages', ...can.staff, json(order.getOrdersPages));
  router.get('/api/user/getusers', ...can.staff, json(admin.getUsers));
  router.get('/api/user/getusersbyemail', ...can.staff, json(admin.getUsersByEmail));
  router.get('/api/user/getuserspages', ...can.staff, json(admin.getUsersPages));

  // Beyond the spec: CSV export, dashboard figures, the audit log.
  router.get('/api/order/export.csv', ...can.staff, json(order.exportCsv));
  router.get('/api/admin/dashboard', ...can.staff, json(admin.dashboard));
  router.get('/api/audit/log', ...can.admin, json(admin.auditLog));
  router.get('/api/audit/logpages', ...can.admin, json(admin.auditLogPages));

  return router;
}
