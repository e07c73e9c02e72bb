/**
 * What the renewal flows share (renewal.flow.ts, renewal-switch.flow.ts, renewal-links.flow.ts,
 * renewal-views.flow.ts): the dunning schedule and how long a slot is held through it, a
 * subscription's key in `auto_renewals`, and the method a renewal is paid with.
 */
import type { OrderItemView, OrderView } from '../modules/orders/index.js';
import type { PaymentMethodId } from '../modules/payments/index.js';
import { PAYMENT_METHOD } from '../wire/enums.js';
import type { SubscriptionView } from '../modules/subscriptions/index.js';
import { RENEWAL_ATTEMPTS, RENEWAL_HOLD_EXTRA_HOURS, RENEWAL_LAST_RETRY_DAYS, RENEWAL_RETRY_DAYS } from '../promises/index.js';

export const HOUR_MS = 3600_000;
export const DAY_MS = 24 * HOUR_MS;
/** Retries after the end date: the first try is at the end, then these (core's promises). */
export const RETRY_AFTER_DAYS = RENEWAL_RETRY_DAYS;
export const MAX_ATTEMPTS = RENEWAL_ATTEMPTS;
/** The slot is held this long past the end: through the last retry, and a renewal pass more to run it (test/unit/job-table.test.ts checks it fits). */
export const HOLD_MS = RENEWAL_LAST_RETRY_DAYS * DAY_MS + RENEWAL_HOLD_EXTRA_HOURS * HOUR_MS;

/** The payment method a subscription was bought with (card when its order names none): a renewal is paid the same way. */
export const methodOf = (order: OrderView | undefined): PaymentMethodId => order?.paymentMethod ?? PAYMENT_METHOD.card;

/** A subscription's key in `auto_renewals`: the order item unit it serves (kept through renewals and replacements). */
export function keyOf(subscription: Pick<SubscriptionView, 'orderItemId' | 'unit'>) {
  return { orderItemId: subscription.orderItemId, unit: subscription.unit };
}

/** The renewal order of a subscription: the same item, for the buyer, language and currency of the order that bought it. */
export function renewalOrderOf(subscription: Pick<SubscriptionView, 'id' | 'userId'>, source: OrderView, item: OrderItemView) {
  return {
    userId: subscription.userId,
    email: source.email,
    languageId: source.languageId,
    currency: source.total.currency,
    item,
    renewsSubscriptionId: subscription.id,
  };
}
