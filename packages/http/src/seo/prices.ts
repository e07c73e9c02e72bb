/**
 * Prices as the storefront shows them (spec section 9), from the catalog's integer minor
 * units: the same numbers as the web app's catalog rules, formatted the same way.
 */
import { divide, toMajorUnits, type CurrencyCode, type DurationOption, type Money, type PlanTypeOption, type PlatformView } from '@subshare/core';
import type { Lang } from './texts.js';
import { TEXTS } from './texts.js';

const formatters = new Map<string, Intl.NumberFormat>();

/** "4.99 EUR", "6,900 KRW": KRW never has decimals, EUR always two. */
export function formatMoney(value: Money, lang: Lang): string {
  const digits = value.currency === 'KRW' ? 0 : 2;
  const key = `${lang}:${digits}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat(TEXTS[lang].locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
    formatters.set(key, format);
  }
  return `${format.format(toMajorUnits(value))} ${value.currency}`;
}

/** What the buyer pays for a duration and type: the sale price, else the regular price. */
export function salePrice(platform: PlatformView, durationId: number, typeId: number, currency: CurrencyCode): Money | null {
  const entry = platform.prices.find((price) => price.durationId === durationId && price.typeId === typeId);
  if (!entry) return null;
  return entry.salePrice.find((price) => price.currency === currency) ?? entry.price.find((price) => price.currency === currency) ?? null;
}

export interface PriceLine {
  duration: DurationOption;
  type: PlanTypeOption;
  sale: Money;
  monthly: Money;
}

export function priceLine(platform: PlatformView, duration: DurationOption, type: PlanTypeOption, currency: CurrencyCode): PriceLine | null {
  const sale = salePrice(platform, duration.id, type.id, currency);
  if (!sale || duration.months <= 0) return null;
  return { duration, type, sale, monthly: divide(sale, duration.months) };
}

/**
 * The home card's price (spec section 9): the sale price of the first enabled duration, for
 * the first enabled type, in the current currency, divided by the duration's months.
 */
export function minimumMonthly(platform: PlatformView, currency: CurrencyCode): PriceLine | null {
  const duration = platform.durations.find((option) => option.isEnabled);
  const type = platform.types.find((option) => option.isEnabled);
  if (!duration || !type) return null;
  return priceLine(platform, duration, type, currency);
}
