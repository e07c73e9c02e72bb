/**
 * Refund calls (admins): what a refund of an order would give back under the refund policy, and
 * giving it back through the provider that took the money. Amounts are in major units of the
 * order's currency, like an order's `total` (KRW has no minor unit: whole won).
 */
import * as yup from 'yup';
import { ORDER_STATES, PROVIDER_NAMES } from './enums.js';
import { dateTime, flag, integer, list, numberOf } from './fields.js';
import { neededId } from './orders.js';

export const refundQuoteQuery = yup.object({ orderId: neededId('orderId') });

export const refundBody = yup.object({
  orderId: neededId('orderId'),
  /** Staff's words, kept in the audit log and sent to the provider. */
  reason: yup.string().trim().required('reason is required').min(3, 'reason must be at least 3 characters').max(500, 'reason is too long'),
  /** Past the policy's window (24 hours after payment) a refund needs this, and it is audited. */
  overrideWindow: yup.boolean().typeError('overrideWindow must be true or false').default(false),
  /**
   * CoinPal has no refund call: staff send the crypto back themselves and give the transfer's
   * reference here (required for a CoinPal payment, refused for the others).
   */
  manualReference: yup.string().trim().min(3, 'manualReference must be at least 3 characters').max(200, 'manualReference is too long'),
});

const provider = () => yup.string().oneOf(PROVIDER_NAMES).defined();
const currencyCode = () =>
  yup
    .string()
    .oneOf(['EUR', 'KRW'] as const)
    .defined();

/** One refund of an order: by staff, by the provider (its dashboard), a chargeback by the buyer's bank, or the shop's refund of a second payment. */
export const refund = yup
  .object({
    id: integer(),
    orderId: integer(),
    /**
     * `staff`: our refund call; `provider`: refunded on the provider's side; `chargeback`: the bank
     * took it back; `double_payment`: the shop's own refund of a second payment of the order (issue 34).
     */
    source: yup
      .string()
      .oneOf(['staff', 'provider', 'chargeback', 'double_payment'] as const)
      .defined(),
    /** `pending`: asked, the provider has not confirmed yet; `failed`: the provider refused or could not be reached. */
    status: yup
      .string()
      .oneOf(['pending', 'succeeded', 'failed'] as const)
      .defined(),
    provider: provider(),
    currencyCode: currencyCode(),
    amount: yup.number().defined(),
    /** Issue 37: the part of `amount` given back as credit (first, up to the credit the payment used); the provider gave back the rest. */
    credit: yup.number().defined(),
    fee: yup.number().defined(),
    providerRefundId: yup.string().nullable().defined(),
    manualReference: yup.string().nullable().defined(),
    reason: yup.string().nullable().defined(),
    /** True when staff refunded past the policy's window. */
    overrideWindow: flag(),
    createdDate: dateTime(),
  })
  .meta({ name: 'Refund' });

/**
 * One money event of an order as its ledger has it (the admin order page and dashboard): when it
 * was recorded, the provider's id of the event and of the money it is about, the amount, and what
 * it did (`effect`). `appliedDate` is null while it waits for its payment (`waitingFor`).
 */
export const moneyEvent = yup
  .object({
    id: integer(),
    orderId: yup.number().integer().nullable().defined(),
    provider: yup.string().defined(),
    /** The provider's id of the event (Stripe `evt_…`; staff refunds `staff-refund:<id>:<status>`), and the part it is about. */
    eventId: yup.string().defined(),
    eventType: yup.string().defined(),
    /** payment, refund, refund_total (Stripe's cumulative amount refunded), dispute, chargeback. */
    kind: yup
      .string()
      .oneOf(['payment', 'refund', 'refund_total', 'dispute', 'chargeback'] as const)
      .defined(),
    /** The provider's id of the money it is about: the refund (`re_…`), the dispute, the PaymentIntent… */
    providerId: yup.string().defined(),
    /** payment: paid; refund: pending, succeeded or failed; dispute: open, won or lost. */
    status: yup.string().defined(),
    currencyCode: currencyCode().nullable(),
    amount: yup.number().nullable().defined(),
    recordedDate: dateTime(),
    appliedDate: dateTime().nullable(),
    /** While waiting: the provider's id of the payment it waits for. */
    waitingFor: yup.string().nullable().defined(),
    /** What it did: waiting, paid, access_ended, suspended, reinstated, dispute_won, partial_refund, refund_pending, refund_failed, no_change. */
    effect: yup.string().nullable().defined(),
  })
  .meta({ name: 'MoneyEvent' });

/** Why an order cannot be refunded now (the quote's `reason`). */
export const NOT_REFUNDABLE_REASONS = ['order_not_paid', 'order_refunded', 'no_paid_payment', 'refund_nothing_left', 'refund_in_progress'] as const;
export type NotRefundableReason = (typeof NOT_REFUNDABLE_REASONS)[number];

/** What refunding the order would do now under the policy, and the refunds it already had. */
export const refundQuote = yup
  .object({
    orderId: integer(),
    /** The order's state (refunded once refunded). */
    state: numberOf(ORDER_STATES).defined(),
    /** Whether a refund can be made now; `reason` says why not. */
    refundable: flag(),
    reason: yup.string().oneOf(NOT_REFUNDABLE_REASONS).nullable().defined(),
    provider: provider().nullable(),
    /** CoinPal: staff transfer the money back themselves and record the transfer's reference (not when credit covers the whole refund). */
    manual: flag(),
    currencyCode: currencyCode(),
    paid: yup.number().defined(),
    fee: yup.number().defined(),
    refund: yup.number().defined(),
    /** Issue 37: the part of `refund` given back as credit (the credit the payment used, first); the provider gives back the rest. */
    refundAsCredit: yup.number().defined(),
    /** The policy: the fee's percentage and fixed part, and the window in hours after payment. */
    feePercent: yup.number().defined(),
    feeFixed: yup.number().defined(),
    windowHours: integer(),
    paidDate: dateTime().nullable(),
    windowEndsDate: dateTime().nullable(),
    /** True while the policy's window is open; past it a refund needs `overrideWindow`. */
    insideWindow: flag(),
    refunds: list(refund),
    /** What the order's money ledger says: its access (`unpaid`, `active`, `suspended`, `refunded`, `charged_back`), what went back so far, and every money event. */
    access: yup
      .string()
      .oneOf(['unpaid', 'active', 'suspended', 'refunded', 'charged_back'] as const)
      .defined(),
    refunded: yup.number().defined(),
    chargedBack: yup.number().defined(),
    ledger: list(moneyEvent),
  })
  .meta({ name: 'RefundQuote' });

/** The refund made, and the order's state after it. */
export const refundAnswer = yup.object({ orderId: integer(), state: numberOf(ORDER_STATES).defined(), refund }).meta({ name: 'RefundResult' });

export type RefundQuoteQuery = yup.InferType<typeof refundQuoteQuery>;
export type RefundInput = yup.InferType<typeof refundBody>;
export type RefundAnswer = yup.InferType<typeof refund>;
export type MoneyEventAnswer = yup.InferType<typeof moneyEvent>;
export type RefundQuoteAnswer = yup.InferType<typeof refundQuote>;
export type RefundResultAnswer = yup.InferType<typeof refundAnswer>;
