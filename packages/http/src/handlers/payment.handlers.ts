/**
 * Provider notifications and the demo provider's page. A notification's signature covers its
 * exact bytes, so these lines are mounted before the JSON parser (stage `raw-body`) and
 * `req.body` is the Buffer as it arrived. A bad signature answers 400; a genuine notification,
 * even a duplicate or one we cannot use, answers 200 so the provider stops retrying.
 */
import type { Request, Response } from 'express';
import type { Container } from 'inversify';
import { readDemoToken, TOKENS, type AppConfig, type IncomingNotification, PaymentNotificationFlow, PaymentsService, type ProviderName } from '@subshare/core';
import { requestedLanguage } from '../seo/storefront.js';
import { renderDemoCheckout } from './demo-checkout.page.js';
import { pagePath } from '@subshare/core/pages';

function incoming(req: Request): IncomingNotification {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.headers)) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  return { rawBody: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), contentType: req.get('content-type') ?? '', headers };
}

export function paymentHandlers(container: Container) {
  const payments = container.get(PaymentsService);
  const notifications = container.get(PaymentNotificationFlow);
  const config = container.get<AppConfig>(TOKENS.Config);
  return {
    /** POST /api/webhook/{stripe,coinpal,payssion}: verified and applied once, then the provider's expected acknowledgement. */
    async notification(provider: Exclude<ProviderName, 'demo'>, req: Request, res: Response): Promise<void> {
      const answer = await notifications.receive(provider, incoming(req));
      res.status(200).type(answer.contentType).send(answer.body);
    },

    /**
     * POST /api/webhook/demo: the demo provider's "notification" is the buyer's click on its
     * checkout page; it goes through the same verification and fulfilment, then sends the
     * browser to the result page.
     */
    async demoNotification(req: Request, res: Response): Promise<void> {
      const answer = await notifications.receive('demo', incoming(req));
      const token = new URLSearchParams((req.body as Buffer).toString('utf8')).get('token') ?? '';
      const orderId = readDemoToken(token)?.orderId;
      const success = answer.outcome === 'paid' || answer.outcome === 'already_paid' || answer.outcome === 'duplicate';
      res.redirect(303, orderId ? pagePath.paymentResult(orderId, success) : pagePath.home());
    },

    /** GET /demo-checkout/:token: the page, or 404 once the demo no longer serves the token's method (it could not be paid). */
    demoCheckoutPage(token: string, req: Request, res: Response): void {
      const details = payments.demoCheckout(token);
      // The storefront's language rule (?lang=, the display cookie, the visitor's country).
      const language = requestedLanguage(req, config) === 2 ? 'ko' : 'en';
      res.setHeader('Cache-Control', 'no-store');
      res
        .status(details ? 200 : 404)
        .type('html')
        .send(renderDemoCheckout(token, details, language));
    },
  };
}
