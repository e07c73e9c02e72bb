/**
 * The error dictionary: every code the shop answers, declared once with its HTTP status and its
 * English message. Core throws by code (`fail(code, params)` in shared/errors.ts); the HTTP error
 * handler answers the status declared here; the OpenAPI document lists each call's codes as an
 * enum per status; the web's Korean texts are a `Record<ErrorCode, string>` (a missing one does
 * not compile, and test/unit/web-error-texts.test.ts says which).
 *
 * A message may hold `{name}` placeholders: the thrower gives their values as `params`, the
 * answer carries them (`params`) beside the filled English message, and a translation fills its
 * own text with the same values ("4 tries left" in every language).
 *
 * `cli`: raised by the command line only, never answered over HTTP (no translation needed).
 */
import { fillIn } from './fill-in.js';

export { fillIn };

interface ErrorEntry {
  status: 400 | 401 | 403 | 404 | 409 | 413 | 429 | 500 | 503;
  message: string;
  cli?: true;
}

const define = <T extends Record<string, ErrorEntry>>(entries: T) => entries;

export const ERRORS = define({
  // Input and the request itself
  validation: { status: 400, message: 'Some fields are missing or invalid.' },
  malformed_json: { status: 400, message: 'The request body is not valid JSON.' },
  bad_request: { status: 400, message: 'The request could not be handled.' },
  too_deep: { status: 400, message: 'The request is nested too deeply.' },
  forbidden_key: { status: 400, message: 'The request uses a key that is not allowed: {key}.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  route_not_found: { status: 404, message: 'There is no {method} {path}.' },
  not_found: { status: 404, message: 'Not found.' },
  internal: { status: 500, message: 'Something went wrong on our side. Please try again.' },
  database_unavailable: { status: 503, message: 'The shop cannot reach its database right now. Please try again in a moment.' },
  unavailable: { status: 503, message: 'This is not available right now. Try again later.' },
  // A stored password cannot be read (a server-side fault: no secret in the message)
  credentials_malformed: { status: 500, message: 'A stored credential is not in a format this shop reads.' },
  credentials_wrong_key: { status: 500, message: 'A stored credential was written under another CREDENTIALS_KEY.' },
  credentials_tampered: { status: 500, message: 'A stored credential was altered.' },
  // Database constraints met by a request (translateDatabaseError)
  duplicate: { status: 409, message: 'This {what} already exists.' },
  overlap: { status: 409, message: 'This {what} overlaps another.' },
  reference: { status: 400, message: 'This {what} refers to something that does not exist.' },
  check: { status: 400, message: 'This {what} is not valid.' },

  // Sessions and roles
  unauthenticated: { status: 401, message: 'You need to log in.' },
  missing_token: { status: 401, message: 'You need to log in.' },
  invalid_token: { status: 401, message: 'Your login is not valid.' },
  token_expired: { status: 401, message: 'Your login has expired. Please log in again.' },
  session_ended: { status: 401, message: 'Your login has ended. Please log in again.' },
  user_gone: { status: 401, message: 'This account no longer exists.' },
  forbidden: { status: 403, message: 'You are not allowed to do this.' },
  email_not_verified: { status: 403, message: 'Verify your e-mail address first.' },

  // Too many requests: one code per limit, so a translation can say which wait applies
  too_many_requests: { status: 429, message: 'Too many requests from your network. Try again in a few minutes.' },
  too_many_failed_logins: { status: 429, message: 'Too many failed logins for this account. Try again in a few minutes.' },
  too_many_wrong_passwords: { status: 429, message: 'Too many wrong current passwords. Try again in a few minutes.' },
  code_requested_recently: { status: 429, message: 'Please wait a minute before asking for a new code.' },
  too_many_codes_today: { status: 429, message: 'You have asked for too many codes today. Try again tomorrow.' },
  too_many_wrong_codes: { status: 429, message: 'Too many wrong codes. Wait an hour, then ask for a new code.' },
  too_many_code_tries_for_address: { status: 429, message: 'Too many wrong codes for this address. Try again later.' },
  too_many_mailbox_reads: { status: 429, message: 'Too many verification look-ups. Please wait a few minutes, then try again.' },
  promo_guess_limit: { status: 429, message: 'Too many codes that do not exist were tried. Please wait an hour, then try again.' },

  // Accounts, codes and sign-in
  email_taken: { status: 409, message: 'An account with this e-mail already exists. Log in instead.' },
  invalid_credentials: { status: 401, message: 'The e-mail or password is not correct.' },
  // One answer for a wrong, expired, spent or missing code and an unknown address (no `code_expired`).
  invalid_code: { status: 400, message: 'The code is not correct or has expired. {triesLeft} tries left.' },
  already_verified: { status: 409, message: 'Your e-mail address is already verified.' },
  not_your_email: { status: 403, message: 'You can only verify your own e-mail address.' },
  user_not_found: { status: 404, message: 'This user does not exist.' },
  last_admin: { status: 409, message: '{email} is the last admin: make someone else admin first.' },
  provider_disabled: { status: 404, message: '{provider} is not available.' },
  google_token_invalid: { status: 401, message: 'Google sign-in could not be verified.' },
  // 401, not the guard's 403 `email_not_verified`: the sign-in itself is refused.
  google_email_not_verified: { status: 401, message: 'Your Google account has no verified e-mail address.' },
  password_login_required: { status: 401, message: 'Log in with your password to connect this account.' },
  google_unavailable: { status: 503, message: 'Google sign-in is not available right now. Try again later.' },
  naver_login_failed: { status: 401, message: 'Naver login failed.' },
  naver_unavailable: { status: 503, message: 'Naver login is not available right now. Try again later.' },
  kakao_login_failed: { status: 401, message: 'Kakao login failed.' },
  kakao_unavailable: { status: 503, message: 'Kakao login is not available right now. Try again later.' },
  invalid_state: { status: 401, message: 'The login attempt expired or was not started here. Please try again.' },
  email_required: { status: 400, message: 'Your {provider} account did not share an e-mail address, which we need to create your account.' },
  provider_email_invalid: { status: 400, message: 'The e-mail address of this login account is not one we can use.' },

  // Catalog
  platform_not_found: { status: 404, message: 'This platform does not exist.' },
  catalog_conflict: { status: 409, message: 'Someone saved this platform since you opened it.' },
  option_has_orders: { status: 409, message: 'Orders name {what}: it cannot be removed, only disabled.' },
  nothing_on_sale: { status: 400, message: 'A platform on sale needs at least one enabled duration and one enabled type.' },
  upload_empty: { status: 400, message: 'The upload is empty.' },
  upload_too_large: { status: 400, message: 'A logo is at most {kib} KiB.' },
  upload_type_unsupported: { status: 400, message: 'Upload an SVG, PNG or WebP image (Content-Type image/svg+xml, image/png or image/webp).' },
  upload_type_mismatch: { status: 400, message: 'The file is not a valid {declared} image.' },
  svg_invalid: { status: 400, message: 'This SVG cannot be used: {reason}' },

  // Orders and payments
  order_not_found: { status: 404, message: 'This order does not exist.' },
  order_not_payable: { status: 409, message: 'This order cannot be paid any more.' },
  invalid_choice: { status: 400, message: 'Choose a platform, a type and a duration.' },
  option_unavailable: { status: 400, message: 'This option cannot be ordered.' },
  platform_off_sale: { status: 409, message: 'This platform is off sale for now: we are repairing its accounts. Please try again later.' },
  price_unavailable: { status: 400, message: 'This option has no price in this currency.' },
  method_unavailable: { status: 400, message: 'This payment method is not available for this order.' },
  demo_payments_off: { status: 409, message: 'Demo payments are off: this checkout can no longer be paid.' },
  invalid_signature: { status: 400, message: 'The notification could not be verified.' },
  notification_mismatch: { status: 400, message: 'The notification does not match the payment it names.' },
  provider_unavailable: { status: 503, message: 'The payment provider could not confirm this payment; try again later.' },
  stripe_unavailable: { status: 503, message: 'Card payments are not available right now. Try again later.' },
  stripe_misconfigured: { status: 503, message: 'Card payments are not available right now. Try again later.' },
  stripe_rejected: { status: 400, message: 'Stripe refused the payment: {reason}' },
  stripe_session_not_found: { status: 404, message: 'Stripe does not know this checkout session.' },
  stripe_payment_not_found: { status: 404, message: 'Stripe does not know the payment of this order.' },
  stripe_idempotency: { status: 409, message: 'This refund was already sent to Stripe with other details.' },
  coinpal_unavailable: { status: 503, message: 'Crypto payments are not available right now. Try again later.' },
  coinpal_rejected: { status: 400, message: 'CoinPal refused the payment: {reason}' },
  coinpal_payment_not_found: { status: 404, message: 'CoinPal does not know this payment.' },
  coinpal_mismatch: { status: 503, message: 'CoinPal answered about another payment.' },
  payssion_unavailable: { status: 503, message: 'This payment method is not available right now. Try again later.' },
  payssion_misconfigured: { status: 503, message: 'This payment method is not available right now. Try again later.' },
  payssion_mismatch: { status: 503, message: 'Payssion answered about another payment.' },
  payssion_rejected: { status: 400, message: 'Payssion refused the payment: {reason}' },
  payssion_repeated_order: { status: 409, message: 'This payment attempt was already sent to Payssion.' },
  payssion_payment_not_found: { status: 404, message: 'Payssion does not know this payment.' },

  // Promotion codes (issue 37). Unknown, inactive and not-yet-started codes all answer `promo_unknown`.
  promo_unknown: { status: 404, message: 'This code does not exist.' },
  promo_expired: { status: 409, message: 'This code has expired.' },
  promo_used_up: { status: 409, message: 'This code has been used as many times as it can be.' },
  promo_not_for_this: { status: 409, message: 'This code is not valid for this platform, duration or currency.' },
  promo_first_order_only: { status: 409, message: 'This code is for a first order only.' },
  promo_already_used: { status: 409, message: 'You have already used this code.' },
  promo_one_per_order: { status: 409, message: 'This order already has a code: one code per order.' },
  promo_code_taken: { status: 409, message: 'A code with this name exists already.' },
  promo_not_found: { status: 404, message: 'This promotion code does not exist.' },

  // Refunds
  order_not_refundable: { status: 409, message: '{reason}' },
  refund_window_passed: { status: 409, message: 'The refund window ({hours} hours after payment) closed on {closedAt}; refunding now needs an override.' },
  refund_in_progress: { status: 409, message: 'A refund of this order is already under way.' },
  refund_not_possible: { status: 409, message: 'This order cannot be refunded through its provider: {reason}' },
  refund_refused: { status: 409, message: '{provider} refused the refund: {reason}' },
  payssion_refund_refused: { status: 409, message: 'Payssion refused the refund: {reason}' },
  refund_outcome_unknown: {
    status: 503,
    message: '{provider} did not answer, so the refund may or may not have been made. It stays pending. It can be sent again in {minutes} minutes.',
  },

  // Subscriptions, accounts and the panel
  account_not_found: { status: 404, message: 'This platform account does not exist.' },
  account_exists: { status: 409, message: 'This platform already has an account with this login e-mail.' },
  subscription_not_found: { status: 404, message: 'This subscription does not exist.' },
  subscription_not_active: { status: 409, message: 'This subscription is not active.' },
  problem_already_reported: {
    status: 409,
    message: 'You reported a problem with this subscription less than an hour ago. We are checking it; you can report again an hour after your last report.',
  },
  report_not_found: { status: 404, message: 'This problem report does not exist.' },
  already_activated: { status: 409, message: 'This order item already has its subscription.' },
  order_not_waiting: { status: 409, message: 'This order is not waiting for activation (state {state}).' },
  no_free_slot: { status: 409, message: 'No slot is free on this platform for the whole period; add an account first.' },
  order_mismatch: { status: 400, message: 'This subscription does not belong to this order.' },
  invitation_email_set: { status: 409, message: 'The invitation e-mail is already set and cannot be changed.' },
  invitation_not_needed: { status: 409, message: 'This order needs no invitation e-mail.' },
  order_closed: { status: 409, message: 'This order can no longer take an invitation e-mail.' },
  nothing_to_extend: { status: 409, message: 'Nothing to give back: no moved buyer of this account is waiting for time.' },
  mailbox_address_exhausted: { status: 503, message: 'No free mailbox address was found; try again.' },
  wrong_platform_type: { status: 409, message: '{what} are only for {platforms}.' },
  no_mailbox: { status: 409, message: 'This account has no mailbox to read. Please contact support.' },
  mailbox_reading_off: {
    status: 503,
    message: "This shop cannot read the accounts' mailboxes at the moment, so the link or code cannot be fetched. Please contact support.",
  },
  mailbox_unavailable: { status: 503, message: 'The mailbox cannot be reached right now. Please try again in a minute.' },

  // Automatic renewal
  autorenew_unavailable: { status: 409, message: 'Automatic renewal needs a card payment through Stripe.' },
  no_saved_card: { status: 409, message: 'No card is saved for this subscription: save one from your panel (the switch opens the card page) first.' },
  card_already_saved: { status: 409, message: 'A card is saved for this subscription already: turn automatic renewal on with the switch.' },
  card_session_invalid: {
    status: 409,
    message: "This return from Stripe's card page is not one of this subscription's, or was used already: nothing was changed.",
  },
  renewal_in_progress: { status: 409, message: 'The renewal is being charged right now; try again in a minute.' },
  renewal_link_invalid: { status: 404, message: 'This renewal link is not valid or has expired.' },
  renewal_link_unusable: { status: 409, message: 'This renewal link cannot be used any more.' },

  // Staff e-mails
  email_not_found: { status: 404, message: 'This e-mail does not exist.' },
  email_not_failed: { status: 409, message: 'Only a failed e-mail can be retried; this one is {status}.' },
  email_in_progress: { status: 409, message: 'The same e-mail is being written right now; try again.' },
  email_delivery_failed: { status: 503, message: 'The e-mail could not be delivered: {reason}' },
  smtp_not_configured: { status: 409, message: 'SMTP_URL is not configured: e-mails are kept in the outbox.' },
  no_active_subscription: { status: 409, message: 'This user has no active subscription.' },
  no_ended_subscription: { status: 409, message: 'This user has no ended subscription.' },
  no_refunded_order: { status: 409, message: 'This user has no refunded order.' },
  no_replacement: { status: 409, message: 'This user has no replaced subscription.' },
  staff_only_email: { status: 409, message: 'This e-mail goes to the staff alert addresses only, never to a user.' },
  kind_not_sendable: { status: 409, message: 'Automatic renewal e-mails are sent by the renewal pass only.' },
  no_waiting_order: { status: 409, message: 'This user has no paid order waiting for activation.' },

  // The command line only
  invalid_argument: { status: 400, message: '{reason}', cli: true },
  confirmation_required: { status: 400, message: '{reason}', cli: true },
  invalid_key: { status: 400, message: '{name} must be 32 bytes, as 64 hex digits or base64.', cli: true },
  same_key: { status: 400, message: 'The new key is the key in use.', cli: true },
  unknown_credentials_key: { status: 409, message: '{reason}', cli: true },
});

export type ErrorCode = keyof typeof ERRORS;
/** The codes an HTTP call can answer (not the command line's own). */
export type HttpErrorCode = { [C in ErrorCode]: (typeof ERRORS)[C] extends { cli: true } ? never : C }[ErrorCode];
export type ErrorStatus = ErrorEntry['status'];
export type ErrorParams = Record<string, string | number>;

export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];
export const HTTP_ERROR_CODES = ERROR_CODES.filter((code) => !(ERRORS[code] as ErrorEntry).cli) as HttpErrorCode[];

export const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && Object.hasOwn(ERRORS, code);

export const statusOf = (code: ErrorCode): ErrorStatus => ERRORS[code].status;

/** The English message of `code`, its placeholders filled. */
export const errorMessage = (code: ErrorCode, params?: ErrorParams): string => fillIn(ERRORS[code].message, params);

/** Every error answer's body (the OpenAPI document's `Error`). */
export interface ErrorAnswer {
  message: string;
  code: ErrorCode;
  params?: ErrorParams;
  errors?: Record<string, string>;
}
