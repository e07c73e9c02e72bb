/**
 * The catalog editor's form (issue 15): one platform with its texts in English and Korean, its
 * options and its prices, checked the same way by the admin area and by the server. Pure yup,
 * like the rest of validation/. Errors are per field (`name.ko`, `prices[3].krw.salePrice`);
 * the web passes its Korean messages, the server answers in English.
 *
 * Durations are named by `months` (one duration per number of months in a platform); types by
 * `id` when they exist and are created when they come without one. Prices name their duration
 * and type by `durationKey` and `typeKey`, the `key` of an item in `durations` and `types`:
 * any string unique in its list (the server sends `String(id)`; a new item may use "new-1").
 * Money is integer minor units: EUR cents, KRW whole won.
 */
import * as yup from 'yup';
import { ACCOUNT_SLOTS } from '../promises/index.js';
import { PLATFORM_CATEGORIES, PLATFORM_CATEGORY, platformCategory, type PlatformCategory } from '../wire/enums.js';
import { ALERT_RULE_ENGLISH_MESSAGES, alertRulesSchema, type AlertRuleMessages } from './alert-rules.js';

/**
 * What the logo upload accepts: the admin area checks a file against these before sending it, and
 * the server checks the bytes again (modules/catalog/logo-file.ts), each type by its extension.
 */
export const LOGO_MAX_BYTES = 256 * 1024;
export const LOGO_TYPES = { 'image/svg+xml': 'svg', 'image/png': 'png', 'image/webp': 'webp' } as const;
export type LogoType = keyof typeof LOGO_TYPES;

export interface CatalogMessages {
  required: string;
  maxLength: (max: number) => string;
  tooMany: (max: number) => string;
  atLeastOne: string;
  color: string;
  mediaUrl: string;
  category: string;
  wholeNumber: string;
  range: (min: number, max: number) => string;
  /** EUR amounts are cents. */
  eurCents: string;
  /** KRW has no minor unit. */
  krwWhole: string;
  positive: string;
  saleAbovePrice: string;
  duplicateKey: string;
  duplicateMonths: string;
  unknownKey: string;
  /** A price is missing for an enabled duration × type (names the pair). */
  priceMissing: (duration: string, type: string) => string;
  duplicatePrice: string;
  /** An enabled platform with no enabled duration or type (optional: English when not given). */
  noneEnabled?: string;
  /** The account-alert rules' messages (optional: English when not given). */
  alertRules?: AlertRuleMessages;
}

export const CATALOG_ENGLISH_MESSAGES: CatalogMessages = {
  required: 'This field is required.',
  maxLength: (max) => `Use at most ${max} characters.`,
  tooMany: (max) => `Use at most ${max} items.`,
  atLeastOne: 'Add at least one.',
  color: 'Use a colour like #1a2b3c.',
  mediaUrl: 'Use an uploaded logo (/media/...) or an https:// address.',
  category: 'Choose video streaming (0), music (1) or AI chat (8).',
  wholeNumber: 'Use a whole number.',
  range: (min, max) => `Use a number from ${min} to ${max}.`,
  eurCents: 'EUR prices are whole cents (499 for 4.99 EUR).',
  krwWhole: 'KRW prices are whole won, without decimals.',
  positive: 'Use an amount above 0.',
  saleAbovePrice: 'The sale price cannot be higher than the price.',
  duplicateKey: 'This key is used twice in the list.',
  duplicateMonths: 'Two durations have the same number of months.',
  unknownKey: 'No duration or type in the lists has this key.',
  priceMissing: (duration, type) => `A price in EUR and KRW is missing for ${duration} × ${type}.`,
  duplicatePrice: 'This duration and type are priced twice.',
  noneEnabled: 'A platform on sale needs at least one enabled duration and one enabled type.',
};

export const CATALOG_LIMITS = {
  name: 60,
  description: 2_000,
  howItWorks: { items: 12, length: 300 },
  faq: { items: 20, question: 200, answer: 2_000 },
  optionName: 40,
  options: 12,
  key: 40,
  months: { min: 1, max: 36 },
  slots: ACCOUNT_SLOTS,
  mediaUrl: 500,
  /** 1,000,000.00 EUR and 1,000,000,000 KRW: far above any real price, well inside an integer column. */
  amount: { EUR: 100_000_000, KRW: 1_000_000_000 },
} as const;

/** Declared with the wire's other numbered kinds (wire/enums.ts). */
export { PLATFORM_CATEGORIES, PLATFORM_CATEGORY, platformCategory, type PlatformCategory };
export const COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;
/** An upload of this shop (`/media/uploads/<sha256>.<ext>`), the demo's own files (`/media/...`), or an https address. */
export const MEDIA_URL_PATTERN = /^(\/media\/[A-Za-z0-9][A-Za-z0-9._/-]*|https:\/\/[^\s"'<>]+)$/;

const requiredText = (m: CatalogMessages, max: number) => yup.string().trim().required(m.required).max(max, m.maxLength(max));

/** One text in both languages. */
export const localizedText = (m: CatalogMessages, max: number) => yup.object({ en: requiredText(m, max), ko: requiredText(m, max) });

const wholeNumber = (m: CatalogMessages, min: number, max: number) =>
  yup.number().typeError(m.wholeNumber).required(m.required).integer(m.wholeNumber).min(min, m.range(min, max)).max(max, m.range(min, max));

const amount = (m: CatalogMessages, currency: 'EUR' | 'KRW') =>
  yup
    .number()
    .typeError(m.wholeNumber)
    .required(m.required)
    .integer(currency === 'KRW' ? m.krwWhole : m.eurCents)
    .min(1, m.positive)
    .max(CATALOG_LIMITS.amount[currency], m.range(1, CATALOG_LIMITS.amount[currency]));

/** A price and a sale price in one currency; the sale price is what the buyer pays. */
const pricePair = (m: CatalogMessages, currency: 'EUR' | 'KRW') =>
  yup
    .object({ price: amount(m, currency), salePrice: amount(m, currency) })
    .required(m.required)
    .test('sale-not-above-price', m.saleAbovePrice, function check(value) {
      if (!value || typeof value.price !== 'number' || typeof value.salePrice !== 'number' || value.salePrice <= value.price) return true;
      return this.createError({ path: `${this.path}.salePrice`, message: m.saleAbovePrice });
    });

const mediaUrl = (m: CatalogMessages) => requiredText(m, CATALOG_LIMITS.mediaUrl).matches(MEDIA_URL_PATTERN, m.mediaUrl);
const color = (m: CatalogMessages) => yup.string().trim().required(m.required).matches(COLOR_PATTERN, m.color);
const key = (m: CatalogMessages) => requiredText(m, CATALOG_LIMITS.key);
const optionalId = yup.number().typeError('id must be a number').integer('id must be a whole number').min(1, 'id must be positive').optional();

/** Reports the second use of a value in a list at that item's field. */
function uniqueIn(items: unknown[] | undefined, list: string, field: string, message: string, ctx: yup.TestContext) {
  const seen = new Set<unknown>();
  for (const [index, item] of (items ?? []).entries()) {
    const v = (item as Record<string, unknown> | undefined)?.[field];
    if (v === undefined || v === null || v === '') continue;
    if (seen.has(v)) return ctx.createError({ path: `${list}[${index}].${field}`, message });
    seen.add(v);
  }
  return true;
}

/**
 * A platform's list of options, durations or types: 1 to `CATALOG_LIMITS.options` items, each
 * with a key unique in the list, an optional id, a name in both languages, the list's own
 * `fields` and an on/off switch; `alsoUnique` names a second field no two items may share.
 */
function optionList<Fields extends yup.ObjectShape>(
  m: CatalogMessages,
  list: 'durations' | 'types',
  fields: Fields,
  alsoUnique: { test: string; field: 'months' | 'id'; message: string },
) {
  return yup
    .array(
      yup
        .object({
          key: key(m),
          id: optionalId,
          name: localizedText(m, CATALOG_LIMITS.optionName).required(m.required),
          ...fields,
          isEnabled: yup.boolean().typeError(m.required).required(m.required),
        })
        .required(m.required),
    )
    .required(m.required)
    .min(1, m.atLeastOne)
    .max(CATALOG_LIMITS.options, m.tooMany(CATALOG_LIMITS.options))
    .test('unique-keys', m.duplicateKey, function check(items) {
      return uniqueIn(items, list, 'key', m.duplicateKey, this);
    })
    .test(alsoUnique.test, alsoUnique.message, function check(items) {
      return uniqueIn(items, list, alsoUnique.field, alsoUnique.message, this);
    });
}

/** The editable platform as the editor sends it (create; update adds `id` and `version`). */
export const catalogPlatformSchema = (m: CatalogMessages = CATALOG_ENGLISH_MESSAGES) =>
  yup
    .object({
      name: localizedText(m, CATALOG_LIMITS.name).required(m.required),
      description: localizedText(m, CATALOG_LIMITS.description).required(m.required),
      howItWorks: yup
        .array(localizedText(m, CATALOG_LIMITS.howItWorks.length).required(m.required))
        .required(m.required)
        .max(CATALOG_LIMITS.howItWorks.items, m.tooMany(CATALOG_LIMITS.howItWorks.items)),
      faq: yup
        .array(
          yup
            .object({
              question: localizedText(m, CATALOG_LIMITS.faq.question).required(m.required),
              answer: localizedText(m, CATALOG_LIMITS.faq.answer).required(m.required),
            })
            .required(m.required),
        )
        .required(m.required)
        .max(CATALOG_LIMITS.faq.items, m.tooMany(CATALOG_LIMITS.faq.items)),
      colorOne: color(m),
      colorTwo: color(m),
      logoBase: mediaUrl(m),
      logoCarousel: mediaUrl(m),
      category: yup
        .number()
        .typeError(m.category)
        .required(m.required)
        .oneOf([...PLATFORM_CATEGORIES], m.category) as unknown as yup.NumberSchema<PlatformCategory>,
      slotsCount: wholeNumber(m, CATALOG_LIMITS.slots.min, CATALOG_LIMITS.slots.max),
      needsInvitation: yup.boolean().typeError(m.required).required(m.required),
      isEnabled: yup.boolean().typeError(m.required).required(m.required),
      /** The account-alert rules (issue 29); left out on update, the saved ones stay. */
      alertRules: alertRulesSchema(m.alertRules ?? ALERT_RULE_ENGLISH_MESSAGES).default(undefined),
      durations: optionList(
        m,
        'durations',
        // `id` is read back from the server; durations are matched by months.
        { months: wholeNumber(m, CATALOG_LIMITS.months.min, CATALOG_LIMITS.months.max) },
        { test: 'unique-months', field: 'months', message: m.duplicateMonths },
      ),
      // `id`: an existing type; without one, a new type is created.
      types: optionList(m, 'types', {}, { test: 'unique-ids', field: 'id', message: m.duplicateKey }),
      prices: yup
        .array(
          yup
            .object({
              durationKey: key(m),
              typeKey: key(m),
              eur: pricePair(m, 'EUR'),
              krw: pricePair(m, 'KRW'),
            })
            .required(m.required),
        )
        .required(m.required)
        .max(CATALOG_LIMITS.options * CATALOG_LIMITS.options, m.tooMany(CATALOG_LIMITS.options * CATALOG_LIMITS.options)),
    })
    .test('prices-cover-enabled-options', m.priceMissing('', ''), function check(value) {
      // A list of the wrong type is reported on its own; keys cannot be checked against it.
      if (!value || !Array.isArray(value.durations) || !Array.isArray(value.types)) return true;
      const durations = value.durations;
      const types = value.types;
      const durationKeys = new Set(durations.map((d) => d.key));
      const typeKeys = new Set(types.map((t) => t.key));
      const priced = new Set<string>();
      for (const [index, price] of (value.prices ?? []).entries()) {
        if (!durationKeys.has(price?.durationKey)) return this.createError({ path: `prices[${index}].durationKey`, message: m.unknownKey });
        if (!typeKeys.has(price?.typeKey)) return this.createError({ path: `prices[${index}].typeKey`, message: m.unknownKey });
        const pair = JSON.stringify([price.durationKey, price.typeKey]);
        if (priced.has(pair)) return this.createError({ path: `prices[${index}]`, message: m.duplicatePrice });
        priced.add(pair);
      }
      for (const duration of durations) {
        if (!duration?.isEnabled) continue;
        for (const type of types) {
          if (!type?.isEnabled || priced.has(JSON.stringify([duration.key, type.key]))) continue;
          return this.createError({ path: 'prices', message: m.priceMissing(duration.name?.en || `${duration.months}`, type.name?.en || type.key) });
        }
      }
      const noneEnabled = m.noneEnabled ?? CATALOG_ENGLISH_MESSAGES.noneEnabled!;
      if (value.isEnabled === true && durations.length > 0 && !durations.some((d) => d?.isEnabled))
        return this.createError({ path: 'durations', message: noneEnabled });
      if (value.isEnabled === true && types.length > 0 && !types.some((t) => t?.isEnabled)) return this.createError({ path: 'types', message: noneEnabled });
      return true;
    });

export type CatalogPlatformInput = yup.InferType<ReturnType<typeof catalogPlatformSchema>>;
