/**
 * Payment calls: a verified buyer starts a checkout with the method's provider, a return page
 * asks the provider where a payment stands, and the providers' signed notifications apply a
 * payment change once (flows/payment-notification.flow.ts). The demo provider's checkout page is
 * declared with the pages (pages.ts).
 */
import { PAGES, pagePattern } from '../../pages/index.js';
import { declare } from '../declare.js';
import * as orders from '../orders.js';
import * as payments from '../payments.js';

const CHECKOUT = 'core/src/flows/checkout.flow.ts';
const NOTIFICATION = 'core/src/flows/payment-notification.flow.ts';
/** Every checkout call's body takes `useCredit` (issue 37). */
const CREDIT_NOTE =
  "`useCredit` (default true): the buyer's credit in the order's currency pays first and the provider is asked only for the rest; an order wholly covered by credit is paid at once and the answer is the shop's payment-result page.";
const START_ERRORS = ['order_not_found', 'order_not_payable', 'method_unavailable', 'demo_payments_off', 'provider_unavailable'] as const;
const NOTIFICATION_ERRORS = ['invalid_signature', 'notification_mismatch', 'provider_disabled', 'provider_unavailable'] as const;

export const processPayment = declare({
  operationId: 'processPayment',
  method: 'post',
  path: '/api/payment/process',
  access: 'user',
  tag: 'payments',
  summary: "Ask the provider about an order's payment",
  description: 'Answers the order as it stands after the provider answered (never marked paid by the browser).',
  body: payments.orderIdBody,
  answer: orders.order,
  errors: ['order_not_found', 'provider_unavailable', 'stripe_unavailable', 'coinpal_unavailable', 'payssion_unavailable'],
  servedBy: CHECKOUT,
});

export const startCardCheckout = declare({
  operationId: 'startCardCheckout',
  method: 'post',
  path: '/api/payment/createcheckoutsession',
  access: 'verified',
  tag: 'payments',
  summary: 'Start a card payment (Stripe Checkout)',
  description: `\`renewAutomatically: true\` (beyond the spec; default off) saves the card for automatic renewal (then credit is kept for the renewals: the first payment is all by card); 409 \`autorenew_unavailable\` without Stripe. ${CREDIT_NOTE}`,
  body: payments.cardCheckoutBody,
  answer: payments.checkoutAnswer,
  errors: [...START_ERRORS, 'stripe_unavailable', 'stripe_misconfigured', 'stripe_rejected', 'autorenew_unavailable'],
  servedBy: CHECKOUT,
});

export const getAutoRenewAvailability = declare({
  operationId: 'getAutoRenewAvailability',
  method: 'get',
  path: '/api/payment/autorenew',
  access: 'public',
  tag: 'payments',
  extra: true,
  summary: 'Whether a card payment can tick "Renew automatically" (Stripe configured, or demo cards in demo mode)',
  answer: payments.autoRenewAvailability,
  errors: [],
  servedBy: 'core/src/modules/payments/saved-cards.service.ts',
});

export const startCryptoCheckout = declare({
  operationId: 'startCryptoCheckout',
  method: 'post',
  path: '/api/payment/createcheckoutsessioncoinpal',
  access: 'verified',
  tag: 'payments',
  summary: 'Start a crypto payment (CoinPal)',
  description: CREDIT_NOTE,
  body: payments.checkoutBody,
  answer: payments.checkoutAnswer,
  errors: [...START_ERRORS, 'coinpal_unavailable', 'coinpal_rejected'],
  servedBy: CHECKOUT,
});

export const startPayssionCheckout = declare({
  operationId: 'startPayssionCheckout',
  method: 'post',
  path: '/api/payment/createcheckoutsessionpayssion',
  access: 'verified',
  tag: 'payments',
  summary: 'Start a Korean payment (Payssion: 3 KakaoPay, 4 Samsung Pay, 5 card, 6 bank)',
  description: CREDIT_NOTE,
  body: payments.payssionCheckoutBody,
  answer: payments.checkoutAnswer,
  errors: [...START_ERRORS, 'payssion_unavailable', 'payssion_misconfigured', 'payssion_rejected', 'payssion_repeated_order'],
  servedBy: CHECKOUT,
});

export const checkPayssionPayment = declare({
  operationId: 'checkPayssionPayment',
  method: 'post',
  path: '/api/payment/checksessionpayssion',
  access: 'user',
  tag: 'payments',
  summary: 'Whether a Payssion payment is paid',
  description: "orderId may be Payssion's order_id from the return URL (our payment reference, `42-7`).",
  body: payments.checkPayssionBody,
  answer: payments.checkPayssionAnswer,
  errors: ['order_not_found', 'payssion_unavailable', 'payssion_payment_not_found'],
  servedBy: CHECKOUT,
});

export const stripeWebhook = declare({
  operationId: 'stripeWebhook',
  method: 'post',
  path: '/api/webhook/stripe',
  access: 'provider',
  tag: 'webhooks',
  summary: 'Stripe event (Stripe-Signature checked)',
  description:
    'Events acted on: `checkout.session.completed`, `checkout.session.async_payment_succeeded`, `checkout.session.async_payment_failed`, `checkout.session.expired`, `charge.refunded`, `charge.dispute.*` (core/src/modules/payments/providers/stripe.ts).',
  extra: true,
  rawBody: {
    types: ['application/json'],
    schema: payments.stripeEvent,
    signatureHeader: 'Stripe-Signature',
    signature: "`t=<unix time>,v1=<HMAC-SHA256 of \"t.body\" with the endpoint's signing secret>` (Stripe's scheme; 5 minutes' tolerance).",
  },
  answer: payments.stripeAcknowledgement,
  errors: [...NOTIFICATION_ERRORS, 'stripe_unavailable'],
  servedBy: NOTIFICATION,
});

export const coinpalWebhook = declare({
  operationId: 'coinpalWebhook',
  method: 'post',
  path: '/api/webhook/coinpal',
  access: 'provider',
  tag: 'webhooks',
  summary: 'CoinPal notification (sign checked, status confirmed with CoinPal)',
  extra: true,
  rawBody: {
    types: ['application/x-www-form-urlencoded', 'application/json'],
    schema: payments.coinpalNotification,
    signature: '`sign` in the body: sha256(secretKey + requestId + merchantNo + orderNo + orderAmount + orderCurrency); the status is then asked of CoinPal.',
  },
  answer: { status: 200, contentType: 'text/plain', description: "`success`, CoinPal's expected acknowledgement." },
  errors: [...NOTIFICATION_ERRORS, 'coinpal_unavailable', 'coinpal_mismatch'],
  servedBy: NOTIFICATION,
});

export const payssionWebhook = declare({
  operationId: 'payssionWebhook',
  method: 'post',
  path: '/api/webhook/payssion',
  access: 'provider',
  tag: 'webhooks',
  summary: 'Payssion notification (notify_sig checked)',
  extra: true,
  rawBody: {
    types: ['application/x-www-form-urlencoded'],
    schema: payments.payssionNotification,
    signature: '`notify_sig` in the body: md5(api_key|pm_id|amount|currency|order_id|state|secret_key).',
  },
  answer: { status: 200, contentType: 'text/plain', description: "An empty body, Payssion's expected acknowledgement." },
  errors: [...NOTIFICATION_ERRORS, 'payssion_unavailable'],
  servedBy: NOTIFICATION,
});

export const demoWebhook = declare({
  operationId: 'demoWebhook',
  method: 'post',
  path: '/api/webhook/demo',
  access: 'provider',
  tag: 'webhooks',
  summary: "The demo provider's signed result (only when a method has no real provider)",
  description: "A form post from the demo checkout page (`token`, `outcome`); the buyer's browser is sent on to the result page.",
  extra: true,
  rawBody: {
    types: ['application/x-www-form-urlencoded'],
    schema: payments.demoNotification,
    signature: '`token` in the body: signed by the shop with a key derived from TOKEN_SECRET, unexpired.',
  },
  answer: { status: 303, description: `A redirect to the payment result page (\`${pagePattern(PAGES.paymentResult)}\`: the order's id, success 1 or 0).` },
  errors: [...NOTIFICATION_ERRORS, 'demo_payments_off'],
  servedBy: NOTIFICATION,
});
