import type { CurrencyCode, Money } from '../../shared/money.js';

export type LanguageId = 1 | 2;
export const LANGUAGES: Record<LanguageId, { name: string; nameShort: string; culture: string }> = {
  1: { name: 'English', nameShort: 'EN', culture: 'en' },
  2: { name: 'Korean', nameShort: 'KO', culture: 'ko' },
};
export const DEFAULT_LANGUAGE: LanguageId = 1;

export function isLanguageId(value: unknown): value is LanguageId {
  return value === 1 || value === 2;
}

export { PLATFORM_CATEGORY, type PlatformCategory } from '../../validation/catalog.js';

export interface DurationOption {
  id: number;
  months: number;
  name: string;
  isEnabled: boolean;
}

export interface PlanTypeOption {
  id: number;
  name: string;
  isEnabled: boolean;
}

export interface PlatformPrice {
  durationId: number;
  typeId: number;
  price: Money[];
  salePrice: Money[];
}

/** A platform as the storefront shows it, in one language. */
export interface PlatformView {
  id: number;
  slug: string;
  category: number;
  name: string;
  description: string;
  logoBase: string;
  logoCarousel: string;
  colorOne: string;
  colorTwo: string;
  slotsCount: number;
  needsInvitation: boolean;
  maxQuantity: number;
  howItWorks: string[];
  durations: DurationOption[];
  types: PlanTypeOption[];
  prices: PlatformPrice[];
  faq: Array<{ question: string; answer: string }>;
  /** When anything about the platform last changed (texts, options, prices included). */
  updatedAt: Date;
  /** Every active account of the platform is broken (issue 33): shown on its page, no order can be placed. */
  offSale: boolean;
}

export interface CatalogQuery {
  languageId: LanguageId;
}

export type { CurrencyCode };
