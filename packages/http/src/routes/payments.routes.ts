/**
 * Payment calls: a verified buyer starts a checkout with the method's provider (core's
 * CheckoutFlow), a return page asks the provider where a payment stands, and the providers'
 * signed notifications apply a payment change once (core's PaymentNotificationFlow). The demo
 * provider's checkout page, shown when a method has no real provider, is a line here too
 * (a page, not an API call: it is not in the OpenAPI document).
 */
import type { Container } from 'inversify';
import { CheckoutFlow, SavedCardsService } from '@subshare/core';
import { calls } from '@subshare/core/wire';
import { paymentHandlers } from '../handlers/payment.handlers.js';
import { bind, type Call } from './call.js';
import { orderAnswer } from './order-answer.js';

export function paymentsCalls(container: Container): Call[] {
  const checkout = container.get(CheckoutFlow);
  const answer = orderAnswer(container);
  const savedCards = container.get(SavedCardsService);
  const handlers = paymentHandlers(container);
  return [
    bind(calls.payments.processPayment, async ({ user, body }) => {
      const order = await checkout.refresh(user, body);
      return answer(order, user);
    }),
    bind(calls.payments.startCardCheckout, ({ user, body, context }) =>
      checkout.start(user, body, 1, context, { renewAutomatically: body.renewAutomatically }),
    ),
    bind(calls.payments.getAutoRenewAvailability, () => ({ available: savedCards.available })),
    bind(calls.payments.startCryptoCheckout, ({ user, body, context }) => checkout.start(user, body, 2, context)),
    bind(calls.payments.startPayssionCheckout, ({ user, body, context }) => checkout.start(user, body, body.pmId, context)),
    bind(calls.payments.checkPayssionPayment, ({ user, body }) => checkout.checkPayssion(user, body)),
    bind(calls.payments.stripeWebhook, ({ req, res }) => handlers.notification('stripe', req, res)),
    bind(calls.payments.coinpalWebhook, ({ req, res }) => handlers.notification('coinpal', req, res)),
    bind(calls.payments.payssionWebhook, ({ req, res }) => handlers.notification('payssion', req, res)),
    bind(calls.payments.demoWebhook, ({ req, res }) => handlers.demoNotification(req, res)),
    bind(calls.pages.demoCheckoutPage, ({ req, res }) => handlers.demoCheckoutPage(String(req.params.token), req, res)),
  ];
}
