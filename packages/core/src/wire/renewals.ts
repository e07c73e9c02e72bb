/**
 * Automatic renewal calls (issue 28): the holder's switch, the e-mail links' pages, and staff's
 * view of upcoming and failed renewals. The panel's renewal state is part of the panel answer.
 */
import * as yup from 'yup';
import { dateTime, flag, integer, list, text } from './fields.js';
import { neededId } from './orders.js';

export const autoRenewBody = yup.object({
  subscriptionId: neededId('subscriptionId'),
  enabled: yup.boolean().strict().typeError('enabled must be true or false').required('enabled is required'),
});

export const saveCardBody = yup.object({ subscriptionId: neededId('subscriptionId') });
/** Back from Stripe's card page: the Checkout Session Stripe named in the return address. */
export const cardSavedBody = yup.object({
  subscriptionId: neededId('subscriptionId'),
  sessionId: yup
    .string()
    .strict()
    .matches(/^cs_[A-Za-z0-9_]{1,250}$/, 'sessionId must be a Stripe Checkout Session id')
    .required('sessionId is required'),
});
/** Stripe's page where the buyer saves the card (setup-mode Checkout); the browser goes there. */
export const saveCardAnswer = yup.object({ url: text() }).meta({ name: 'SaveCardPage' });

/** A subscription's renewal as the panel shows it. Amounts in major units, as every price on the wire. */
export const renewalState = yup
  .object({
    /** `card`: renews by the saved card (switchable); `link`: a payment link comes by e-mail 3 days before the end. */
    mode: yup
      .string()
      .oneOf(['card', 'link'] as const)
      .defined(),
    enabled: flag(),
    canEnable: flag(),
    status: yup.string().nullable().defined(),
    nextChargeAt: dateTime().nullable(),
    amount: yup.number().nullable().defined(),
    currencyCode: yup.string().nullable().defined(),
    cardLast4: yup.string().nullable().defined(),
  })
  .meta({ name: 'RenewalState' });

/** The e-mail links' token (signed, single-purpose, expiring). */
export const linkQuery = yup.object({ token: yup.string().trim().max(400).required('token is required') });

export const staffRenewalsQuery = yup.object({ userId: neededId('userId').optional() });

/** One upcoming or failed renewal as staff see it. */
export const staffRenewal = yup.object({
  subscriptionId: integer(),
  userId: integer(),
  endsAt: dateTime(),
  mode: text(),
  enabled: flag(),
  status: yup.string().nullable().defined(),
  attempts: integer(),
  nextChargeAt: dateTime().nullable(),
  amount: yup.number().nullable().defined(),
  currencyCode: yup.string().nullable().defined(),
  cardLast4: yup.string().nullable().defined(),
  declineCode: yup.string().nullable().defined(),
});

/** Expected renewal revenue of the next 30 days per currency: renewal on, a card saved, at the amount it would be charged. */
export const expectedRenewalRevenue = list(yup.object({ amount: yup.number().defined(), currencyCode: text() }));

export const staffRenewalsAnswer = yup
  .object({
    expected: expectedRenewalRevenue,
    upcoming: list(staffRenewal),
    /** Renewals declined, waiting for the buyer, or given up in the last 30 days. */
    failed: list(staffRenewal),
  })
  .meta({ name: 'StaffRenewals' });

export type AutoRenewInput = yup.InferType<typeof autoRenewBody>;
export type SaveCardInput = yup.InferType<typeof saveCardBody>;
export type CardSavedInput = yup.InferType<typeof cardSavedBody>;
export type SaveCardAnswer = yup.InferType<typeof saveCardAnswer>;
export type RenewalStateAnswer = yup.InferType<typeof renewalState>;
