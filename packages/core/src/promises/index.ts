/**
 * The numbers the shop promises buyers (and states to staff), each defined once. The flows run on them, the e-mails
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

/** An order not paid within this many hours of its creation expires (state "expired unpaid"). */
export const UNPAID_ORDER_HOURS = 24;

/** Credit a buyer earns (or gets back from a refund) can be spent for this many months, then it expires (issue 37). */
export const CREDIT_MONTHS = 12;

/** Staff may send a refund left pending (no answer from the provider) again after this many minutes. */
export const REFUND_RESEND_MINUTES = 5;

/** A buyer's password has this many characters at least and at most (the login, sign-up and reset forms say so). */
export const PASSWORD_LENGTH = { min: 8, max: 18 } as const;

/** The spec's unused register page has its own password rule (section 5), which its hint states. */
export const REGISTER_PAGE_PASSWORD_LENGTH = { min: 8, max: 12 } as const;

/** The codes e-mailed to sign up and to reset a password have this many digits. */
export const CODE_DIGITS = 6;

/**
 * A household or travel link (video platforms) expires this many minutes after the platform sent
 * it: the panel tells the buyer so, and the mailbox look-back (verification-mail.flow.ts) is as long.
 */
export const HOUSEHOLD_LINK_MINUTES = 15;

/** The staff dashboard looks back (revenue, failed renewals) and ahead (expected renewals) this many days. */
export const DASHBOARD_DAYS = 30;

/**
 * The panel's verification polling (spec section 9): the first look at once, then one every
 * `VERIFICATION_POLL_SECONDS`, at most `VERIFICATION_MAX_POLLS` in a round. The web's saga polls so,
 * and the server's per-user read limit (MAILBOX_READ_LIMIT) is sized on it.
 */
export const VERIFICATION_POLL_SECONDS = 10;
export const VERIFICATION_MAX_POLLS = 12;

/** A platform account has this many slots at least and at most (the staff forms say so). */
export const ACCOUNT_SLOTS = { min: 1, max: 20 } as const;

/**
 * The staff lists' page sizes (spec sections 4 and 9): the admin pager offers these, a list pages
 * `PAGE_SIZE_DEFAULT` rows unless asked, and the server refuses more than the largest.
 */
export const PAGE_SIZES = [10, 20, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const PAGE_SIZE_DEFAULT: PageSize = 20;
export const PAGE_SIZE_MAX: PageSize = PAGE_SIZES[PAGE_SIZES.length - 1];

/**
 * The promised numbers by the placeholder name the texts use: `translate` and the content pages'
 * filler put these into every text, so a text says `{reminderDays}` and never "3".
 */
export const PROMISED_TEXT_VARS = {
  reminderDays: REMINDER_DAYS,
  renewalAttempts: RENEWAL_ATTEMPTS,
  activationHours: ACTIVATION_HOURS,
  refundResendMinutes: REFUND_RESEND_MINUTES,
  codeDigits: CODE_DIGITS,
  householdLinkMinutes: HOUSEHOLD_LINK_MINUTES,
  dashboardDays: DASHBOARD_DAYS,
  slotsMin: ACCOUNT_SLOTS.min,
  slotsMax: ACCOUNT_SLOTS.max,
  creditMonths: CREDIT_MONTHS,
} as const;

export type PromisedTextVar = keyof typeof PROMISED_TEXT_VARS;
