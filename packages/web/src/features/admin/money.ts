// Its own module (one import, no browser code) so that code shared with Node tests (audit/details.ts) can use it.
import { formatMoney as shopMoney } from '@subshare/core/storefront';

/**
 * An amount in major units of its currency ("€4.99", "₩6,900": KRW has no minor unit), written by
 * the shop's one money formatter, in both interface languages alike (`culture` is kept for the
 * callers' sake: the form does not depend on it).
 */
export function formatMoney(value: number, currency: string, _culture?: string): string {
  return shopMoney(value, currency);
}
