/**
 * Orders as CSV (RFC 4180: comma-separated, CRLF line ends, a field in double quotes when it
 * holds a comma, a quote or a line break, quotes doubled inside). The file is opened in
 * spreadsheets, where a cell that starts with = + - @ (or a tab or carriage return) is run as
 * a formula: such cells get a leading apostrophe, so buyer-given text (e-mails, invitation
 * addresses) and catalog names are shown, never run.
 */
import { money, toMajorUnits, type Money } from '../../shared/money.js';
import { PAYMENT_METHOD_NAMES } from '../../wire/enums.js';
import type { OrderView } from './orders.service.js';

export { PAYMENT_METHOD_NAMES };

export const ORDER_CSV_COLUMNS = [
  'id',
  'created',
  'state',
  'userId',
  'email',
  'platform',
  'type',
  'duration',
  'quantity',
  'total',
  'currency',
  'totalEur',
  'paymentMethod',
  'paid',
  'completed',
  'refunded',
] as const;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: made inert for spreadsheets, then quoted when RFC 4180 asks for it. */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, CRLF-terminated. */
export function csvLine(cells: Array<string | number | null | undefined>): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** 4.99 for EUR, 6900 for KRW: the currency's own decimals, as a plain number. */
const amount = (value: Money) => toMajorUnits(value).toFixed(value.currency === 'KRW' ? 0 : 2);

const iso = (date: Date | null) => (date ? date.toISOString() : '');

/** An order's items in one cell each (an order has one item today; several are joined with "; "). */
const joined = (order: OrderView, pick: (item: OrderView['items'][number]) => string) => [...new Set(order.items.map(pick))].join('; ');

/**
 * One order's record. `refundedMinor`: what went back to the buyer (staff refunds, refunds at the
 * provider, chargebacks), in minor units of the order's currency; the cell is empty when nothing did.
 */
export function orderCsvLine(order: OrderView, refundedMinor = 0): string {
  return csvLine([
    order.id,
    iso(order.createdAt),
    order.state,
    order.userId,
    order.email,
    joined(order, (item) => item.platformName),
    joined(order, (item) => item.typeName),
    joined(order, (item) => item.durationName),
    order.items.reduce((sum, item) => sum + item.quantity, 0),
    amount(order.total),
    order.total.currency,
    amount(order.totalEur),
    order.paymentMethod === null ? '' : PAYMENT_METHOD_NAMES[order.paymentMethod],
    iso(order.paidAt),
    iso(order.completedAt),
    refundedMinor > 0 ? amount(money(refundedMinor, order.total.currency)) : '',
  ]);
}
