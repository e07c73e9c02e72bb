/**
 * The kinds the wire carries, each declared once: payment methods and providers, order states
 * and platform categories. Core's services, the wire schemas (`numberOf(PAYMENT_METHOD_IDS)`), the
 * CLI's names and the web (`@subshare/core/wire/enums`) read them from here; their types are
 * derived (`(typeof X)[keyof typeof X]`), so a number that is not one of them does not compile.
 * Plain constants with no imports but the e-mail kinds (plain too): the browser's bundle carries
 * this file.
 */

/** The spec's payment methods (section 3): card and crypto worldwide, the Korean four through Payssion. */
export const PAYMENT_METHOD = { card: 1, crypto: 2, kakaoPay: 3, samsungPay: 4, koreanCard: 5, koreanBank: 6 } as const;
export type PaymentMethodId = (typeof PAYMENT_METHOD)[keyof typeof PAYMENT_METHOD];
export const PAYMENT_METHOD_IDS: readonly PaymentMethodId[] = Object.values(PAYMENT_METHOD);

/** The Korean methods, paid through the regional provider (Payssion). */
export const REGIONAL_PAYMENT_METHODS = [PAYMENT_METHOD.kakaoPay, PAYMENT_METHOD.samsungPay, PAYMENT_METHOD.koreanCard, PAYMENT_METHOD.koreanBank] as const;
export type RegionalPaymentMethodId = (typeof REGIONAL_PAYMENT_METHODS)[number];

/**
 * The payment providers a payment or refund names (Payssion serves the regional methods; demo stands
 * in for any unconfigured one; `credit`: a payment wholly covered by the buyer's credit, issue 37,
 * paid without any provider).
 */
export const PROVIDER_NAMES = ['stripe', 'coinpal', 'payssion', 'demo', 'credit'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** An order's method until a checkout starts, and the first one offered. */
export const DEFAULT_PAYMENT_METHOD: PaymentMethodId = PAYMENT_METHOD.crypto;

/** Each method's name in the CLI and the orders CSV (the web's names are its texts, `admin.payment.<id>`). */
export const PAYMENT_METHOD_NAMES: Readonly<Record<PaymentMethodId, string>> = {
  1: 'card',
  2: 'crypto',
  3: 'KakaoPay',
  4: 'Samsung Pay',
  5: 'Korean card',
  6: 'Korean bank',
};

export const isPaymentMethodId = (value: unknown): value is PaymentMethodId => PAYMENT_METHOD_IDS.includes(value as PaymentMethodId);
export const isRegionalMethod = (method: PaymentMethodId): method is RegionalPaymentMethodId =>
  (REGIONAL_PAYMENT_METHODS as readonly PaymentMethodId[]).includes(method);

/** Order states (product.md). The moves between them are orders/order-states.ts. */
export const ORDER_STATE = {
  created: 0,
  awaitingPayment: 1,
  completed: 2,
  paymentFailed: 3,
  expiredUnpaid: 4,
  refunded: 5,
  paidNotCompleted: 6,
} as const;
export type OrderState = (typeof ORDER_STATE)[keyof typeof ORDER_STATE];
export const ORDER_STATES: readonly OrderState[] = Object.values(ORDER_STATE);

/** Each state's name in the CLI (the web's names are its texts, `admin.state.<n>`). */
export const ORDER_STATE_NAMES: Readonly<Record<OrderState, string>> = {
  0: 'created',
  1: 'awaiting payment',
  2: 'completed',
  3: 'payment failed',
  4: 'expired unpaid',
  5: 'refunded',
  6: 'paid, waiting for activation',
};

export const isOrderState = (value: unknown): value is OrderState => ORDER_STATES.includes(value as OrderState);

/**
 * What kind of service a platform is, as stored in `platforms.category`: 0 video streaming (the
 * panel's household guide), 1 music, 8 AI chat (the login-code button).
 */
export const PLATFORM_CATEGORY = { videoStreaming: 0, music: 1, aiChat: 8 } as const;
export type PlatformCategory = (typeof PLATFORM_CATEGORY)[keyof typeof PLATFORM_CATEGORY];
export const PLATFORM_CATEGORIES: readonly PlatformCategory[] = Object.values(PLATFORM_CATEGORY);

export const isPlatformCategory = (value: unknown): value is PlatformCategory => PLATFORM_CATEGORIES.includes(value as PlatformCategory);

/** A stored category, checked: the column is a plain integer. */
export function platformCategory(value: number): PlatformCategory {
  if (!isPlatformCategory(value)) throw new Error(`Unknown platform category ${value}`);
  return value;
}

// The e-mail kinds staff may send, for the admin's dialog (pure data, as the rest of this file).
export { STAFF_SENDABLE_EMAIL_KINDS } from './email-kinds.js';
