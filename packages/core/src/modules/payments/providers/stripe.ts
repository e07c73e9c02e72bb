/**
 * Card payments (method 1) through Stripe Checkout Sessions, with the official `stripe` SDK
 * (protocols.md section 1). We create a hosted Checkout Session per payment attempt and send the
 * buyer to its `url`; money moves only on a webhook whose `Stripe-Signature` verifies (HMAC-SHA256
 * over `t.rawBody` with the endpoint secret, at most 300 s old) or on a session we retrieved
 * ourselves. The browser's return to `success_url` proves nothing.
 *
 * STRIPE_API_BASE (e.g. `http://127.0.0.1:12111`) points the SDK at a local server that speaks
 * Stripe's protocol; the `/v1/` paths stay as they are.
 */
import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { type Clock, SystemClock } from '../../../shared/clock.js';
import { ConflictError, NotFoundError, UnavailableError, ValidationError } from '../../../shared/errors.js';
import { type Money, isCurrencyCode, money } from '../../../shared/money.js';
import {
  type CheckoutRequest,
  type CheckoutSession,
  type IncomingNotification,
  type PaymentProvider,
  type PaymentReport,
  type ProviderStatus,
  SignatureError,
} from './provider.js';

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

/** Idempotency-Key for creating the session of one payment attempt: a retry cannot open a second session. */
export function stripeIdempotencyKey(reference: string): string {
  return `subshare-checkout-${reference}`;
}

/** Stripe config for a base URL such as `http://127.0.0.1:12111`. */
export function stripeHostOptions(apiBase: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}

type SessionLike = Pick<Stripe.Checkout.Session, 'id' | 'status' | 'payment_status' | 'client_reference_id' | 'metadata' | 'amount_total' | 'currency'>;

function amountOf(session: SessionLike): Money | undefined {
  const code = session.currency?.toUpperCase();
  if (!isCurrencyCode(code) || typeof session.amount_total !== 'number' || !Number.isSafeInteger(session.amount_total)) return undefined;
  // Stripe's minor units are ours: cents for EUR, whole won for KRW (zero-decimal).
  return money(session.amount_total, code);
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

function headerValue(headers: Record<string, string | undefined>, name: string): string | undefined {
  const direct = headers[name];
  if (direct !== undefined) return direct;
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

/** Turns an SDK error into one of ours. Messages that could hold a key are never passed on. */
function translate(error: unknown, action: string): Error {
  if (!(error instanceof Stripe.errors.StripeError)) return error instanceof Error ? error : new Error(String(error));
  const status = error.statusCode ?? 0;
  switch (error.type) {
    case 'StripeConnectionError':
    case 'StripeAPIError':
    case 'StripeRateLimitError':
      return new UnavailableError(`Card payments are not available right now (${action}). Try again later.`, 'stripe_unavailable', error);
    case 'StripeAuthenticationError':
    case 'StripePermissionError':
      return new UnavailableError('Card payments are not available right now. Try again later.', 'stripe_misconfigured', error);
    case 'StripeIdempotencyError':
      return new ConflictError('This payment attempt was already started with other details.', 'stripe_idempotency', error);
    default:
      if (status >= 500 || status === 0) {
        return new UnavailableError(`Card payments are not available right now (${action}). Try again later.`, 'stripe_unavailable', error);
      }
      if (error.code === 'resource_missing') return new NotFoundError('Stripe does not know this checkout session.', 'stripe_session_not_found');
      return new ValidationError(`Stripe refused the payment: ${error.message}`, undefined, 'stripe_rejected');
  }
}

export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  readonly acknowledgement = { contentType: 'application/json', body: '{"received":true}' };

  private readonly stripe: Stripe;
  private readonly webhookSecret: string;
  private readonly toleranceSeconds: number;
  private readonly clock: Clock;

  constructor(options: StripeProviderOptions) {
    if (!options.secretKey || !options.webhookSecret) throw new TypeError('StripeProvider needs a secret key and a webhook secret');
    this.webhookSecret = options.webhookSecret;
    this.toleranceSeconds = options.toleranceSeconds ?? 300;
    this.clock = options.clock ?? new SystemClock();
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
      locale: request.languageId === 2 ? 'ko' : 'en',
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
      // expires_at is left to Stripe's default (24 h): a computed one would change between retries
      // and turn a retry with the same Idempotency-Key into an idempotency error.
      ...(request.buyerEmail ? { customer_email: request.buyerEmail } : {}),
    };
    let session: Stripe.Checkout.Session;
    try {
      session = await this.stripe.checkout.sessions.create(params, { idempotencyKey: stripeIdempotencyKey(request.reference) });
    } catch (error) {
      throw translate(error, 'create');
    }
    if (!session.id || !session.url || !/^https?:\/\//i.test(session.url)) {
      throw new UnavailableError('Card payments are not available right now. Try again later.', 'stripe_unavailable');
    }
    return { providerReference: session.id, url: session.url };
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
      status: statusOfEvent(event.type, session),
      amount: amountOf(session),
      needsConfirmation: false,
    };
  }

  async fetchStatus(payment: { reference: string; providerReference: string | null; amount: Money }): Promise<PaymentReport> {
    if (!payment.providerReference) {
      // No session was ever created for this attempt: there is nothing to ask Stripe about.
      return {
        eventId: `query:${payment.reference}:unknown`,
        eventType: 'status_query',
        reference: payment.reference,
        status: 'unknown',
        needsConfirmation: false,
      };
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
      status,
      amount: amountOf(session),
      needsConfirmation: false,
    };
  }
}
