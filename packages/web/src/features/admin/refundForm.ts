/**
 * The refund dialog's form: its rules and the request it makes. The limits are the server's
 * (`refundBody` in @subshare/core/wire/refunds.ts, which the web imports as types only, so no
 * schema reaches the bundle); test/unit/web-refund-form.test.ts holds the two to the same
 * answers. Pure: imported by Node unit tests (`.js` imports).
 */
import * as yup from 'yup';
import type { ValidationMessages } from '@subshare/core/validation';
import type { refunds } from '@subshare/core/wire';

// The wire's types (as services/api/admin.ts names them), straight from core: Node's resolution reads this file too.
type RefundQuote = refunds.RefundQuoteAnswer;
type RefundRequest = refunds.RefundInput;

export const REFUND_LIMITS = {
  reason: { min: 3, max: 500 },
  manualReference: { min: 3, max: 200 },
} as const;

export interface RefundFormValues {
  reason: string;
  /** Unchecked until the admin ticks it: past the window a refund is a decision, never a default. */
  overrideWindow: boolean;
  /** CoinPal only: the reference of the transfer staff made. */
  manualReference: string;
}

export const EMPTY_REFUND_FORM: RefundFormValues = { reason: '', overrideWindow: false, manualReference: '' };

const limited = (m: ValidationMessages, limits: { min: number; max: number }) =>
  yup.string().trim().required(m.required).min(limits.min, m.minLength(limits.min)).max(limits.max, m.maxLength(limits.max));

/**
 * A reason always; the override ticked when the quote is past the window; the transfer's
 * reference when the refund is manual (CoinPal). `overrideRequired` is the override's message.
 */
export function refundFormSchema(m: ValidationMessages, quote: Pick<RefundQuote, 'insideWindow' | 'manual'>, overrideRequired: string) {
  // Formik validates empty texts as undefined: a field the form does not show must accept that.
  return yup.object({
    reason: limited(m, REFUND_LIMITS.reason),
    overrideWindow: quote.insideWindow ? yup.boolean() : yup.boolean().oneOf([true], overrideRequired),
    manualReference: quote.manual ? limited(m, REFUND_LIMITS.manualReference) : yup.string(),
  });
}

/** The call's body: trimmed texts; the override only past the window; the reference only for a manual refund. */
export function refundRequest(orderId: number, values: RefundFormValues, quote: Pick<RefundQuote, 'insideWindow' | 'manual'>): RefundRequest {
  return {
    orderId,
    reason: values.reason.trim(),
    overrideWindow: !quote.insideWindow && values.overrideWindow,
    ...(quote.manual ? { manualReference: values.manualReference.trim() } : {}),
  };
}
