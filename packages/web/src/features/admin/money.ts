// Its own module (no imports) so that code shared with Node tests (audit/details.ts) can use it.
/** An amount in major units of its currency ("€4.99", "₩6,900": KRW has no minor unit). */
export function formatMoney(value: number, currency: string, culture: string): string {
  try {
    return new Intl.NumberFormat(culture, { style: 'currency', currency }).format(value);
  } catch {
    return `${new Intl.NumberFormat(culture).format(value)} ${currency}`;
  }
}
