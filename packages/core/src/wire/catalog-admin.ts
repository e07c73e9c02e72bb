/**
 * The catalog editor's calls (admins, issue 15): the list of every platform, one platform as
 * the editor edits it (texts in English and Korean, options, prices in EUR and KRW as integer
 * minor units), create, update with a version check, show or hide, and the logo upload. The
 * editor's input rules are `catalogPlatformSchema` of validation/ (shared with the web form).
 *
 * A stale `version` on update or setenabled answers 409 `catalog_conflict` with
 * `catalogConflictAnswer`: the current version, the fields that were changed since the version
 * sent, and the platform as it is saved now.
 */
import * as yup from 'yup';
import { ALERT_KINDS } from '../validation/alert-rules.js';
import { CATALOG_ENGLISH_MESSAGES, PLATFORM_CATEGORIES, catalogPlatformSchema } from '../validation/catalog.js';
import { dateTime, flag, id, integer, list, numberOf, text } from './fields.js';

const versionField = yup
  .number()
  .typeError('version must be a number')
  .required('version is required')
  .integer('version must be a whole number')
  .min(1, 'version must be positive');

export const platformIdQuery = yup.object({ id: id('id').required('id is required') });

/** Create: the editable platform (validation/catalog.ts). */
export const createPlatformBody = catalogPlatformSchema(CATALOG_ENGLISH_MESSAGES);

/** Update: the whole editable platform, with the `version` it was read at. */
export const updatePlatformBody = catalogPlatformSchema(CATALOG_ENGLISH_MESSAGES).shape({
  id: id('id').required('id is required'),
  version: versionField,
});

export const setEnabledBody = yup.object({
  id: id('id').required('id is required'),
  isEnabled: yup.boolean().typeError('isEnabled must be true or false').required('isEnabled is required'),
  version: versionField,
});

// Answers.

const localized = () => yup.object({ en: text(), ko: text() });
const pricePair = () => yup.object({ price: integer(), salePrice: integer() });

/** One platform as the editor edits it; the same fields as the input, plus what only the server knows. */
export const editablePlatform = yup
  .object({
    id: integer(),
    /** Moves with every save through the editor; send it back with the next update. */
    version: integer(),
    name: localized(),
    description: localized(),
    howItWorks: list(localized()),
    faq: list(yup.object({ question: localized(), answer: localized() })),
    colorOne: text(),
    colorTwo: text(),
    logoBase: text(),
    logoCarousel: text(),
    category: numberOf(PLATFORM_CATEGORIES).defined(),
    slotsCount: integer(),
    needsInvitation: flag(),
    isEnabled: flag(),
    durations: list(
      yup.object({
        key: text(),
        id: integer(),
        name: localized(),
        months: integer(),
        isEnabled: flag(),
        /** Orders name it: it can be disabled, not removed. */
        hasOrders: flag(),
      }),
    ),
    types: list(yup.object({ key: text(), id: integer(), name: localized(), isEnabled: flag(), hasOrders: flag() })),
    prices: list(yup.object({ durationKey: text(), typeKey: text(), eur: pricePair(), krw: pricePair() })),
    /** Accounts that take new subscriptions (read-only here; staff add them in "Create subscription"). */
    activeAccounts: integer(),
    /** Account-alert rules (issue 29): the platform's senders, its link hosts (issue 33), and phrases per alert kind, tried in order. */
    alertRules: yup
      .object({
        senders: list(text()),
        /** Hosts a household or verification link may point at (issue 33); others are dropped. */
        linkHosts: list(text()),
        rules: list(
          yup.object({
            kind: yup
              .string()
              .oneOf([...ALERT_KINDS])
              .defined(),
            subject: list(text()),
            body: list(text()),
          }),
        ),
      })
      .defined(),
    updatedAt: dateTime(),
  })
  .meta({ name: 'EditablePlatform' });

export const platformListItem = yup
  .object({
    id: integer(),
    version: integer(),
    name: localized(),
    category: numberOf(PLATFORM_CATEGORIES).defined(),
    logoBase: text(),
    colorOne: text(),
    colorTwo: text(),
    slotsCount: integer(),
    isEnabled: flag(),
    /** Enabled durations and types, and how many of their enabled pairs lack a price (0 when it can be sold). */
    enabledDurations: integer(),
    enabledTypes: integer(),
    /** Orders placed for it, any state. */
    ordersCount: integer(),
    /** Accounts that take new subscriptions; 0 on a shown platform: its orders wait for staff. */
    activeAccounts: integer(),
    updatedAt: dateTime(),
  })
  .meta({ name: 'CatalogPlatformListItem' });
export const platformListAnswer = list(platformListItem);

/** The body of the 409 `catalog_conflict` answer (someone saved the platform since it was read). */
export const catalogConflictAnswer = yup
  .object({
    message: text(),
    code: yup
      .string()
      .oneOf(['catalog_conflict'] as const)
      .defined(),
    /** The version saved now: send it with the next update. */
    version: integer(),
    /**
     * Top-level fields (`name`, `prices`, `isEnabled`...) that the saves since the version sent changed
     * (from their audit entries), so the editor can show what someone else changed.
     */
    fields: list(text()),
    current: editablePlatform.defined(),
  })
  .meta({ name: 'CatalogConflict' });

/** What an upload answers: the stable URL to put in `logoBase` or `logoCarousel`. */
export const uploadAnswer = yup.object({
  url: text(),
  contentType: yup
    .string()
    .oneOf(['image/svg+xml', 'image/png', 'image/webp'] as const)
    .defined(),
  size: integer(),
  sha256: text(),
  /** SVG only: true when the sanitiser removed something (scripts, event handlers, external links). */
  sanitized: flag(),
});

export type PlatformIdQuery = yup.InferType<typeof platformIdQuery>;
export type CreatePlatformBody = yup.InferType<typeof createPlatformBody>;
export type UpdatePlatformBody = yup.InferType<typeof updatePlatformBody>;
export type SetEnabledBody = yup.InferType<typeof setEnabledBody>;
export type EditablePlatform = yup.InferType<typeof editablePlatform>;
export type PlatformListItem = yup.InferType<typeof platformListItem>;
export type CatalogConflictAnswer = yup.InferType<typeof catalogConflictAnswer>;
export type UploadAnswer = yup.InferType<typeof uploadAnswer>;
