/**
 * Provider notifications. These routes alone get the raw body (signatures are computed over
 * the exact bytes), so they are mounted before the JSON parser. A bad signature answers 400;
 * a genuine notification, even a duplicate or one we cannot use, answers 200 so the provider
 * stops retrying.
 */
import express, { Router, type Request, type Response } from 'express';
import type { Container } from 'inversify';
import {
  FLOWS,
  PAYMENTS,
  readDemoToken,
  type IncomingNotification,
  type PaymentNotificationFlow,
  type PaymentsService,
  type ProviderName,
} from '@subshare/core';
import { renderDemoCheckout } from './demo-checkout.js';

const PROVIDERS: ProviderName[] = ['stripe', 'coinpal', 'payssion'];
const WEBHOOK_BODY_LIMIT = '64kb';

function incoming(req: Request): IncomingNotification {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.headers)) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  return { rawBody: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), contentType: req.get('content-type') ?? '', headers };
}

export function webhookRoutes(container: Container): Router {
  const payments = container.get<PaymentsService>(PAYMENTS.Service);
  const notifications = container.get<PaymentNotificationFlow>(FLOWS.PaymentNotification);
  const router = Router();
  const raw = express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT });

  for (const provider of PROVIDERS) {
    router.post(`/api/webhook/${provider}`, raw, async (req: Request, res: Response, next) => {
      try {
        const answer = await notifications.receive(provider, incoming(req));
        res.status(200).type(answer.contentType).send(answer.body);
      } catch (error) {
        next(error);
      }
    });
  }

  // The demo provider's "notification" is the buyer's click on its checkout page: it goes
  // through the same verification and fulfilment, then sends the browser to the result page.
  router.post('/api/webhook/demo', raw, async (req: Request, res: Response, next) => {
    try {
      const answer = await notifications.receive('demo', incoming(req));
      const token = new URLSearchParams(req.body.toString('utf8')).get('token') ?? '';
      const orderId = readDemoToken(token)?.orderId;
      const success = answer.outcome === 'paid' || answer.outcome === 'already_paid' || answer.outcome === 'duplicate' ? 1 : 0;
      res.redirect(303, orderId ? `/paymentresult/${orderId}/${success}` : '/');
    } catch (error) {
      next(error);
    }
  });
  router.get('/demo-checkout/:token', (req: Request, res: Response) => {
    const token = String(req.params.token);
    // Not shown once the demo no longer serves the token's method (it could not be paid).
    const details = payments.demoCheckout(token);
    res.setHeader('Cache-Control', 'no-store');
    res
      .status(details ? 200 : 404)
      .type('html')
      .send(renderDemoCheckout(token, details));
  });
  return router;
}
