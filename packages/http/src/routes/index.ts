/**
 * Every API route, one line each: method, path, guard, handler. Handlers stay thin and make
 * one core call; guards decide on the server who may call.
 */
import { Router } from 'express';
import type { Container } from 'inversify';
import { json } from '../middleware/async.js';
import { guards } from '../middleware/auth.js';
import { catalogHandlers } from '../handlers/catalog.handlers.js';
import { emailHandlers } from '../handlers/email.handlers.js';
import { mainHandlers } from '../handlers/main.handlers.js';
import { userHandlers } from '../handlers/user.handlers.js';

export function apiRoutes(container: Container): Router {
  const router = Router();
  const can = guards(container);
  const main = mainHandlers(container);
  const catalog = catalogHandlers(container);
  const user = userHandlers(container);
  const email = emailHandlers(container);

  router.get('/api/health', ...can.public, json(main.health));
  router.get('/api/main/home', ...can.public, json(catalog.home));
  router.get('/api/main/getcountry', ...can.public, json(main.getCountry));
  router.get('/api/main/loginpagedata', ...can.public, json(main.loginPageData));
  router.get('/api/main/business', ...can.public, json(main.business));
  router.get('/api/platform/getplatform', ...can.public, json(catalog.getPlatform));

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

  router.get('/api/email/outbox', ...can.staff, json(email.outbox));
  router.get('/api/email/outbox/:id', ...can.staff, json(email.outboxEmail));

  return router;
}
