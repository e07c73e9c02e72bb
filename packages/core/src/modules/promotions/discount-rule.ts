/**
 * The discount rule: what a promotion code takes off an order, or why it is refused. Pure (no
 * database, no clock): the service gathers the facts, in the transaction that records the
 * redemption, and the rule decides. The total limit is decided here for a clear answer and held
 * again by the database (`promo_codes_total_limit`) when buyers race.
 */
import { money, type CurrencyCode, type Money } from '../../shared/money.js';
import { percentOf } from '../payments/index.js';

/** What a code promises, as staff set it. */
export interface PromoTerms {
  active: boolean;
  /** 1 to 99; null for a fixed amount. */
  percentOff: number | null;
  /** Fixed amounts in minor units per currency; a currency without one is not served. */
  amounts: Partial<Record<CurrencyCode, number>>;
  startsAt: Date | null;
  endsAt: Date | null;
  totalLimit: number | null;
  perBuyerLimit: number | null;
  firstOrderOnly: boolean;
  /** Only orders whose every item is of one of these platforms (null: any platform). */
  platformIds: number[] | null;
  /** Only orders whose every item is of one of these durations (null: any duration). */
  durationIds: number[] | null;
  /** Live redemptions so far (orders paid or still payable). */
  redeemed: number;
}

/** The facts of the order and its buyer the rule needs. */
export interface OrderFacts {
  /** The order's catalog price, before any discount. */
  subtotal: Money;
  items: ReadonlyArray<{ platformId: number; durationId: number }>;
  /** The buyer's live redemptions of this code on other orders. */
  buyerRedemptions: number;
  /** Whether the buyer has an earlier paid order (paid, completed or refunded). */
  buyerHasPaidOrder: boolean;
  now: Date;
}

/** Why a code is refused: the error dictionary's codes, one each. */
export type PromoRefusal = 'promo_unknown' | 'promo_expired' | 'promo_used_up' | 'promo_not_for_this' | 'promo_first_order_only' | 'promo_already_used';

export type DiscountDecision = { discount: Money } | { refused: PromoRefusal };

/**
 * Codes are case-insensitive: the stored form is upper case, spaces around it dropped. The
 * alphabet is checked by the wire schema and the database.
 */
export function normalizeCode(code: string): string {
  return code.trim().toUpperCase();
}

/**
 * The discount of `terms` on an order, capped at the subtotal less one minor unit: a code never
 * makes an order free (only credit may cover a whole total). Inactive and not-yet-started codes
 * are refused as unknown, so a guess learns nothing from them.
 */
export function discountFor(terms: PromoTerms, order: OrderFacts): DiscountDecision {
  const now = order.now.getTime();
  if (!terms.active || (terms.startsAt && now < terms.startsAt.getTime())) return { refused: 'promo_unknown' };
  if (terms.endsAt && now >= terms.endsAt.getTime()) return { refused: 'promo_expired' };
  if (terms.totalLimit !== null && terms.redeemed >= terms.totalLimit) return { refused: 'promo_used_up' };
  if (terms.platformIds && !order.items.every((item) => terms.platformIds!.includes(item.platformId))) return { refused: 'promo_not_for_this' };
  if (terms.durationIds && !order.items.every((item) => terms.durationIds!.includes(item.durationId))) return { refused: 'promo_not_for_this' };
  if (terms.firstOrderOnly && order.buyerHasPaidOrder) return { refused: 'promo_first_order_only' };
  if (terms.perBuyerLimit !== null && order.buyerRedemptions >= terms.perBuyerLimit) return { refused: 'promo_already_used' };
  const { amount: subtotal, currency } = order.subtotal;
  const off = terms.percentOff !== null ? percentOf(subtotal, terms.percentOff) : terms.amounts[currency];
  // A fixed code without an amount in the order's currency does not serve this order.
  if (off === undefined) return { refused: 'promo_not_for_this' };
  const capped = Math.min(off, subtotal - 1);
  if (capped <= 0) return { refused: 'promo_not_for_this' };
  return { discount: money(capped, currency) };
}
