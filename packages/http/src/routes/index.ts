/**
 * The API routes not yet in the route table (table.ts), one line each: method, path, guard,
 * handler; openapi/calls.ts describes them. A call moves to the table with its schemas, and
 * its line here and in calls.ts goes; when none is left, this file and calls.ts go too.
 */
import { Router } from 'express';
import type { Container } from 'inversify';
import { json } from '../middleware/async.js';
import { guards } from '../middleware/auth.js';
import { accountHandlers } from '../handlers/account.handlers.js';
import { adminHandlers } from '../handlers/admin.handlers.js';
import { emailHandlers } from '../handlers/email.handlers.js';
import { mailboxHandlers } from '../handlers/mailbox.handlers.js';
import { orderHandlers } from '../handlers/order.handlers.js';
import { subscriptionHandlers } from '../handlers/subscription.handlers.js';

export function legacyApiRoutes(container: Container): Router {
  const router = Router();
  const can = guards(container);
  const email = emailHandlers(container);
  const order = orderHandlers(container);
  const account = accountHandlers(container);
  const subscription = subscriptionHandlers(container);
  const mailbox = mailboxHandlers(container);
  const admin = adminHandlers(container);

  router.get('/api/user/getuserpanel', ...can.user, json(subscription.panel));
  router.post('/api/order/setinvatiotaionemail', ...can.user, json(subscription.setInvitationEmail));
  // Staff calls under /api/webhook/ (the spec's paths); JSON-parsed, unlike the providers' raw-body webhooks.
  router.post('/api/webhook/activatesubscribe', ...can.staff, json(subscription.activate));
  router.post('/api/webhook/replacesubscribe', ...can.staff, json(subscription.replace));

  router.get('/api/email/outbox', ...can.staff, json(email.outbox));
  router.get('/api/email/outbox/:id', ...can.staff, json(email.outboxEmail));
  router.post('/api/email/sendemail', ...can.staff, json(email.sendEmail));
  // The panel's verification fetch: the slot holder, or staff (audited); polled.
  router.get('/api/email/getnvlink', ...can.user, json(mailbox.householdLink));
  router.get('/api/email/getchgptcode', ...can.user, json(mailbox.loginCode));

  // Spec section 6: admins create accounts and mailboxes; moderators may list mailboxes.
  router.post('/api/subscribe/insert', ...can.admin, json(account.insert));
  router.get('/api/subscribe/createbemail', ...can.admin, json(account.createMailbox));
  router.get('/api/subscribe/getbemails', ...can.staff, json(account.listMailboxes));

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
