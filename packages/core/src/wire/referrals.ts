/**
 * Referral credit (issue 37): the buyer's "Invite friends" in the panel, and the referral code a
 * sign-up carries from `/?ref=CODE`.
 */
import * as yup from 'yup';
import { integer, list, text } from './fields.js';

/**
 * The referral code a new buyer arrived with (the storefront kept `?ref=`). Optional on every
 * sign-up call; anything that is not a known code is ignored, never refused, so a stale or
 * mistyped link never stops a sign-up.
 */
export const referralCodeField = yup.string().trim().max(64).optional();

const currencyCode = yup
  .string()
  .oneOf(['EUR', 'KRW'] as const)
  .defined();

/** What referrals earned the buyer, per currency (major units, like every amount of the API). */
export const referralCredit = yup.object({ currencyCode, amount: yup.number().defined() });

export const referralAnswer = yup
  .object({
    /** The buyer's referral code (8 characters, no 0/O/1/I/L). */
    code: text(),
    /** The invitation link: the shop's home with `?ref=` the code. */
    link: text(),
    credit: list(referralCredit),
    /** Buyers who signed up by the link. */
    invited: integer(),
    /** Of them, those whose first payment earned credit. */
    rewarded: integer(),
  })
  .meta({ name: 'Referral' });

export type ReferralAnswer = yup.InferType<typeof referralAnswer>;
