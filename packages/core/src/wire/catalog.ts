/**
 * Catalog calls: the home page, one platform, the visitor's language, the business details,
 * and the staff's list of every platform. Prices are decimal numbers in major units per
 * currency id (1 EUR, 2 KRW), as the spec's client reads them.
 */
import * as yup from 'yup';
import { currency, flag, id, integer, languageId, list, numberOf, text } from './fields.js';

export const homeQuery = yup.object({ languageId: languageId.optional(), currency: currency.optional() });

export const platformQuery = yup.object({
  id: id('id').required('id is required'),
  languageId: languageId.optional(),
  currency: currency.optional(),
});

const amount = yup.object({ currencyId: integer(), price: yup.number().defined() });

const platformFields = {
  id: integer(),
  name: text(),
  description: text(),
  logoBase: text(),
  logoCarousel: text(),
  colorOne: text(),
  colorTwo: text(),
  howItWorks: list(text()),
  duration: list(yup.object({ id: integer(), name: text(), value: integer(), isEnable: flag() })),
  type: list(yup.object({ id: integer(), name: text(), isEnable: flag() })),
  prices: list(yup.object({ durationId: integer(), typeId: integer(), price: list(amount), salePrice: list(amount) })),
  faq: list(yup.object({ question: text(), answer: text() })),
  slotsCount: integer(),
  /** Beyond the spec: 0 video streaming, 1 music, 8 AI chat. */
  platformType: integer(),
  /** Beyond the spec: the buyer joins a family group with the e-mail of their own login. */
  haveInvitation: flag(),
  /** Beyond the spec (issue 33): every account of the platform is broken; no order can be placed until one is repaired. */
  offSale: flag(),
};

/** A platform in the spec's wire shape (section 3), texts in the requested language. */
export const platform = yup.object(platformFields).meta({ name: 'Platform' });

const currencyCode = yup
  .string()
  .oneOf(['EUR', 'KRW'] as const)
  .defined();

export const homeAnswer = yup.object({ platforms: list(platform), currencyCode });
export const platformAnswer = yup.object({ platform: platform.defined(), currencyCode });
/** Staff: every platform in English, enabled or not. */
export const allPlatformsAnswer = list(yup.object({ ...platformFields, isEnabled: flag() }).meta({ name: 'PlatformWithState' }));
/** A language id: 1 English, 2 Korean. */
export const countryAnswer = numberOf([1, 2] as const).defined();
export const businessAnswer = yup.object({
  name: text(),
  registrationNumber: text(),
  mailOrderNumber: text(),
  address: text(),
  representative: text(),
  supportPhone: text(),
  supportEmail: text(),
});

export type HomeQuery = yup.InferType<typeof homeQuery>;
export type PlatformQuery = yup.InferType<typeof platformQuery>;
export type Platform = yup.InferType<typeof platform>;
export type HomeAnswer = yup.InferType<typeof homeAnswer>;
export type PlatformAnswer = yup.InferType<typeof platformAnswer>;
export type BusinessAnswer = yup.InferType<typeof businessAnswer>;
