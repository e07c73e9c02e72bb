/**
 * `/api/order/*` and `/api/payment/*`: the buyer's order and its payment (spec sections 3, 4
 * and 7). Every call carries the login's bearer token. Imported by the checkout chunk only.
 */
import { apiGet, apiPost } from './client';
import type { CurrencyCode } from './types';

/**
 * Spec section 3: 1 card, 2 crypto (the default), 3 KakaoPay, 4 Samsung Pay, 5 Korean credit
 * card, 6 Korean internet banking (3 to 6 through the regional provider, Payssion).
 */
export type PaymentMethodId = 1 | 2 | 3 | 4 | 5 | 6;

export const PAYMENT_METHOD_IDS: readonly PaymentMethodId[] = [1, 2, 3, 4, 5, 6];

export const DEFAULT_PAYMENT_METHOD: PaymentMethodId = 2;

export function isPaymentMethodId(value: unknown): value is PaymentMethodId {
  return PAYMENT_METHOD_IDS.includes(value as PaymentMethodId);
}

/** The Korean methods, paid through the regional provider (Payssion). */
export function isRegionalMethod(method: PaymentMethodId): method is 3 | 4 | 5 | 6 {
  return method >= 3;
}

export interface OrderItem {
  platformId: number;
  platformName: string;
  platformColorOne: string;
  platformLogoBase: string;
  typeName: string;
  durationName: string;
  quantity: number;
  haveInvitation: boolean;
  invitationEmail: string | null;
}

/** The spec's order (section 3); `total` in major units of the order's currency. */
export interface Order {
  id: number;
  userId: number;
  email: string;
  total: number;
  /** 1 EUR, 2 KRW. */
  currencyId: number;
  currencyCode: CurrencyCode;
  /** The method chosen so far (2 until the buyer picks another). */
  paymentMethod: number | null;
  createdDate: string;
  /** The methods the shop can take for this order, e.g. [2, 1] in EUR, [2, 1, 3, 4, 5, 6] in KRW. */
  paymentMethods: number[];
  /** Beyond the spec: 2 completed, 6 paid but not completed… */
  state: number;
  items: OrderItem[];
}

/** Spec section 3's order creation payload, plus the storefront's currency (beyond the spec). */
export interface CreateOrderRequest {
  platformId: number;
  typeId: number;
  durationId: number;
  quantity: number;
  userId: number;
  languageId: number;
  /** Omitted: the server picks the currency as it did for the catalog (the visitor's country). */
  currency?: CurrencyCode;
}

export interface CheckoutSession {
  /** The provider's payment page. */
  url: string;
}

/** POST /api/order/insert: the server prices the order from its catalog. */
export function createOrder(request: CreateOrderRequest): Promise<Order> {
  return apiPost<Order>('/api/order/insert', request, { auth: true });
}

export function getOrder(id: number): Promise<Order> {
  return apiGet<Order>('/api/order/getorder', { id }, { auth: true });
}

/** Starts a checkout with the method's provider and answers its payment page. */
export function createCheckoutSession(orderId: number, method: PaymentMethodId): Promise<CheckoutSession> {
  if (method === 1) return apiPost<CheckoutSession>('/api/payment/createcheckoutsession', { orderId }, { auth: true });
  if (method === 2) return apiPost<CheckoutSession>('/api/payment/createcheckoutsessioncoinpal', { orderId }, { auth: true });
  return apiPost<CheckoutSession>('/api/payment/createcheckoutsessionpayssion', { orderId, pmId: method }, { auth: true });
}

/**
 * POST /api/payment/checksessionpayssion: true when the order is paid. `orderId` is the
 * `order_id` of Payssion's return address as it came ("42-7", the payment's reference), passed on as it is.
 */
export async function checkPayssionSession(orderId: string, transactionId: string | null): Promise<boolean> {
  const body = transactionId ? { orderId, transactionId } : { orderId };
  return (await apiPost<unknown>('/api/payment/checksessionpayssion', body, { auth: true })) === true;
}

/** POST /api/payment/process: brings the order up to date with its provider; answers the order. */
export function processPayment(orderId: number): Promise<Order> {
  return apiPost<Order>('/api/payment/process', { orderId }, { auth: true });
}
