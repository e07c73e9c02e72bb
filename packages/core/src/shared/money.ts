/**
 * Money is kept as integer minor units together with its currency: EUR in cents, KRW in
 * whole won (KRW has no minor unit). On the wire, amounts travel as decimal numbers in major
 * units (4.99 EUR, 6900 KRW), which is what the spec's client expects.
 */
export const CURRENCIES = {
  EUR: { id: 1, code: 'EUR', minorDigits: 2 },
  KRW: { id: 2, code: 'KRW', minorDigits: 0 },
} as const;

export type CurrencyCode = keyof typeof CURRENCIES;
export type CurrencyId = (typeof CURRENCIES)[CurrencyCode]['id'];

export const DEFAULT_CURRENCY: CurrencyCode = 'EUR';

export interface Money {
  readonly amount: number; // integer minor units
  readonly currency: CurrencyCode;
}

export function isCurrencyCode(value: unknown): value is CurrencyCode {
  return typeof value === 'string' && Object.hasOwn(CURRENCIES, value);
}

export function currencyById(id: number): CurrencyCode | undefined {
  return (Object.keys(CURRENCIES) as CurrencyCode[]).find((code) => CURRENCIES[code].id === id);
}

export function money(amount: number, currency: CurrencyCode): Money {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`Money amount must be an integer of minor units, got ${amount}`);
  return { amount, currency };
}

/** 499 EUR cents → 4.99; 6900 KRW → 6900. */
export function toMajorUnits(value: Money): number {
  const digits = CURRENCIES[value.currency].minorDigits;
  return Number((value.amount / 10 ** digits).toFixed(digits));
}

/** 4.99 EUR → 499 cents. Rejects amounts with more precision than the currency has. */
export function fromMajorUnits(major: number, currency: CurrencyCode): Money {
  const digits = CURRENCIES[currency].minorDigits;
  const scaled = Math.round(major * 10 ** digits);
  if (Math.abs(scaled / 10 ** digits - major) > 1e-9) {
    throw new RangeError(`${major} has more decimals than ${currency} allows`);
  }
  return money(scaled, currency);
}

/**
 * Divides money into `parts` and rounds to the currency's smallest unit (half up). Used for
 * "per month" prices, which are shown, never charged.
 */
export function divide(value: Money, parts: number): Money {
  if (!(parts > 0)) throw new RangeError('Cannot divide money by zero or a negative number');
  return money(Math.round(value.amount / parts), value.currency);
}

export function add(a: Money, b: Money): Money {
  if (a.currency !== b.currency) throw new RangeError(`Cannot add ${a.currency} to ${b.currency}`);
  return money(a.amount + b.amount, a.currency);
}

export function multiply(value: Money, factor: number): Money {
  if (!Number.isSafeInteger(factor)) throw new RangeError('Money can only be multiplied by an integer');
  return money(value.amount * factor, value.currency);
}
