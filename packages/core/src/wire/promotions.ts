/**
 * Promotion codes (issue 37): staff create, change and list codes; a buyer applies one to an
 * unpaid order. Amounts travel in major units (4.99 EUR, 6900 KRW) like every amount of the API.
 */
import * as yup from 'yup';
import { dateTime, flag, id, integer, INTEGER_MAX, list, text } from './fields.js';

/** An id the call cannot do without (as orders' `neededId`; that file imports this one). */
const neededId = (label: string) => id(label).min(1, `${label} is required`).required(`${label} is required`);

/** Letters, digits, `-` and `_`, 3 to 32 of them; any case (codes are case-insensitive). */
export const PROMO_CODE_PATTERN = /^[A-Za-z0-9_-]{3,32}$/;

/** A code as a buyer types it: spaces around it dropped. */
export const promoCodeField = yup
  .string()
  .trim()
  .matches(PROMO_CODE_PATTERN, 'code is 3 to 32 letters, digits, - or _')
  .max(32, 'code is 3 to 32 letters, digits, - or _');

const isoDate = (label: string) =>
  yup
    .string()
    .meta({ format: 'date-time' })
    .test(
      'date',
      `${label} must be an ISO 8601 date-time`,
      (value) => value === null || value === undefined || (/^\d{4}-\d\d-\d\dT/.test(value) && !Number.isNaN(Date.parse(value))),
    )
    .nullable();

const limit = (label: string) =>
  yup
    .number()
    .typeError(`${label} must be a number`)
    .integer(`${label} must be a whole number`)
    .min(1, `${label} must be at least 1`)
    .max(INTEGER_MAX)
    .nullable();

const ids = (label: string) => yup.array(id(label).defined()).min(1, `${label} names at least one, or is null for all`).max(200).nullable();

/** Fixed amounts per currency, in major units; a currency left out is not served by the code. */
const amountsField = yup
  .object({
    EUR: yup.number().typeError('EUR must be a number').min(0.01, 'EUR must be at least 0.01').max(100_000).optional(),
    KRW: yup.number().typeError('KRW must be a number').integer('KRW is whole won').min(1, 'KRW must be at least 1').max(100_000_000).optional(),
  })
  .nullable()
  .default(null);

/** What a code promises: a percentage or fixed amounts (exactly one), and its conditions. */
const termsFields = {
  percentOff: yup.number().typeError('percentOff must be a number').integer('percentOff must be a whole number').min(1).max(99).nullable().default(null),
  amounts: amountsField,
  startsAt: isoDate('startsAt').default(null),
  endsAt: isoDate('endsAt').default(null),
  totalLimit: limit('totalLimit').default(null),
  perBuyerLimit: limit('perBuyerLimit').default(1),
  firstOrderOnly: yup.boolean().strict().typeError('firstOrderOnly must be true or false').default(false),
  platformIds: ids('platformIds').default(null),
  durationIds: ids('durationIds').default(null),
  note: yup.string().trim().max(200, 'note is at most 200 characters').nullable().default(null),
};

const oneKind = (value: { percentOff?: number | null; amounts?: { EUR?: number; KRW?: number } | null }) =>
  ((value.percentOff ?? null) !== null) !== ((value.amounts ?? null) !== null && (value.amounts!.EUR !== undefined || value.amounts!.KRW !== undefined));

export const createPromoBody = yup
  .object({ code: promoCodeField.required('code is required'), ...termsFields })
  .test('kind', 'Give a percentOff or amounts (EUR, KRW), not both', oneKind)
  .test('window', 'endsAt must be after startsAt', (value) => !value.startsAt || !value.endsAt || Date.parse(value.startsAt) < Date.parse(value.endsAt));

/**
 * A change: the fields given replace the code's; `active: false` deactivates it (buyers are then
 * told it is unknown; orders it is on keep their discount). The code's text itself never changes.
 */
export const updatePromoBody = yup.object({
  id: neededId('id'),
  active: yup.boolean().strict().typeError('active must be true or false').optional(),
  percentOff: termsFields.percentOff.optional().default(undefined),
  amounts: amountsField.optional().default(undefined),
  startsAt: isoDate('startsAt').optional(),
  endsAt: isoDate('endsAt').optional(),
  totalLimit: limit('totalLimit').optional(),
  perBuyerLimit: limit('perBuyerLimit').optional(),
  firstOrderOnly: yup.boolean().strict().typeError('firstOrderOnly must be true or false').optional(),
  platformIds: ids('platformIds').optional(),
  durationIds: ids('durationIds').optional(),
  note: yup.string().trim().max(200, 'note is at most 200 characters').nullable().optional(),
});

export const applyPromoBody = yup.object({
  orderId: neededId('orderId'),
  code: promoCodeField.required('code is required'),
});

const amountIn = yup.object({
  currencyCode: yup
    .string()
    .oneOf(['EUR', 'KRW'] as const)
    .defined(),
  amount: yup.number().defined(),
});

/** A code as staff see it, with what it has given. */
export const promoCode = yup
  .object({
    id: integer(),
    /** Upper case, as stored. */
    code: text(),
    active: flag(),
    percentOff: yup.number().nullable().defined(),
    /** Fixed amounts in major units; empty for a percentage. */
    amounts: list(amountIn),
    startsAt: dateTime().nullable(),
    endsAt: dateTime().nullable(),
    totalLimit: yup.number().nullable().defined(),
    perBuyerLimit: yup.number().nullable().defined(),
    firstOrderOnly: flag(),
    platformIds: yup.array(integer()).nullable().defined(),
    durationIds: yup.array(integer()).nullable().defined(),
    note: yup.string().nullable().defined(),
    /** Live redemptions: orders that carry the code, paid or still payable (what the total limit counts). */
    redeemed: integer(),
    /** Redemptions on paid orders (paid, completed or refunded). */
    paidRedemptions: integer(),
    /** The discount the paid orders got, per currency, in major units. */
    granted: list(amountIn),
    createdDate: dateTime(),
    updatedDate: dateTime(),
  })
  .meta({ name: 'PromoCode' });

export const promoList = list(promoCode);

export type CreatePromoInput = yup.InferType<typeof createPromoBody>;
export type UpdatePromoInput = yup.InferType<typeof updatePromoBody>;
export type ApplyPromoInput = yup.InferType<typeof applyPromoBody>;
export type PromoCodeAnswer = yup.InferType<typeof promoCode>;
