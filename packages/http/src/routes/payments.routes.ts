/**
 * Payment calls: a verified buyer starts a checkout with the method's provider (core's
 * CheckoutFlow), a return page asks the provider where a payment stands, and the providers'
 * signed notifications apply a payment change once (core's PaymentNotificationFlow). The demo
 * provider's checkout page, shown when a method has no real provider, is a line here too
 * (a page, not an API call: it is not in the OpenAPI document).
 */
import type { Container } from 'inversify';
import { FLOWS, PAYMENTS, type CheckoutFlow, type PaymentsService, type SavedCardsService } from '@subshare/core';
import * as wire from '@subshare/core/wire';
import { paymentHandlers } from '../handlers/payment.handlers.js';
import { serializeOrder } from '../serializers/order.serializer.js';
import { call, type Call } from './call.js';

export function paymentsCalls(container: Container): Call[] {
  const checkout = container.get<CheckoutFlow>(FLOWS.Checkout);
  const payments = container.get<PaymentsService>(PAYMENTS.Service);
  const savedCards = container.get<SavedCardsService>(PAYMENTS.SavedCards);
  const handlers = paymentHandlers(container);
  const { payments: schemas } = wire;
  return [
    call({
      method: 'post',
      path: '/api/payment/process',
      access: 'user',
      tag: 'payments',
      summary: "Ask the provider about an order's payment",
      description: 'Answers the order as it stands after the provider answered (never marked paid by the browser).',
      body: schemas.orderIdBody,
      answer: wire.orders.order,
      handler: async ({ user, body }) => {
        const order = await checkout.refresh(user, body);
        return serializeOrder(order, payments.availableMethods(order.paymentMethods));
      },
    }),
    call({
      method: 'post',
      path: '/api/payment/createcheckoutsession',
      access: 'verified',
      tag: 'payments',
      summary: 'Start a card payment (Stripe Checkout)',
      description:
        '`renewAutomatically: true` (beyond the spec; default off) saves the card for automatic renewal; 409 `autorenew_unavailable` without Stripe.',
      body: schemas.cardCheckoutBody,
      answer: schemas.checkoutAnswer,
      handler: ({ user, body, context }) => checkout.start(user, body, 1, context, { renewAutomatically: body.renewAutomatically }),
    }),
    call({
      method: 'get',
      path: '/api/payment/autorenew',
      access: 'public',
      tag: 'payments',
      extra: true,
      summary: 'Whether a card payment can tick "Renew automatically" (Stripe configured)',
      answer: schemas.autoRenewAvailability,
      handler: () => ({ available: savedCards.available }),
    }),
    call({
      method: 'post',
      path: '/api/payment/createcheckoutsessioncoinpal',
      access: 'verified',
      tag: 'payments',
      summary: 'Start a crypto payment (CoinPal)',
      body: schemas.orderIdBody,
      answer: schemas.checkoutAnswer,
      handler: ({ user, body, context }) => checkout.start(user, body, 2, context),
    }),
    call({
      method: 'post',
      path: '/api/payment/createcheckoutsessionpayssion',
      access: 'verified',
      tag: 'payments',
      summary: 'Start a Korean payment (Payssion: 3 KakaoPay, 4 Samsung Pay, 5 card, 6 bank)',
      body: schemas.payssionCheckoutBody,
      answer: schemas.checkoutAnswer,
      handler: ({ user, body, context }) => checkout.start(user, body, body.pmId, context),
    }),
    call({
      method: 'post',
      path: '/api/payment/checksessionpayssion',
      access: 'user',
      tag: 'payments',
      summary: 'Whether a Payssion payment is paid',
      description: "orderId may be Payssion's order_id from the return URL (our payment reference, `42-7`).",
      body: schemas.checkPayssionBody,
      answer: schemas.checkPayssionAnswer,
      handler: ({ user, body }) => checkout.checkPayssion(user, body),
    }),
    call({
      method: 'post',
      path: '/api/webhook/stripe',
      access: 'provider',
      tag: 'payments',
      summary: 'Stripe event (Stripe-Signature checked)',
      extra: true,
      stage: 'raw-body',
      answer: schemas.stripeAcknowledgement,
      handler: ({ req, res }) => handlers.notification('stripe', req, res),
    }),
    call({
      method: 'post',
      path: '/api/webhook/coinpal',
      access: 'provider',
      tag: 'payments',
      summary: 'CoinPal notification (sign checked, status confirmed with CoinPal)',
      extra: true,
      stage: 'raw-body',
      answer: { status: 200, contentType: 'text/plain', description: "`success`, CoinPal's expected acknowledgement." },
      handler: ({ req, res }) => handlers.notification('coinpal', req, res),
    }),
    call({
      method: 'post',
      path: '/api/webhook/payssion',
      access: 'provider',
      tag: 'payments',
      summary: 'Payssion notification (notify_sig checked)',
      extra: true,
      stage: 'raw-body',
      answer: { status: 200, contentType: 'text/plain', description: "An empty body, Payssion's expected acknowledgement." },
      handler: ({ req, res }) => handlers.notification('payssion', req, res),
    }),
    call({
      method: 'post',
      path: '/api/webhook/demo',
      access: 'provider',
      tag: 'payments',
      summary: "The demo provider's signed result (only when a method has no real provider)",
      description: "A form post from the demo checkout page (`token`, `outcome`); the buyer's browser is sent on to the result page.",
      extra: true,
      stage: 'raw-body',
      answer: { status: 303, description: 'A redirect to the payment result page (`/paymentresult/{orderId}/{1|0}`).' },
      handler: ({ req, res }) => handlers.demoNotification(req, res),
    }),
    call({
      method: 'get',
      path: '/demo-checkout/:token',
      access: 'public',
      tag: 'payments',
      summary: "The demo provider's checkout page (Pay or Cancel; no money moves)",
      description: '404 with a page saying so when the token is not valid or its method is no longer served by the demo.',
      answer: { status: 200, contentType: 'text/html', description: 'The demo checkout page.' },
      handler: ({ req, res }) => handlers.demoCheckoutPage(String(req.params.token), req, res),
    }),
  ];
}
