/** Numbers, dates and order states of the admin area, in the interface language's format. */
import type { AdminOrder } from '../../services/api/admin';
import { formatMoney } from './money.js';

/** Order states the admin area acts on (the product brief's numbers). */
export const COMPLETED_STATE = 2;
export const REFUNDED_STATE = 5;
/** Paid, waiting for a slot: Activate. */
export const WAITING_STATE = 6;
/** Paid orders (completed or waiting) are the ones an admin may refund; the quote has the last word. */
export const isRefundableState = (state: number | undefined): boolean => state === COMPLETED_STATE || state === WAITING_STATE;

const valid = (iso: string | null | undefined): Date | null => {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** "Nov 27, 2026, 3:04 PM". */
export function formatDateTime(iso: string | null | undefined, culture: string): string {
  const date = valid(iso);
  return date ? new Intl.DateTimeFormat(culture, { dateStyle: 'medium', timeStyle: 'short' }).format(date) : '—';
}

/** The spec's "medium date": "Nov 27, 2026". */
export function formatMediumDate(iso: string | null | undefined, culture: string): string {
  const date = valid(iso);
  return date ? new Intl.DateTimeFormat(culture, { dateStyle: 'medium' }).format(date) : '—';
}

export function formatEur(value: number, _culture?: string): string {
  return formatMoney(value, 'EUR');
}

export { formatMoney };

/** A percentage as a number of percent (5 → "5%", 2.5 → "2.5%"). */
export function formatPercent(percent: number, culture: string): string {
  return new Intl.NumberFormat(culture, { style: 'percent', maximumFractionDigits: 2 }).format(percent / 100);
}

/**
 * An order's total in EUR (spec section 9: admin totals in EUR): `totalEur` from the server, or
 * the total itself for an order paid in EUR. Null when only another currency's total is known.
 */
export function orderTotalEur(order: AdminOrder): number | null {
  if (typeof order.totalEur === 'number') return order.totalEur;
  return order.currencyId === 1 ? order.total : null;
}

/** The order's total as shown in the Total (EUR) column. */
export function formatOrderTotal(order: AdminOrder, culture: string): string {
  const eur = orderTotalEur(order);
  if (eur !== null) return formatEur(eur, culture);
  return formatMoney(order.total, order.currencyCode ?? (order.currencyId === 2 ? 'KRW' : 'EUR'));
}

/** A positive whole id from an address segment ("42"), or null. */
export function idOf(value: string | undefined): number | null {
  if (!value || !/^\d{1,15}$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
