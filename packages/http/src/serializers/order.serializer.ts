import { CURRENCIES, money, toMajorUnits, type OrderView, type PaymentMethodId } from '@subshare/core';
import type { orders } from '@subshare/core/wire';

/**
 * The spec's order shape (section 3), total in major units of the order's currency. Beyond it:
 * `currencyCode`, `state`, `totalEur` (admin totals are in EUR: what the same options sold for
 * in EUR when the order was made), `paidDate` and `completedDate`.
 */
/**
 * `creditMinor`: the credit applied to the order (its paid or open payment's, PaymentsService.creditApplied);
 * `creditAvailableMinor`: the holder's credit a checkout of it could spend (PaymentCredit.availableFor);
 * `minimumMinor`: per method, the provider's minimum charge in the order's currency (PaymentsService.minimumCharge).
 */
export function serializeOrder(
  order: OrderView,
  paymentMethods: PaymentMethodId[],
  creditMinor = 0,
  creditAvailableMinor = 0,
  minimumMinor: Array<{ pmId: PaymentMethodId; minor: number }> = [],
): orders.OrderAnswer {
  return {
    id: order.id,
    userId: order.userId,
    email: order.email,
    total: toMajorUnits(order.total),
    currencyId: CURRENCIES[order.total.currency].id,
    currencyCode: order.total.currency,
    paymentMethod: order.paymentMethod,
    createdDate: order.createdAt.toISOString(),
    paymentMethods,
    state: order.state,
    totalEur: toMajorUnits(order.totalEur),
    paidDate: order.paidAt ? order.paidAt.toISOString() : null,
    completedDate: order.completedAt ? order.completedAt.toISOString() : null,
    items: order.items.map((item) => ({
      platformId: item.platformId,
      platformName: item.platformName,
      platformColorOne: item.platformColorOne,
      platformLogoBase: item.platformLogoBase,
      typeName: item.typeName,
      durationName: item.durationName,
      quantity: item.quantity,
      haveInvitation: item.haveInvitation,
      invitationEmail: item.invitationEmail,
    })),
    subtotal: toMajorUnits(order.subtotal),
    discount: toMajorUnits(order.discount),
    discountSource: order.discountSource,
    promoCode: order.promoCode,
    /** Spending credit (issue 37): the part of the total paid from credit, and what the provider is asked for. */
    creditApplied: toMajorUnits(money(creditMinor, order.total.currency)),
    toPay: toMajorUnits(money(order.total.amount - creditMinor, order.total.currency)),
    creditAvailable: toMajorUnits(money(creditAvailableMinor, order.total.currency)),
    minimumToPay: minimumMinor.map(({ pmId, minor }) => ({ pmId, amount: toMajorUnits(money(minor, order.total.currency)) })),
  };
}
