/**
 * The numbers the shop promises buyers, each defined once. The flows run on them, the e-mails
 * and the web texts (English and Korean) print them as the `{name}` placeholders of
 * `PROMISED_TEXT_VARS`, and docs/renewal.md points here. Pure constants, no imports: the web
 * imports this file (`@subshare/core/promises`). A text that writes one of these numbers by hand
 * fails test/unit/promised-numbers.test.ts.
 *
 * Runtime configuration is not here: the refund window (REFUND_WINDOW_HOURS) and the renewal
 * notice (RENEWAL_NOTICE_HOURS) come from config; staff texts get them in the data of the call.
 */

/** How many days before the end date the renewal reminder goes out (product.md: 3 days). */
export const REMINDER_DAYS = 3;

/** A declined renewal charge is tried again this many days after the end date (issue 28: 1, then 3). */
export const RENEWAL_RETRY_DAYS = [1, 3] as const;

/** The last retry's day: the slot is held until then (plus `RENEWAL_HOLD_EXTRA_HOURS`). */
export const RENEWAL_LAST_RETRY_DAYS = RENEWAL_RETRY_DAYS[RENEWAL_RETRY_DAYS.length - 1];

/** A renewal charge is tried this many times in all: at the end date, then on each retry day. */
export const RENEWAL_ATTEMPTS = RENEWAL_RETRY_DAYS.length + 1;

/** The slot is held past the last retry this long more: time for a renewal pass (`renewals-due`) to run it, with room. */
export const RENEWAL_HOLD_EXTRA_HOURS = 1;

/** Every paid order is activated within this many hours of payment (the spec's promise). */
export const ACTIVATION_HOURS = 24;

/** Staff may send a refund left pending (no answer from the provider) again after this many minutes. */
export const REFUND_RESEND_MINUTES = 5;

/**
 * The promised numbers by the placeholder name the texts use: `translate` and the content pages'
 * filler put these into every text, so a text says `{reminderDays}` and never "3".
 */
export const PROMISED_TEXT_VARS = {
  reminderDays: REMINDER_DAYS,
  firstRetryDays: RENEWAL_RETRY_DAYS[0],
  lastRetryDays: RENEWAL_LAST_RETRY_DAYS,
  renewalAttempts: RENEWAL_ATTEMPTS,
  activationHours: ACTIVATION_HOURS,
  refundResendMinutes: REFUND_RESEND_MINUTES,
} as const;

export type PromisedTextVar = keyof typeof PROMISED_TEXT_VARS;
