/** Small helpers the operator commands share: argument checks before anything opens, and readable values. */
import { isOrderState, ORDER_STATE_NAMES, PAYMENT_METHOD_NAMES, toMajorUnits, ValidationError, type Money, type OrderState } from '@subshare/core';

/** A positive whole number from the command line, or a one-line error naming the argument. */
export function positiveInteger(label: string, raw: string | undefined): number {
  const text = (raw ?? '').trim();
  const value = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new ValidationError(`${label} must be a positive whole number (got "${raw ?? ''}").`, undefined, 'invalid_argument');
  return value;
}

/** 2026-11-27 10:49 UTC; '-' when there is none. */
export function utc(date: Date | null | undefined): string {
  if (!date) return '-';
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** 4.99 EUR, 6900 KRW: the currency's own decimals (KRW has none). */
export function amountText(value: Money): string {
  return `${toMajorUnits(value).toFixed(value.currency === 'KRW' ? 0 : 2)} ${value.currency}`;
}

/** Profile number as the panel shows it: the whole account for slot 0, "profile n of m" otherwise. */
export function slotText(slot: number, slotsCount: number): string {
  return slot === 0 ? 'the whole account' : `profile ${slot} of ${slotsCount}`;
}

/** The spec's payment method ids, by name (the CSV export writes the same names). */
export { PAYMENT_METHOD_NAMES };

/** The order states' names (wire/enums.ts). */
export { ORDER_STATE_NAMES };

/** An order state, its number only; anything else is a one-line error before the database is opened. */
export function orderState(raw: string): OrderState {
  const state = /^\d{1,2}$/.test(raw.trim()) ? Number(raw.trim()) : undefined;
  if (!isOrderState(state)) {
    const known = Object.entries(ORDER_STATE_NAMES)
      .map(([known, name]) => `${known} ${name}`)
      .join(', ');
    throw new Error(`--state must be an order state: ${known} (got "${raw}").`);
  }
  return state;
}

/** Plain-text columns, padded to the widest cell, two spaces apart. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column])))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}
