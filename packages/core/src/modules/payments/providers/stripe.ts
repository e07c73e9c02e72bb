/**
 * Card payments (method 1) through Stripe Checkout Sessions, with the official `stripe` SDK
 * (protocols.md section 1). We create a hosted Checkout Session per payment attempt and send the
 * buyer to its `url`; money moves only on a webhook whose `Stripe-Signature` verifies (HMAC-SHA256
 * over `t.rawBody` with the endpoint secret, at most 300 s old) or on a session we retrieved
 * ourselves. The browser's return to `success_url` proves nothing.
 *
 * Money going back: `refund` calls the Refunds API on the session's PaymentIntent; refunds made
 * in Stripe's dashboard and disputes arrive as `charge.refunded` and `charge.dispute.*` events.
 * Those carry a Charge or a Dispute, which know the PaymentIntent (`pi_…`) but not our reference,
 * so their reports name the payment by `providerPaymentId`, which a paid session's report gave us.
 *
 * STRIPE_API_BASE (e.g. `http://127.0.0.1:12111`) points the SDK at a local server that speaks
 * Stripe's protocol; the `/v1/` paths stay as they are.
 */
import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { type Clock, SystemClock } from '../../../shared/clock.js';
import { ConflictError, UnavailableError, ValidationError, fail } from '../../../shared/errors.js';
import { type Money, isCurrencyCode, money } from '../../../shared/money.js';
import {
  type CheckoutRequest,
  type CheckoutSession,
  type IncomingNotification,
  type PaymentProvider,
  type PaymentReport,
  type ProviderRequestFailure,
  type ProviderStatus,
  type OffSessionChargeRequest,
  type OffSessionChargeResult,
  type RefundReceipt,
  type RefundRequest,
  type SavedCard,
  type SavedCardCharging,
  SignatureError,
  notAtProvider,
} from './provider.js';
import type { MoneyFact } from '../money-ledger.js';
import { checkRefundRequest } from './wire.js';
import { idempotencyKey } from '../idempotency-keys.js';

export interface StripeProviderOptions {
  /** STRIPE_SECRET_KEY (`sk_test_…` / `sk_live_…`). */
  secretKey: string;
  /** STRIPE_WEBHOOK_SECRET (`whsec_…`), the endpoint's signing secret. */
  webhookSecret: string;
  /** STRIPE_API_BASE: `http(s)://host[:port]`; unset means api.stripe.com. */
  apiBase?: string;
  /** Per request. Default 10 s. */
  timeoutMs?: number;
  /** Maximum age of a webhook signature in seconds. Default 300 (stripe-node's default). */
  toleranceSeconds?: number;
  clock?: Clock;
  /** The shop's installation id (prefixes every idempotency key); required to create sessions or refunds. */
  installationId?: () => Promise<string>;
}

/** The event types that concern a Checkout Session's payment. */
export const STRIPE_CHECKOUT_EVENTS = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
] as const;

/**
 * The `v1` signature Stripe puts in `Stripe-Signature` (protocols.md 1.6): lowercase hex of
 * HMAC-SHA256(key = the whole `whsec_…` secret, message = `${timestamp}.${rawBody}`).
 */
export function stripeSignature(payload: string | Buffer, secret: string, timestamp: number): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(payload).digest('hex');
}

/** A whole `Stripe-Signature` header value: `t=<timestamp>,v1=<signature>`. */
export function stripeSignatureHeader(payload: string | Buffer, secret: string, timestamp: number): string {
  return `t=${timestamp},v1=${stripeSignature(payload, secret, timestamp)}`;
}

/**
 * Idempotency-Key for creating the session of one payment attempt: a retry cannot open a second
 * session. Prefixed with the shop's installation id (idempotency-keys.ts).
 */
export function stripeIdempotencyKey(installationId: string, reference: string): string {
  return idempotencyKey(installationId, 'checkout', reference);
}

/** Idempotency-Key of one refund of ours: a retry (double click, timeout, job rerun) cannot give the money back twice. */
export function stripeRefundIdempotencyKey(installationId: string, refundId: number): string {
  return idempotencyKey(installationId, 'refund', refundId);
}

/**
 * The PaymentIntent events we read: only those of our off-session renewal charges (metadata
 * `kind=renewal`). A Checkout Session's PaymentIntent sends them too; its session events decide.
 */
export const STRIPE_PAYMENT_INTENT_EVENTS = ['payment_intent.succeeded', 'payment_intent.payment_failed'] as const;

/** The dispute events we read (besides `charge.refunded`, the other way money goes back). Others about disputes are ignored. */
export const STRIPE_DISPUTE_EVENTS = [
  'charge.dispute.created',
  'charge.dispute.closed',
  'charge.dispute.funds_withdrawn',
  'charge.dispute.funds_reinstated',
] as const;

/** The events about one Refund (a pending refund that succeeds or fails later). */
export const STRIPE_REFUND_EVENTS = ['charge.refund.updated', 'refund.created', 'refund.updated', 'refund.failed'] as const;

/** Stripe config for a base URL such as `http://127.0.0.1:12111`. */
export function stripeHostOptions(apiBase: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}

type SessionLike = Pick<
  Stripe.Checkout.Session,
  'id' | 'status' | 'payment_status' | 'client_reference_id' | 'metadata' | 'amount_total' | 'currency' | 'payment_intent'
>;

/** An amount as Stripe gives it (minor units and a lowercase currency) as our Money; undefined when it is not one of ours. */
function stripeMoney(amount: unknown, currency: unknown): Money | undefined {
  const code = typeof currency === 'string' ? currency.toUpperCase() : undefined;
  if (!isCurrencyCode(code) || typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 0) return undefined;
  // Stripe's minor units are ours: cents for EUR, whole won for KRW (zero-decimal).
  return money(amount, code);
}

function amountOf(session: SessionLike): Money | undefined {
  return stripeMoney(session.amount_total, session.currency);
}

/** A PaymentIntent as an id (`pi_…`), whether Stripe sent the id or the expanded object. */
function paymentIntentId(value: unknown): string | undefined {
  if (typeof value === 'string') return value || undefined;
  return isObject(value) && typeof value.id === 'string' && value.id ? value.id : undefined;
}

/** Our reference as the session carries it; none when its two places disagree (then the session is not one of ours). */
function referenceOf(session: SessionLike): string | undefined {
  const fromClient = session.client_reference_id ?? undefined;
  const fromMetadata = session.metadata?.reference ?? undefined;
  if (fromClient !== undefined && fromMetadata !== undefined && fromClient !== fromMetadata) return undefined;
  return fromClient ?? fromMetadata;
}

/** The order id we put into the session's metadata, when it is there. */
function orderIdOf(session: SessionLike): number | undefined {
  const value = session.metadata?.orderId;
  return typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

/** What a retrieved session says, without an event to go by. */
function statusOfSession(session: SessionLike): ProviderStatus | 'unknown' {
  if (session.status === 'expired') return 'expired';
  if (session.status === 'open') return 'pending';
  if (session.status === 'complete') {
    if (session.payment_status === 'paid') return 'paid';
    if (session.payment_status === 'unpaid') return 'pending'; // a delayed method still working (or failed: only the event says)
  }
  return 'unknown';
}

function statusOfEvent(type: string, session: SessionLike): ProviderStatus | 'unknown' {
  switch (type) {
    case 'checkout.session.completed':
      return session.payment_status === 'paid' ? 'paid' : session.payment_status === 'unpaid' ? 'pending' : 'unknown';
    case 'checkout.session.async_payment_succeeded':
      return 'paid';
    case 'checkout.session.async_payment_failed':
      return 'failed';
    case 'checkout.session.expired':
      return 'expired';
    default:
      return 'unknown';
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A Refund object's status as the ledger's: on its way, made, or not made (failed, canceled). */
function refundStatus(status: unknown): 'pending' | 'succeeded' | 'failed' | undefined {
  if (status === 'pending' || status === 'requires_action') return 'pending';
  if (status === 'succeeded') return 'succeeded';
  if (status === 'failed' || status === 'canceled') return 'failed';
  return undefined;
}

/** A Stripe Refund object as a ledger fact (undefined when it is not one we can read). */
function refundFact(refund: unknown): MoneyFact | undefined {
  if (!isObject(refund) || typeof refund.id !== 'string' || !refund.id) return undefined;
  const status = refundStatus(refund.status);
  const amount = stripeMoney(refund.amount, refund.currency);
  if (!status || !amount) return undefined;
  return { kind: 'refund', subject: refund.id, status, amount: amount.amount, currency: amount.currency };
}

/**
 * `charge.refunded`: a refund made by our call or in Stripe's dashboard, full or partial. The Charge
 * says how much has gone back in all (`amount_refunded`, pending refunds included), a fact the
 * ledger counts by its largest value less the refunds it knows one by one; when the Charge lists
 * its refunds (older API versions, or expanded), each is a fact of its own.
 */
function chargeRefundedReport(event: { id: string; type: string }, charge: Record<string, unknown>): PaymentReport {
  const total = stripeMoney(charge.amount_refunded, charge.currency);
  const listed = isObject(charge.refunds) && Array.isArray(charge.refunds.data) ? charge.refunds.data : [];
  const facts: MoneyFact[] = listed.map(refundFact).filter((fact): fact is MoneyFact => fact !== undefined);
  if (total)
    facts.push({
      kind: 'refund_total',
      subject: typeof charge.id === 'string' ? charge.id : 'charge',
      status: 'succeeded',
      amount: total.amount,
      currency: total.currency,
    });
  return {
    eventId: event.id,
    eventType: event.type,
    providerPaymentId: paymentIntentId(charge.payment_intent),
    status: 'refunded',
    amount: stripeMoney(charge.amount, charge.currency),
    ...(total ? { moneyBack: { total } } : {}),
    facts,
    needsConfirmation: false,
  };
}

/**
 * `charge.refund.updated`, `refund.created`, `refund.updated`, `refund.failed`: one Refund, with
 * its status (a pending refund that later succeeds or fails). Named by its PaymentIntent.
 */
function refundReport(event: { id: string; type: string }, refund: Record<string, unknown>): PaymentReport {
  const fact = refundFact(refund);
  return {
    eventId: event.id,
    eventType: event.type,
    providerPaymentId: paymentIntentId(refund.payment_intent),
    status: fact ? 'refunded' : 'unknown',
    facts: fact ? [fact] : [],
    needsConfirmation: false,
  };
}

/** What a closed dispute's status means for the money (Stripe's dispute statuses). */
function closedDisputeStatus(status: unknown): ProviderStatus | 'unknown' {
  if (status === 'won' || status === 'warning_closed') return 'dispute_won'; // an inquiry closed without a chargeback keeps the money too
  if (status === 'lost') return 'charged_back';
  return 'unknown';
}

const DISPUTE_FACT = { disputed: 'open', dispute_won: 'won', charged_back: 'lost' } as const;

/**
 * `charge.dispute.*`: the buyer's bank disputes the payment. Created: the money is held; closed:
 * won (kept) or lost (taken back: the dispute's amount). Funds withdrawn or reinstated only repeat
 * what created and closed say, so they are noted and change nothing.
 */
function disputeReport(event: { id: string; type: string }, dispute: Record<string, unknown>): PaymentReport {
  const amount = stripeMoney(dispute.amount, dispute.currency);
  const disputeId = typeof dispute.id === 'string' && dispute.id ? dispute.id : undefined;
  const status =
    event.type === 'charge.dispute.created' ? 'disputed' : event.type === 'charge.dispute.closed' ? closedDisputeStatus(dispute.status) : 'unknown';
  return {
    eventId: event.id,
    eventType: event.type,
    providerPaymentId: paymentIntentId(dispute.payment_intent),
    disputeId,
    status,
    amount,
    ...(status === 'charged_back' ? { moneyBack: { ...(amount ? { amount } : {}), ...(disputeId ? { providerRefundId: disputeId } : {}) } } : {}),
    facts:
      disputeId && (status === 'disputed' || status === 'dispute_won' || status === 'charged_back')
        ? [{ kind: 'dispute', subject: disputeId, status: DISPUTE_FACT[status], amount: amount?.amount ?? 0, ...(amount ? { currency: amount.currency } : {}) }]
        : [],
    needsConfirmation: false,
  };
}

function headerValue(headers: Record<string, string | undefined>, name: string): string | undefined {
  const direct = headers[name];
  if (direct !== undefined) return direct;
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

/** Stripe's own words, with anything that looks like a key or a webhook secret taken out. */
function withoutKeys(message: string): string {
  return message.replace(/\b(?:sk|rk|pk)_(?:test|live)_\w*|\bwhsec_\w*/g, '[key]').slice(0, 300);
}

/** Turns an SDK error into one of ours. Messages that could hold a key are never passed on. */
function translate(error: unknown, action: 'create' | 'query' | 'refund'): Error {
  if (!(error instanceof Stripe.errors.StripeError)) return error instanceof Error ? error : new Error(String(error));
  const status = error.statusCode ?? 0;
  switch (error.type) {
    case 'StripeConnectionError':
    case 'StripeAPIError':
    case 'StripeRateLimitError':
      return new UnavailableError(`Card payments are not available right now (${action}). Try again later.`, 'stripe_unavailable', error);
    case 'StripeAuthenticationError':
    case 'StripePermissionError':
      return fail('stripe_misconfigured', undefined, { cause: error });
    case 'StripeIdempotencyError':
      return action === 'refund'
        ? fail('stripe_idempotency', undefined, { cause: error })
        : new ConflictError('This payment attempt was already started with other details.', 'stripe_idempotency', error);
    default:
      if (status >= 500 || status === 0) {
        return new UnavailableError(`Card payments are not available right now (${action}). Try again later.`, 'stripe_unavailable', error);
      }
      if (action === 'refund') {
        if (error.code === 'resource_missing') return fail('stripe_payment_not_found');
        // Already refunded, more than is left, a payment that cannot be refunded: the order stays as it is.
        return new ConflictError(`Stripe refused the refund: ${withoutKeys(error.message)}`, 'refund_refused');
      }
      if (error.code === 'resource_missing') return fail('stripe_session_not_found');
      return new ValidationError(`Stripe refused the payment: ${error.message}`, undefined, 'stripe_rejected');
  }
}

/** What Stripe answered to a request that failed for a reason other than the card, for staff. */
function providerFailure(error: InstanceType<typeof Stripe.errors.StripeError>): ProviderRequestFailure {
  const answered = typeof error.statusCode === 'number' && error.statusCode > 0;
  return {
    httpStatus: answered ? error.statusCode! : 0,
    type: answered ? (typeof error.rawType === 'string' ? error.rawType : error.type) : 'connection',
    code: typeof error.code === 'string' ? error.code : null,
    message: withoutKeys(error.message || 'no message'),
    requestId: typeof error.requestId === 'string' && error.requestId ? error.requestId : null,
  };
}

/** A PaymentIntent of an off-session renewal charge (event, retrieve or create answer) as a report: found by our reference in its metadata. */
function paymentIntentReport(event: { id: string; type: string }, intent: Record<string, unknown>): PaymentReport {
  const metadata = isObject(intent.metadata) ? intent.metadata : {};
  const reference = typeof metadata.reference === 'string' ? metadata.reference : undefined;
  const orderId = typeof metadata.orderId === 'string' && /^\d{1,15}$/.test(metadata.orderId) ? Number(metadata.orderId) : undefined;
  const id = typeof intent.id === 'string' ? intent.id : undefined;
  let status: ProviderStatus | 'unknown';
  if (event.type === 'payment_intent.succeeded' || intent.status === 'succeeded') status = 'paid';
  else if (event.type === 'payment_intent.payment_failed') status = 'failed';
  else if (intent.status === 'canceled') status = 'failed';
  else if (intent.status === 'requires_payment_method' && isObject(intent.last_payment_error)) status = 'failed';
  else status = 'pending';
  return {
    eventId: event.id,
    eventType: event.type,
    reference,
    orderId,
    providerReference: id,
    providerPaymentId: id,
    status,
    amount: stripeMoney(status === 'paid' ? (intent.amount_received ?? intent.amount) : intent.amount, intent.currency),
    needsConfirmation: false,
  };
}

/** A saved card from a customer and a payment method (ids or expanded objects). */
function savedCardOf(customer: unknown, paymentMethod: unknown): SavedCard | undefined {
  const customerId = typeof customer === 'string' ? customer : isObject(customer) && typeof customer.id === 'string' ? customer.id : undefined;
  const methodId =
    typeof paymentMethod === 'string' ? paymentMethod : isObject(paymentMethod) && typeof paymentMethod.id === 'string' ? paymentMethod.id : undefined;
  if (!customerId || !methodId) return undefined;
  const card = isObject(paymentMethod) && isObject(paymentMethod.card) ? paymentMethod.card : {};
  return {
    customerId,
    paymentMethodId: methodId,
    brand: typeof card.brand === 'string' ? card.brand : null,
    last4: typeof card.last4 === 'string' && /^\d{4}$/.test(card.last4) ? card.last4 : null,
  };
}

export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  readonly acknowledgement = { contentType: 'application/json', body: '{"received":true}' };
  /**
   * Stripe refuses a Checkout Session or PaymentIntent below its minimum charge amount (400
   * `amount_too_small`): https://docs.stripe.com/currencies#minimum-and-maximum-charge-amounts
   * lists €0.50 for EUR. KRW is not in its table (an unlisted currency must come to the equivalent
   * of the minimum at the day's rate): no fixed figure is declared for it.
   */
  readonly minimumCharge = { EUR: 50 } as const;
  readonly savedCards: SavedCardCharging = {
    createCustomer: (buyer) => this.createCustomer(buyer),
    cardOfPayment: (providerPaymentId) => this.cardOfPayment(providerPaymentId),
    chargeOffSession: (request) => this.chargeOffSession(request),
    cardUpdateCheckout: (request) => this.cardUpdateCheckout(request),
    cardOfUpdate: (sessionId) => this.cardOfUpdate(sessionId),
  };

  private readonly stripe: Stripe;
  private readonly webhookSecret: string;
  private readonly toleranceSeconds: number;
  private readonly clock: Clock;
  private readonly installationId: () => Promise<string>;

  constructor(options: StripeProviderOptions) {
    if (!options.secretKey || !options.webhookSecret) throw new TypeError('StripeProvider needs a secret key and a webhook secret');
    this.webhookSecret = options.webhookSecret;
    this.toleranceSeconds = options.toleranceSeconds ?? 300;
    this.clock = options.clock ?? new SystemClock();
    this.installationId =
      options.installationId ?? (() => Promise.reject(new Error('StripeProvider needs the installation id to prefix its idempotency keys')));
    this.stripe = new Stripe(options.secretKey, {
      ...stripeHostOptions(options.apiBase),
      maxNetworkRetries: 0, // the service decides about retries; a blind retry must not open a second session
      timeout: options.timeoutMs ?? 10_000,
      telemetry: false,
    });
  }

  async createCheckout(request: CheckoutRequest): Promise<CheckoutSession> {
    if (!Number.isSafeInteger(request.amount.amount) || request.amount.amount <= 0) throw new RangeError('A checkout needs a positive amount');
    const params: Stripe.Checkout.SessionCreateParams = {
      mode: 'payment',
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: request.amount.currency.toLowerCase(),
            unit_amount: request.amount.amount, // minor units; KRW is zero-decimal, so whole won
            product_data: { name: request.description },
          },
        },
      ],
      client_reference_id: request.reference,
      metadata: { reference: request.reference, orderId: String(request.orderId) },
      // Also on the PaymentIntent, for people in Stripe's dashboard, which lists payments, refunds and
      // disputes by it; our code goes by the session's metadata only.
      payment_intent_data: {
        metadata: { reference: request.reference, orderId: String(request.orderId) },
        // "Renew automatically": the card is kept on the buyer's customer for off-session charges.
        ...(request.saveCardFor ? { setup_future_usage: 'off_session' as const } : {}),
      },
      locale: request.languageId === 2 ? 'ko' : 'en',
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
      // expires_at is left to Stripe's default (24 h): a computed one would change between retries
      // and turn a retry with the same Idempotency-Key into an idempotency error.
      // Stripe takes either a customer or an e-mail for the receipt, not both.
      ...(request.saveCardFor ? { customer: request.saveCardFor.customerId } : request.buyerEmail ? { customer_email: request.buyerEmail } : {}),
    };
    const idempotencyKey = stripeIdempotencyKey(await this.installationId(), request.reference);
    let session: Stripe.Checkout.Session;
    try {
      session = await this.stripe.checkout.sessions.create(params, { idempotencyKey });
    } catch (error) {
      throw translate(error, 'create');
    }
    if (!session.id || !session.url || !/^https?:\/\//i.test(session.url)) {
      throw fail('stripe_unavailable');
    }
    return { providerReference: session.id, url: session.url };
  }

  /** `GET /v1/checkout/sessions/:id`: the session's `status` (open, complete, expired). */
  async checkoutState(sessionId: string): Promise<'open' | 'complete' | 'expired'> {
    let session: Stripe.Checkout.Session;
    try {
      session = await this.stripe.checkout.sessions.retrieve(sessionId);
    } catch (error) {
      throw translate(error, 'query');
    }
    return session.status === 'open' ? 'open' : session.status === 'complete' ? 'complete' : 'expired';
  }

  /**
   * `POST /v1/checkout/sessions/:id/expire` (https://docs.stripe.com/api/checkout/sessions/expire):
   * an open session can no longer be paid. Stripe refuses (400) a session that is not open: then
   * where it stands is asked, so one paid meanwhile answers `complete`.
   */
  async expireCheckout(sessionId: string): Promise<'complete' | 'expired'> {
    try {
      const session = await this.stripe.checkout.sessions.expire(sessionId);
      return session.status === 'complete' ? 'complete' : 'expired';
    } catch (error) {
      const state = await this.checkoutState(sessionId);
      if (state === 'open') throw translate(error, 'query');
      return state;
    }
  }

  verifyNotification(notification: IncomingNotification): PaymentReport {
    const header = headerValue(notification.headers, 'stripe-signature');
    if (!header) throw new SignatureError('Stripe notification without a Stripe-Signature header');
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(
        notification.rawBody,
        header,
        this.webhookSecret,
        this.toleranceSeconds,
        undefined,
        this.clock.now().getTime(),
      );
    } catch (error) {
      // A bad or stale signature, or a signed body that is not JSON: either way not something to act on.
      throw new SignatureError(`Stripe notification rejected: ${error instanceof Error ? error.message : 'invalid'}`);
    }
    if (!isObject(event) || typeof event.id !== 'string' || typeof event.type !== 'string') {
      throw new SignatureError('Stripe notification is not an event');
    }
    const isCheckout = (STRIPE_CHECKOUT_EVENTS as readonly string[]).includes(event.type);
    const object: unknown = isObject(event.data) ? event.data.object : undefined;
    if (event.type === 'charge.refunded' && isObject(object) && object.object === 'charge') return chargeRefundedReport(event, object);
    const isDispute = (STRIPE_DISPUTE_EVENTS as readonly string[]).includes(event.type);
    if (isDispute && isObject(object) && object.object === 'dispute') return disputeReport(event, object);
    if ((STRIPE_REFUND_EVENTS as readonly string[]).includes(event.type) && isObject(object) && object.object === 'refund') return refundReport(event, object);
    const isIntent = (STRIPE_PAYMENT_INTENT_EVENTS as readonly string[]).includes(event.type);
    if (isIntent && isObject(object) && object.object === 'payment_intent' && isObject(object.metadata) && object.metadata.kind === 'renewal') {
      return paymentIntentReport({ id: event.id, type: event.type }, object);
    }
    if (!isCheckout || !isObject(object) || object.object !== 'checkout.session') {
      return { eventId: event.id, eventType: event.type, status: 'unknown', needsConfirmation: false };
    }
    const session = object as unknown as SessionLike;
    // The whole event is signed, but a session can be made elsewhere on the account (a payment
    // link takes ?client_reference_id= from anyone): the service finds the payment by our
    // reference and then requires its session id and order to be the ones we stored.
    return {
      eventId: event.id,
      eventType: event.type,
      reference: referenceOf(session),
      providerReference: session.id,
      orderId: orderIdOf(session),
      // The money's id, stored with the payment: refunds go to it, and charge and dispute events name the payment by it.
      providerPaymentId: paymentIntentId(session.payment_intent),
      status: statusOfEvent(event.type, session),
      amount: amountOf(session),
      needsConfirmation: false,
    };
  }

  async fetchStatus(payment: { reference: string; providerReference: string | null; amount: Money }): Promise<PaymentReport> {
    if (!payment.providerReference) return notAtProvider(payment.reference);
    if (payment.providerReference.startsWith('pi_')) {
      // An off-session renewal charge: its PaymentIntent is the payment.
      let intent: Stripe.PaymentIntent;
      try {
        intent = await this.stripe.paymentIntents.retrieve(payment.providerReference);
      } catch (error) {
        throw translate(error, 'query');
      }
      const report = paymentIntentReport({ id: '', type: 'status_query' }, intent as unknown as Record<string, unknown>);
      return { ...report, eventId: `query:${intent.id}:${report.status}` };
    }
    let session: Stripe.Checkout.Session;
    try {
      session = await this.stripe.checkout.sessions.retrieve(payment.providerReference);
    } catch (error) {
      throw translate(error, 'query');
    }
    const status = statusOfSession(session);
    return {
      eventId: `query:${session.id}:${status}`,
      eventType: 'status_query',
      reference: referenceOf(session),
      providerReference: session.id,
      providerPaymentId: paymentIntentId(session.payment_intent),
      status,
      amount: amountOf(session),
      needsConfirmation: false,
    };
  }

  /**
   * `charge.refunded` tells a running total, which cannot say which refunds it holds (pending ones
   * are in it, failed ones leave it): the PaymentIntent's refunds are listed instead, each a fact
   * with its own id and status, so the ledger counts each refund once whatever the order of events.
   */
  async completeFacts(report: PaymentReport): Promise<PaymentReport> {
    if (report.status === 'paid' && report.providerPaymentId && !report.cardFingerprint) {
      // A fact for the referral guard, not for the sale: a Stripe that does not answer this
      // question must not hold the payment back (the guard then has no fingerprint to compare).
      const cardFingerprint = await this.cardFingerprintOf(report.providerPaymentId).catch(() => undefined);
      return cardFingerprint ? { ...report, cardFingerprint } : report;
    }
    if (report.eventType !== 'charge.refunded' || !report.providerPaymentId) return report;
    const facts: MoneyFact[] = [];
    try {
      for await (const refund of this.stripe.refunds.list({ payment_intent: report.providerPaymentId, limit: 100 })) {
        const fact = refundFact(refund);
        if (fact) facts.push(fact);
      }
    } catch (error) {
      throw translate(error, 'query');
    }
    return { ...report, facts: [...facts, ...(report.facts ?? []).filter((fact) => fact.kind !== 'refund')] };
  }

  /**
   * Refunds (part of) the PaymentIntent the paid session left. The Idempotency-Key is our refund's
   * id, so asking again after a timeout answers the refund Stripe already made instead of a second one.
   */
  /** The PaymentIntent of a paid Checkout Session, asked of Stripe; undefined when there is none. */
  private async paymentIntentOfSession(sessionId: string | null): Promise<string | undefined> {
    if (!sessionId) return undefined;
    let session: Stripe.Checkout.Session;
    try {
      session = await this.stripe.checkout.sessions.retrieve(sessionId);
    } catch (error) {
      throw translate(error, 'refund');
    }
    const intent = session.payment_intent;
    return typeof intent === 'string' ? intent : (intent?.id ?? undefined);
  }

  async refund(request: RefundRequest): Promise<RefundReceipt> {
    checkRefundRequest(request);
    // Payments paid before we stored the PaymentIntent: their Checkout Session knows it.
    const paymentIntent = request.providerPaymentId ?? (await this.paymentIntentOfSession(request.providerReference));
    if (!paymentIntent) {
      throw new ConflictError('Stripe has not told us the payment id of this order, so it cannot be refunded through Stripe.', 'refund_not_possible');
    }
    const learnt = request.providerPaymentId ? {} : { providerPaymentId: paymentIntent };
    const idempotencyKey = stripeRefundIdempotencyKey(await this.installationId(), request.refundId);
    let refund: Stripe.Refund;
    try {
      refund = await this.stripe.refunds.create(
        {
          payment_intent: paymentIntent,
          amount: request.amount.amount, // minor units; KRW is zero-decimal, so whole won
          reason: 'requested_by_customer',
          metadata: { reference: request.reference, refundId: String(request.refundId) },
        },
        { idempotencyKey },
      );
    } catch (error) {
      throw translate(error, 'refund');
    }
    if (typeof refund.id !== 'string' || !refund.id) throw fail('stripe_unavailable');
    switch (refund.status) {
      case 'succeeded':
        return { providerRefundId: refund.id, status: 'succeeded', ...learnt };
      case 'pending':
      case 'requires_action': // the buyer's bank needs details from them (Stripe e-mails them): the money is on its way
        return { providerRefundId: refund.id, status: 'pending', ...learnt };
      default: {
        const why = typeof refund.failure_reason === 'string' ? ` (${withoutKeys(refund.failure_reason)})` : '';
        throw new ConflictError(`Stripe did not make the refund: it is ${String(refund.status)}${why}.`, 'refund_refused');
      }
    }
  }

  /** A Customer per buyer (Customers API); the Idempotency-Key makes a retry answer the same customer. */
  private async createCustomer(buyer: { userId: number; email: string; idempotencyKey: string }): Promise<string> {
    try {
      const customer = await this.stripe.customers.create(
        { email: buyer.email, metadata: { userId: String(buyer.userId) } },
        { idempotencyKey: buyer.idempotencyKey },
      );
      return customer.id;
    } catch (error) {
      throw translate(error, 'create');
    }
  }

  /**
   * The fingerprint of the card that paid a PaymentIntent: its latest charge's
   * `payment_method_details.card.fingerprint` (https://docs.stripe.com/api/charges/object#charge_object-payment_method_details-card-fingerprint),
   * asked with `expand[]=latest_charge`. Undefined for a payment that was not by card.
   */
  private async cardFingerprintOf(providerPaymentId: string): Promise<string | undefined> {
    let intent: Stripe.PaymentIntent;
    try {
      intent = await this.stripe.paymentIntents.retrieve(providerPaymentId, { expand: ['latest_charge'] });
    } catch (error) {
      throw translate(error, 'query');
    }
    const charge = intent.latest_charge;
    if (!charge || typeof charge === 'string') return undefined;
    return charge.payment_method_details?.card?.fingerprint ?? undefined;
  }

  /** The card a paid Checkout saved: its PaymentIntent's customer and payment method (expanded for the last four digits). */
  private async cardOfPayment(providerPaymentId: string): Promise<SavedCard | undefined> {
    let intent: Stripe.PaymentIntent;
    try {
      intent = await this.stripe.paymentIntents.retrieve(providerPaymentId, { expand: ['payment_method'] });
    } catch (error) {
      throw translate(error, 'query');
    }
    return savedCardOf(intent.customer, intent.payment_method);
  }

  /**
   * Charges a saved card without the buyer: a PaymentIntent created with `off_session=true` and
   * `confirm=true`. A decline is Stripe's 402 card error carrying the PaymentIntent; a bank that
   * wants the buyer to authenticate answers the decline code `authentication_required` (or a
   * PaymentIntent in `requires_action`). Any other error of Stripe's (a 400 refusing our request,
   * 5xx, 429, no answer) is `provider_error` with Stripe's message and request id: not a decline.
   */
  private async chargeOffSession(request: OffSessionChargeRequest): Promise<OffSessionChargeResult> {
    if (!Number.isSafeInteger(request.amount.amount) || request.amount.amount <= 0) throw new RangeError('A charge needs a positive amount');
    let intent: Stripe.PaymentIntent;
    try {
      intent = await this.stripe.paymentIntents.create(
        {
          amount: request.amount.amount,
          currency: request.amount.currency.toLowerCase(),
          customer: request.card.customerId,
          payment_method: request.card.paymentMethodId,
          off_session: true,
          confirm: true,
          // Since API version 2023-08-16 a PaymentIntent has automatic payment methods on, and Stripe
          // refuses to confirm one without `return_url` unless redirects are ruled out
          // (https://docs.stripe.com/api/payment_intents/create#create_payment_intent-return_url,
          // https://docs.stripe.com/upgrades#2023-08-16). Nobody is there to follow a redirect: a card
          // that would need one is a decline or `authentication_required`, and the buyer pays by link.
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          description: request.description,
          metadata: { reference: request.reference, orderId: String(request.orderId), kind: 'renewal' },
        },
        { idempotencyKey: request.idempotencyKey },
      );
    } catch (error) {
      if (error instanceof Stripe.errors.StripeCardError) {
        const raw = error.raw as { payment_intent?: Record<string, unknown>; decline_code?: string; code?: string } | undefined;
        const declined = raw?.payment_intent;
        const code = error.decline_code ?? raw?.decline_code ?? error.code ?? 'card_declined';
        const paymentIntentId = declined && typeof declined.id === 'string' ? declined.id : undefined;
        if (code === 'authentication_required') return { status: 'requires_action', paymentIntentId, declineCode: code };
        const report = declined
          ? { ...paymentIntentReport({ id: '', type: 'charge_attempt' }, { ...declined, status: 'requires_payment_method' }), status: 'failed' as const }
          : undefined;
        return { status: 'declined', paymentIntentId, declineCode: code, report: report && { ...report, eventId: `charge:${paymentIntentId}:failed` } };
      }
      // Anything else is not the card: our request refused (400), Stripe failing (5xx), rate
      // limiting (429), no answer in time. Not a decline: the renewal retries and staff are told.
      if (error instanceof Stripe.errors.StripeError) return { status: 'provider_error', providerError: providerFailure(error) };
      throw error;
    }
    const report = paymentIntentReport({ id: `charge:${intent.id}`, type: 'charge_attempt' }, intent as unknown as Record<string, unknown>);
    switch (intent.status) {
      case 'succeeded':
        return { status: 'succeeded', paymentIntentId: intent.id, report: { ...report, eventId: `charge:${intent.id}:paid` } };
      case 'requires_action':
      case 'requires_confirmation':
        return { status: 'requires_action', paymentIntentId: intent.id, declineCode: 'authentication_required' };
      case 'requires_payment_method':
      case 'canceled':
        return {
          status: 'declined',
          paymentIntentId: intent.id,
          declineCode: 'card_declined',
          report: { ...report, status: 'failed', eventId: `charge:${intent.id}:failed` },
        };
      default:
        return { status: 'processing', paymentIntentId: intent.id };
    }
  }

  /** Stripe's setup-mode Checkout: the buyer saves a new card on their customer; no money moves. */
  private async cardUpdateCheckout(request: { customerId: string; currency: string; successUrl: string; cancelUrl: string; idempotencyKey: string }) {
    try {
      const session = await this.stripe.checkout.sessions.create(
        {
          mode: 'setup',
          customer: request.customerId,
          // Setup mode with dynamic payment methods names the currency the card will be charged in.
          currency: request.currency.toLowerCase(),
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
          metadata: { kind: 'card_update' },
        },
        { idempotencyKey: request.idempotencyKey },
      );
      if (!session.url) throw new UnavailableError('Card payments are not available right now. Try again later.', 'stripe_unavailable');
      return { sessionId: session.id, url: session.url };
    } catch (error) {
      if (error instanceof UnavailableError) throw error;
      throw translate(error, 'create');
    }
  }

  /** The card saved through a setup-mode session, once it is complete (its SetupIntent's payment method). */
  private async cardOfUpdate(sessionId: string): Promise<SavedCard | undefined> {
    let session: Stripe.Checkout.Session;
    try {
      session = await this.stripe.checkout.sessions.retrieve(sessionId, { expand: ['setup_intent.payment_method'] });
    } catch (error) {
      throw translate(error, 'query');
    }
    if (session.status !== 'complete' || !isObject(session.setup_intent)) return undefined;
    const setup = session.setup_intent as unknown as Record<string, unknown>;
    return savedCardOf(setup.customer ?? session.customer, setup.payment_method);
  }
}
