/**
 * Catalog rules (spec sections 2 and 9): prices per month and the home logo carousel.
 *
 * Pure functions only. This file is imported by Node unit tests as well as by Vite, so it
 * must not import the DOM, React or Redux, and its relative imports carry `.js` (NodeNext).
 */
import { formatMoney } from '@subshare/core/storefront';
import type { CurrencyAmount, CurrencyCode, Platform, PlatformPrice } from '../../services/api/types.js';

// ---------------------------------------------------------------- currencies

/** Spec: 1 EUR, 2 KRW; the first is the default. */
export const CURRENCIES: ReadonlyArray<{ id: number; code: CurrencyCode; fractionDigits: number }> = [
  { id: 1, code: 'EUR', fractionDigits: 2 },
  { id: 2, code: 'KRW', fractionDigits: 0 },
];

export const DEFAULT_CURRENCY: CurrencyCode = 'EUR';

export function isCurrencyCode(value: unknown): value is CurrencyCode {
  return CURRENCIES.some((currency) => currency.code === value);
}

function currencyOf(code: CurrencyCode) {
  return CURRENCIES.find((currency) => currency.code === code) ?? CURRENCIES[0]!;
}

export function currencyIdOf(code: CurrencyCode): number {
  return currencyOf(code).id;
}

/** Rounds to the currency's minor unit: cents for EUR, whole won for KRW. */
export function roundToCurrency(amount: number, code: CurrencyCode): number {
  const factor = 10 ** currencyOf(code).fractionDigits;
  return Math.round((amount + Number.EPSILON) * factor) / factor;
}

/**
 * The number part of a price: "4.99", "6,900". KRW never shows decimals, EUR always shows two
 * (schema.org's plain amount, in entry-server.tsx, is built from it).
 */
export function formatAmount(amount: number, code: CurrencyCode, _locale?: string): string {
  const digits = currencyOf(code).fractionDigits;
  const fixed = Math.abs(roundToCurrency(amount, code)).toFixed(digits);
  const [whole = '0', fraction] = fixed.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${amount < 0 && Number(fixed) !== 0 ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/**
 * A price as the whole shop writes it: "€17.09", "₩25,500", in both languages, by the one money
 * formatter the e-mails use too (@subshare/core/storefront `formatMoney`; docs/money.md says why
 * this form). Rounded to the currency first.
 */
export function formatPrice(amount: number, code: CurrencyCode, _locale?: string): string {
  return formatMoney(roundToCurrency(amount, code), code);
}

// ---------------------------------------------------------------- prices

/** The first option flagged enabled (the preselected duration or type), if any. */
export function firstEnabled<T extends { isEnable: boolean }>(items: readonly T[]): T | undefined {
  return items.find((item) => item.isEnable);
}

export function findPrice(platform: Platform, durationId: number, typeId: number): PlatformPrice | undefined {
  return platform.prices.find((entry) => entry.durationId === durationId && entry.typeId === typeId);
}

export function amountIn(amounts: readonly CurrencyAmount[], code: CurrencyCode): number | undefined {
  const currencyId = currencyIdOf(code);
  return amounts.find((amount) => amount.currencyId === currencyId)?.price;
}

/**
 * What the buyer pays for a duration and type in a currency: the sale price, or the regular
 * price when no sale price is set for that currency. Null when the catalog has no price.
 */
export function salePrice(platform: Platform, durationId: number, typeId: number, code: CurrencyCode): number | null {
  const entry = findPrice(platform, durationId, typeId);
  if (!entry) return null;
  return amountIn(entry.salePrice, code) ?? amountIn(entry.price, code) ?? null;
}

/** Spec: monthly price = sale price / the duration's months, rounded to the currency. */
export function monthlyPrice(platform: Platform, durationId: number, typeId: number, code: CurrencyCode): number | null {
  const months = platform.duration.find((duration) => duration.id === durationId)?.value;
  const price = salePrice(platform, durationId, typeId, code);
  if (price === null || !months || months <= 0) return null;
  return roundToCurrency(price / months, code);
}

/** What the buyer pays without the sale (the regular price), when the catalog has one. */
export function regularPrice(platform: Platform, durationId: number, typeId: number, code: CurrencyCode): number | null {
  const entry = findPrice(platform, durationId, typeId);
  return entry ? (amountIn(entry.price, code) ?? null) : null;
}

/** The sale's discount in whole percent (0 when there is none). */
export function discountPercent(regular: number | null, sale: number | null): number {
  if (regular === null || sale === null || regular <= 0 || sale >= regular) return 0;
  return Math.round((1 - sale / regular) * 100);
}

/**
 * The home card's "from" price: the sale price of the first enabled duration (with the first
 * enabled type) divided by that duration's months.
 */
export function minMonthlyPrice(platform: Platform, code: CurrencyCode): number | null {
  const duration = firstEnabled(platform.duration);
  const type = firstEnabled(platform.type);
  if (!duration || !type) return null;
  return monthlyPrice(platform, duration.id, type.id, code);
}

// ---------------------------------------------------------------- logo carousel

/** The first four logos fill the visible slots; the rest follow one by one. */
export const CAROUSEL_FIXED_SLOTS = 4;
/** The list never grows beyond this; the oldest item is dropped. */
export const CAROUSEL_MAX_ITEMS = 20;
export const CAROUSEL_INTERVAL_MS = 3500;

export interface CarouselLogo {
  platformId: number;
  name: string;
  logo: string;
}

export interface CarouselItem extends CarouselLogo {
  /** Unique for the life of the carousel, so the UI can key and animate items. */
  key: number;
}

export interface CarouselState {
  items: CarouselItem[];
  /** Index in the logo list of the next logo to append; wraps to 0 at the end. */
  nextIndex: number;
  nextKey: number;
}

export function carouselLogosOf(platforms: readonly Platform[]): CarouselLogo[] {
  return platforms
    .map((platform) => ({ platformId: platform.id, name: platform.name, logo: platform.logoCarousel || platform.logoBase }))
    .filter((logo) => Boolean(logo.logo));
}

/** Rotating only makes sense when there are more logos than visible slots. */
export function canRotate(logos: readonly CarouselLogo[]): boolean {
  return logos.length > CAROUSEL_FIXED_SLOTS;
}

export function createCarousel(logos: readonly CarouselLogo[]): CarouselState {
  const items = logos.slice(0, CAROUSEL_FIXED_SLOTS).map((logo, index) => ({ ...logo, key: index }));
  return { items, nextIndex: logos.length > items.length ? items.length : 0, nextKey: items.length };
}

/** One rotation: append the next logo, wrap the index at the end, keep at most 20 items. */
export function advanceCarousel(state: CarouselState, logos: readonly CarouselLogo[]): CarouselState {
  if (logos.length === 0) return state;
  const index = state.nextIndex < logos.length ? state.nextIndex : 0;
  const appended = [...state.items, { ...logos[index]!, key: state.nextKey }];
  return {
    items: appended.slice(Math.max(0, appended.length - CAROUSEL_MAX_ITEMS)),
    nextIndex: (index + 1) % logos.length,
    nextKey: state.nextKey + 1,
  };
}
