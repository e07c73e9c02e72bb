/**
 * What every payment provider adapter does. The payments service never trusts a browser: only
 * a notification whose signature the adapter verified, or a status the adapter fetched from the
 * provider's API, can move money.
 */
import type { CurrencyCode, Money } from '../../../shared/money.js';
import type { MoneyFact } from '../money-ledger.js';
import type { PaymentMethodId, ProviderName } from '../../../wire/enums.js';

/** The spec's payment method ids and the providers' names, declared with the wire's other kinds. */
export type { PaymentMethodId, ProviderName };

export interface CheckoutRequest {
  /** Our reference for this payment attempt, unique per attempt (e.g. "42-7": order 42, payment 7). Providers echo it back. */
  reference: string;
  orderId: number;
  method: PaymentMethodId;
  amount: Money;
  description: string;
  buyerEmail: string;
  buyerIp: string;
  languageId: 1 | 2;
  /** Where the browser goes after paying, and after giving up. */
  successUrl: string;
  cancelUrl: string;
  /** Where the provider posts its notifications. */
  notifyUrl: string;
  /**
   * The buyer ticked "Renew automatically": the card is saved for off-session charges on this
   * provider customer (Stripe: `customer` + `payment_intent_data.setup_future_usage=off_session`).
   */
  saveCardFor?: { customerId: string };
}

export interface CheckoutSession {
  /** The provider's id for this payment (Stripe session id, CoinPal reference, Payssion transaction id). */
  providerReference: string;
  /** The provider's hosted page to send the buyer to. */
  url: string;
}

/**
 * Where a payment stands by a provider's word. Beyond paid and failed, the ways money goes back:
 * `refunded` (all or part of it given back: by our refund call or in the provider's dashboard),
 * `disputed` (the buyer's bank opened a dispute: the money is held), `dispute_won` (closed in our
 * favour: the money stays), `charged_back` (the bank took the money back: a lost dispute, or
 * Payssion's `chargeback`).
 */
export type ProviderStatus = 'pending' | 'paid' | 'failed' | 'expired' | 'refunded' | 'disputed' | 'dispute_won' | 'charged_back';

/** A provider's statement about one payment, after the adapter verified it. */
export interface PaymentReport {
  /**
   * Unique per distinct provider event: duplicates of one event carry the same id. Made only of
   * what the signature covers (or what we asked the provider ourselves), so that changing an
   * unsigned field cannot turn one event into "another" one.
   */
  eventId: string;
  eventType: string;
  /**
   * Our reference (CheckoutRequest.reference) as the signature covers it (or as our own status
   * query confirmed it). The payment is found by this alone.
   */
  reference?: string;
  /**
   * The provider's id for the payment, when the message carries one. Some signatures do not
   * cover it (Payssion's transaction_id, CoinPal's reference): it never finds a payment, it is
   * only compared with the one we stored.
   */
  providerReference?: string;
  /** The order the signature names, when it names one (Stripe metadata, demo token): must be the payment's. */
  orderId?: number;
  /** The payment method the signature names, when it names one (demo token): must be the payment's. */
  method?: PaymentMethodId;
  /**
   * The order amount the signature covers when that is not the paid amount (CoinPal signs the
   * amount we asked for): must be the payment's, or the message is about another payment.
   */
  signedOrderAmount?: Money;
  /**
   * The provider's id of the money itself, when the event names the payment by it rather than by
   * our reference (Stripe's `payment_intent` on charge and dispute events, and on a paid Checkout
   * Session, where it is stored). Covered by the signature; finds the payment when `reference` is absent.
   */
  providerPaymentId?: string;
  status: ProviderStatus | 'unknown';
  /** What the provider says was paid (compared with what we asked for). */
  amount?: Money;
  /**
   * Money going back (`refunded`, `charged_back`). `total`: everything the provider has given
   * back for this payment so far, when it says so (Stripe's `amount_refunded`), which makes
   * out-of-order deliveries harmless; `amount`: this event's own amount otherwise (Payssion,
   * a lost dispute). `providerRefundId`: the provider's id of the refund or dispute, when given.
   */
  moneyBack?: { total?: Money; amount?: Money; providerRefundId?: string };
  /** The dispute a `disputed`, `dispute_won` or (Stripe) `charged_back` event is about. */
  disputeId?: string;
  /**
   * The money facts the event states, for the ledger (money-ledger.ts): refunds by the provider's
   * refund id and status, a cumulative refunded total, disputes by id and status, chargebacks.
   * Present on every money-back event; the ledger, not `status`, decides what they do.
   */
  facts?: MoneyFact[];
  /**
   * The card's fingerprint, when a card paid (Stripe's `payment_method_details.card.fingerprint`
   * of the PaymentIntent's latest charge): the same card number gives the same fingerprint, which
   * the referral guard compares (issue 37). Filled by `completeFacts` on a paid report.
   */
  cardFingerprint?: string;
  /**
   * True when the signature does not cover the status (CoinPal): the service must confirm
   * with `fetchStatus` before acting.
   */
  needsConfirmation: boolean;
}

/**
 * A provider's status word in our words, by the adapter's table; a word not in it (an in-between
 * state, or one the provider adds later) is `otherwise`. Only the table's own keys count, so a
 * word such as `constructor` is not read off the object's prototype.
 */
export function statusByTable<S extends string>(table: Readonly<Record<string, S>>, word: string | undefined, otherwise: S): S {
  return word !== undefined && Object.hasOwn(table, word) ? table[word] : otherwise;
}

/**
 * `fetchStatus`'s answer for a payment that never reached the provider (no provider reference
 * stored: no session was created for this attempt), so there is nothing to ask it about.
 */
export function notAtProvider(reference: string): PaymentReport {
  return { eventId: `query:${reference}:unknown`, eventType: 'status_query', reference, status: 'unknown', needsConfirmation: false };
}

/** A refund we ask a provider for: all of it signed off by staff under the refund policy. */
export interface RefundRequest {
  /** Our refund's id: the provider's idempotency key, so that a retry of this refund cannot give the money back twice. */
  refundId: number;
  /** The payment's reference, the provider's id for its checkout, and the provider's id of the money (Stripe's payment_intent). */
  reference: string;
  providerReference: string | null;
  providerPaymentId: string | null;
  /** What the buyer paid, and what goes back (no more than paid). */
  paid: Money;
  amount: Money;
  /** For the provider's records; staff's words. */
  reason: string;
}

/** The provider's answer to a refund: its id, and whether the money has already gone (or is on its way). */
export interface RefundReceipt {
  providerRefundId: string;
  status: 'succeeded' | 'pending';
  /** The provider's id of the money, when the refund had to look it up (stored, so its later events find the payment). */
  providerPaymentId?: string;
}

export interface IncomingNotification {
  /** The exact bytes received: signatures are computed over them. */
  rawBody: Buffer;
  contentType: string;
  headers: Record<string, string | undefined>;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  createCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
  /**
   * Verifies signature (and freshness) and reads the notification. Throws (or rejects with)
   * SignatureError when it is not authentic; asynchronous where the check is (the demo's JWT).
   */
  verifyNotification(notification: IncomingNotification): PaymentReport | Promise<PaymentReport>;
  /** Asks the provider's API for the current status of a payment. */
  fetchStatus(payment: { reference: string; providerReference: string | null; amount: Money }): Promise<PaymentReport>;
  /**
   * Gives money back through the provider. Absent when the provider has no refund call
   * (CoinPal: staff send the crypto back themselves and record the transfer's reference).
   * Throws UnavailableError when the provider cannot be reached or times out (nothing is known
   * to have moved), another AppError when it refused.
   */
  refund?(request: RefundRequest): Promise<RefundReceipt>;
  /**
   * Completes a verified report's money facts by asking the provider (Stripe's `charge.refunded`
   * says only a running total: its refunds are listed, each with its id and status). Absent when
   * the notification says all there is. Throws UnavailableError when the provider cannot be asked.
   */
  completeFacts?(report: PaymentReport): Promise<PaymentReport>;
  /**
   * Where a checkout made by `createCheckout` stands at the provider: `open` (it can still be
   * paid), `complete` (paid, or being paid) or `expired`. With `expireCheckout`, what lets an order
   * have one open checkout at a time (issue 34). Absent when the provider cannot be asked or a
   * checkout of it cannot be closed (Payssion, CoinPal, the demo provider).
   */
  checkoutState?(providerReference: string): Promise<'open' | 'complete' | 'expired'>;
  /** Closes an open checkout so it can no longer be paid; answers where it stands after (`complete` when it was paid first). */
  expireCheckout?(providerReference: string): Promise<'complete' | 'expired'>;
  /**
   * The smallest amount the provider charges, in minor units, per currency, where it documents one
   * (Stripe's minimum charge amounts); absent for a currency or a provider without one. Credit
   * leaves at least this much to pay (flows/payment-credit.ts), else the provider refuses the rest.
   */
  readonly minimumCharge?: Readonly<Partial<Record<CurrencyCode, number>>>;
  /** What the provider expects as the answer body to a notification it delivered. */
  readonly acknowledgement: { contentType: string; body: string };
  /** Present when the provider can save a card and charge it without the buyer (Stripe only). */
  readonly savedCards?: SavedCardCharging;
}

/** A card saved with the provider for off-session charges, and what the buyer is shown of it. */
export interface SavedCard {
  customerId: string;
  paymentMethodId: string;
  brand: string | null;
  last4: string | null;
}

/** One off-session charge of a saved card (automatic renewal). */
export interface OffSessionChargeRequest {
  /** Our payment reference, as for a checkout: the provider's notifications name the payment by it. */
  reference: string;
  orderId: number;
  amount: Money;
  description: string;
  card: Pick<SavedCard, 'customerId' | 'paymentMethodId'>;
  /** The same key for the same attempt, whoever sends it and however often: the provider charges once. */
  idempotencyKey: string;
}

/**
 * What an off-session charge came to. `succeeded` / `declined` carry the report to apply through the
 * normal payment path; `requires_action`: the bank wants the buyer to authenticate (SCA);
 * `processing`: the provider will tell by notification.
 */
export interface OffSessionChargeResult {
  /** `provider_error`: the provider refused or failed the request itself (not the card): nothing was charged by it. */
  status: 'succeeded' | 'declined' | 'requires_action' | 'processing' | 'provider_error';
  paymentIntentId?: string;
  /** The bank's or provider's reason for a decline (`card_declined`, `insufficient_funds`, `authentication_required`…). */
  declineCode?: string;
  report?: PaymentReport;
  /** provider_error: what the provider answered, for staff (its message has no keys in it). */
  providerError?: ProviderRequestFailure;
}

/** A provider request that failed for a reason other than the card: a 400 of ours, a 5xx, 429, a timeout. */
export interface ProviderRequestFailure {
  /** The HTTP status, 0 when no answer came (timeout, connection). */
  httpStatus: number;
  /** The provider's error type and code (`invalid_request_error`, `parameter_unknown`…), or `connection` without an answer. */
  type: string;
  code: string | null;
  message: string;
  /** The provider's id of the request (Stripe's `Request-Id`), for its support and logs. */
  requestId: string | null;
}

export interface SavedCardCharging {
  /** The buyer's customer at the provider, made once per buyer (the key makes a retry answer the same one). */
  createCustomer(buyer: { userId: number; email: string; idempotencyKey: string }): Promise<string>;
  /** The card a paid checkout saved (by the provider's id of its money), undefined when it saved none. */
  cardOfPayment(providerPaymentId: string): Promise<SavedCard | undefined>;
  chargeOffSession(request: OffSessionChargeRequest): Promise<OffSessionChargeResult>;
  /** A hosted page where the buyer saves a new card (Stripe: a setup-mode Checkout Session). */
  cardUpdateCheckout(request: {
    customerId: string;
    currency: string;
    successUrl: string;
    cancelUrl: string;
    idempotencyKey: string;
  }): Promise<{ sessionId: string; url: string }>;
  /** The card the buyer saved on that page, once they did. */
  cardOfUpdate(sessionId: string): Promise<SavedCard | undefined>;
}

/** A notification that is forged, tampered with, or too old. Answered with 400 and changes nothing. */
export class SignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignatureError';
  }
}
