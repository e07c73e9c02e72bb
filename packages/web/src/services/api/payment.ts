/**
 * `/api/order/*` and `/api/payment/*`: the buyer's order and its payment (spec sections 3, 4
 * and 7). Every call carries the login's bearer token. Imported by the checkout chunk only.
 */
import { PAYMENT_METHOD, type PaymentMethodId } from '@subshare/core/wire/enums';
import { callApi } from './calls';
import type { orders, payments } from '@subshare/core/wire';

/** Spec section 3's methods, declared once with the wire (card, crypto, the Korean four through Payssion). */
export {
  DEFAULT_PAYMENT_METHOD,
  PAYMENT_METHOD,
  PAYMENT_METHOD_IDS,
  isPaymentMethodId,
  isRegionalMethod,
  type PaymentMethodId,
} from '@subshare/core/wire/enums';

export type OrderItem = orders.OrderItemAnswer;
export type Order = orders.OrderAnswer;

/**
 * `POST /api/order/insert`. Without `currency` the server picks it as it did for the catalog (the
 * visitor's country). `userId` is sent as the spec's client does; the server takes the buyer from the token.
 */
export type CreateOrderRequest = orders.InsertOrderInput & { userId: number };

/** The provider's payment page. */
export type CheckoutSession = payments.CheckoutAnswer;

export function createOrder(request: CreateOrderRequest): Promise<Order> {
  return callApi('createOrder', { body: request });
}

/** `POST /api/order/applypromo` (issue 37): a promotion code on the buyer's unpaid order; answers the order with its discount. */
export function applyPromo(orderId: number, code: string): Promise<Order> {
  return callApi('applyPromo', { body: { orderId, code } });
}

export function getOrder(id: number): Promise<Order> {
  return callApi('getOrder', { query: { id } });
}

/**
 * Starts a checkout with the method's provider and answers its payment page (the shop's result
 * page when credit paid it all). `useCredit`: the buyer's choice when credit was offered; without
 * it the server's default (credit first).
 */
export function createCheckoutSession(orderId: number, method: PaymentMethodId, renewAutomatically = false, useCredit?: boolean): Promise<CheckoutSession> {
  // The spec's body is `{ orderId }`; the opt-ins join it only when offered.
  const base = useCredit === undefined ? { orderId } : { orderId, useCredit };
  if (method === PAYMENT_METHOD.card) return callApi('startCardCheckout', { body: renewAutomatically ? { ...base, renewAutomatically } : base });
  if (method === PAYMENT_METHOD.crypto) return callApi('startCryptoCheckout', { body: base });
  return callApi('startPayssionCheckout', { body: { ...base, pmId: method } });
}

/**
 * POST /api/payment/checksessionpayssion: true when the order is paid. `orderId` is the
 * `order_id` of Payssion's return address as it came ("42-7", the payment's reference), passed on as it is.
 */
export async function checkPayssionSession(orderId: string, transactionId: string | null): Promise<boolean> {
  const body = transactionId ? { orderId, transactionId } : { orderId };
  return (await callApi('checkPayssionPayment', { body })) === true;
}

/** POST /api/payment/process: brings the order up to date with its provider; answers the order. */
export function processPayment(orderId: number): Promise<Order> {
  return callApi('processPayment', { body: { orderId } });
}

/** Whether a card payment can tick "Renew automatically" here (Stripe configured, or demo cards in demo mode). */
export async function autoRenewAvailable(): Promise<boolean> {
  const answer = await callApi('getAutoRenewAvailability', {});
  return answer.available === true;
}
