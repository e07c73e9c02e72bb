/**
 * Order calls: placing an order (priced on the server from the catalog) and reading one. The
 * `Order` shape is also what the payment calls and the staff's order lists answer.
 */
import * as yup from 'yup';
import { ORDER_STATES, PAYMENT_METHOD_IDS } from './enums.js';
import { promoCodeField } from './promotions.js';
import { currency, dateTime, flag, id, integer, languageId, list, numberOf, text } from './fields.js';

/** An id the call cannot do without: 0 reads as "not given", as the spec's client sends it. */
export const neededId = (label: string) => id(label).min(1, `${label} is required`).required(`${label} is required`);

export const insertOrderBody = yup.object({
  platformId: neededId('platformId'),
  typeId: neededId('typeId'),
  durationId: neededId('durationId'),
  quantity: yup.number().typeError('quantity must be a number').integer().min(1, 'quantity must be at least 1').max(10).default(1),
  languageId: languageId.default(1),
  /** Beyond the spec: which currency to pay in (the storefront's current currency); else currencyId, else the visitor's. */
  currency: currency.optional(),
  currencyId: numberOf([1, 2] as const, 'currencyId must be 1 or 2').optional(),
  /** Beyond the spec (issue 37): a promotion code for the order; a refused code refuses the order with its reason. */
  promoCode: promoCodeField.optional(),
});

/** Beyond the spec, `languageId`: what the order bought named in the reader's language; without it, in the buyer's (as kept). */
export const getOrderQuery = yup.object({ id: id('id').required('id is required'), languageId: languageId.optional() });

/** What an order was bought with: the names the buyer saw, kept as they were. */
const orderItem = yup.object({
  platformId: integer(),
  platformName: text(),
  platformColorOne: text(),
  platformLogoBase: text(),
  typeName: text(),
  durationName: text(),
  quantity: integer(),
  haveInvitation: flag(),
  /** The buyer's platform login e-mail for a family invitation, once given. */
  invitationEmail: yup.string().nullable().defined(),
});

/**
 * The spec's order (section 3), total in major units of the order's currency. Beyond it:
 * `currencyCode`, `state`, `totalEur` (what the same options sold for in EUR when the order
 * was made), `paidDate` and `completedDate`.
 */
export const order = yup
  .object({
    id: integer(),
    userId: integer(),
    email: text(),
    total: yup.number().defined(),
    /** 1 EUR, 2 KRW. */
    currencyId: numberOf([1, 2] as const).defined(),
    currencyCode: yup
      .string()
      .oneOf(['EUR', 'KRW'] as const)
      .defined(),
    /** The method of the last checkout started (wire/enums.ts); DEFAULT_PAYMENT_METHOD until one is. */
    paymentMethod: numberOf(PAYMENT_METHOD_IDS).nullable().defined(),
    createdDate: dateTime(),
    /** The methods this order may be paid with, the default first. */
    paymentMethods: list(numberOf(PAYMENT_METHOD_IDS)),
    /** ORDER_STATE of wire/enums.ts. */
    state: numberOf(ORDER_STATES).defined(),
    totalEur: yup.number().defined(),
    paidDate: dateTime().nullable(),
    completedDate: dateTime().nullable(),
    items: list(orderItem),
    /** Issue 37: the catalog price, before the discount (`total` = subtotal − discount). */
    subtotal: yup.number().defined(),
    /** What the order's price is lowered by (0 without one); at most subtotal − the smallest unit. */
    discount: yup.number().defined(),
    /** Where the discount comes from: a promotion code, or the welcome discount of a referred buyer's first order. */
    discountSource: yup
      .string()
      .oneOf(['code', 'welcome'] as const)
      .nullable()
      .defined(),
    /** The promotion code on the order (upper case), when the discount is one. */
    promoCode: yup.string().nullable().defined(),
    /** The part of the total paid from the buyer's credit (issue 37): its paid or open payment's; 0 otherwise. */
    creditApplied: yup.number().defined(),
    /** What the provider is asked for: total − credit applied. */
    toPay: yup.number().defined(),
    /**
     * The holder's credit a checkout of this order could spend (issue 37), in the order's currency:
     * their available credit and what the order's open checkouts hold. The payment page offers it
     * ("Use my credit"), up to the total. 0 in staff's lists and for a reader who is not the holder.
     */
    creditAvailable: yup.number().defined(),
    /**
     * Per method offered, the least a checkout leaves to pay when credit does not cover the whole
     * total: the provider's minimum charge in the order's currency (Stripe's €0.50; 0 without one).
     * Credit pays less rather than leave a smaller rest (PaymentCredit's creditToSpend). Empty in
     * staff's lists and for a reader who is not the holder.
     */
    minimumToPay: list(yup.object({ pmId: numberOf(PAYMENT_METHOD_IDS).defined(), amount: yup.number().defined() })),
  })
  .meta({ name: 'Order' });

export type InsertOrderInput = yup.InferType<typeof insertOrderBody>;
export type GetOrderQuery = yup.InferType<typeof getOrderQuery>;
export type OrderAnswer = yup.InferType<typeof order>;
export type OrderItemAnswer = yup.InferType<typeof orderItem>;
