/**
 * Every API route, one line each: method, path, guard, handler. Handlers stay thin and make
 * one core call; guards decide on the server who may call.
 */
import { Router } from 'express';
import type { Container } from 'inversify';
import { json } from '../middleware/async.js';
import { guards } from '../middleware/auth.js';
import { accountHandlers } from '../handlers/account.handlers.js';
import { adminHandlers } from '../handlers/admin.handlers.js';
import { catalogHandlers } from '../handlers/catalog.handlers.js';
import { emailHandlers } from '../handlers/email.handlers.js';
import { mailboxHandlers } from '../handlers/mailbox.handlers.js';
import { mainHandlers } from '../handlers/main.handlers.js';
import { orderHandlers } from '../handlers/order.handlers.js';
import { subscriptionHandlers } from '../handlers/subscription.handlers.js';
import { userHandlers } from '../handlers/user.handlers.js';

export function apiRoutes(container: Container): Router {
  const router = Router();
  const can = guards(container);
  const main = mainHandlers(container);
  const user = userHandlers(container);
  const email = emailHandlers(container);
  const order = orderHandlers(container);
  const account = accountHandlers(container);
  const subscription = subscriptionHandlers(container);
  const mailbox = mailboxHandlers(container);
  const admin = adminHandlers(container);
  const catalog = catalogHandlers(container);

  router.get('/api/health', ...can.public, json(main.health));
  // GET /api/main/home and /api/platform/getplatform: routes/catalog.routes.ts (served pre-compressed).
  router.get('/api/main/getcountry', ...can.public, json(main.getCountry));
  router.get('/api/main/loginpagedata', ...can.public, json(main.loginPageData));
  router.get('/api/main/business', ...can.public, json(main.business));

  router.get('/api/user/checkemail', ...can.public, json(user.checkEmail));
  router.post('/api/user/register', ...can.public, json(user.register));
  router.post('/api/user/authenticate', ...can.public, json(user.authenticate));
  router.post('/api/user/sendverificationcode', ...can.user, json(user.sendVerificationCode));
  router.post('/api/user/sendverificationcodecallback', ...can.public, json(user.confirmVerificationCode));
  router.post('/api/user/googleauthenticate', ...can.public, json(user.googleAuthenticate));
  router.post('/api/user/navercallback', ...can.public, json(user.naverCallback));
  router.post('/api/user/kakaocallback', ...can.public, json(user.kakaoCallback));
  router.get('/api/user/socialproviders', ...can.public, json(user.socialProviders));
  router.post('/api/user/logout', ...can.user, json(user.logout));
  router.post('/api/user/changepassword', ...can.user, json(user.changePassword));
  router.post('/api/user/forgotpassword', ...can.public, json(user.forgotPassword));
  router.post('/api/user/resetpassword', ...can.public, json(user.resetPassword));

  router.post('/api/order/insert', ...can.verified, json(order.insert));
  router.get('/api/order/getorder', ...can.user, json(order.getOrder));
  router.post('/api/payment/process', ...can.user, json(order.process));
  router.post('/api/payment/createcheckoutsession', ...can.verified, json(order.checkoutCard));
  router.post('/api/payment/createcheckoutsessioncoinpal', ...can.verified, json(order.checkoutCrypto));
  router.post('/api/payment/createcheckoutsessionpayssion', ...can.verified, json(order.checkoutPayssion));
  router.post('/api/payment/checksessionpayssion', ...can.user, json(order.checkPayssion));

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
  router.get('/api/platform/getplatforms', ...can.staff, json(catalog.getPlatforms));

  // Beyond the spec: CSV export, dashboard figures, the audit log.
  router.get('/api/order/export.csv', ...can.staff, json(order.exportCsv));
  router.get('/api/admin/dashboard', ...can.staff, json(admin.dashboard));
  router.get('/api/audit/log', ...can.admin, json(admin.auditLog));
  router.get('/api/audit/logpages', ...can.admin, json(admin.auditLogPages));

  return router;
}
