/**
 * A local stand-in for Stripe Checkout and Refunds (protocols.md section 1): a real HTTP server on
 * 127.0.0.1 that speaks `/v1/checkout/sessions` and `/v1/refunds` the way the stripe SDK expects
 * (form bodies with bracket notation, Bearer or Basic auth with the secret key, JSON answers,
 * Stripe's error shape, Idempotency-Key replay), keeps sessions and what each paid session's
 * PaymentIntent (`pi_…`) has had refunded, hosts a pay page, and builds webhook deliveries signed
 * exactly like Stripe's (`Stripe-Signature: t=…,v1=HMAC-SHA256(secret, "t.body")`).
 *
 *   const stripe = new FakeStripe();                    // stripe.secretKey, stripe.webhookSecret
 *   const { baseUrl, stop } = await stripe.start();     // STRIPE_API_BASE = baseUrl
 *   // … the adapter creates a session; the buyer "pays":
 *   stripe.pay(sessionId);                              // or { paymentStatus: 'unpaid' } for a delayed method
 *   const delivery = stripe.webhook(sessionId, 'checkout.session.completed');
 *   await stripe.deliver('http://127.0.0.1:3000/api/webhook/stripe', delivery);
 *
 * Money going back, on the paid session's PaymentIntent (`stripe.session(id).payment_intent`):
 *
 *   // our adapter's POST /v1/refunds, or a refund made in Stripe's dashboard:
 *   stripe.dashboardRefund(paymentIntent, 500);
 *   await stripe.deliver(url, stripe.chargeRefundedWebhook(paymentIntent));   // amount_refunded as the fake knows it
 *   await stripe.deliver(url, stripe.disputeWebhook(paymentIntent, 'charge.dispute.created'));
 *   await stripe.deliver(url, stripe.disputeWebhook(paymentIntent, 'charge.dispute.closed', { status: 'lost' }));
 *
 * Saved cards and off-session charges (automatic renewal, issue 28), as Stripe speaks them:
 *
 *   POST /v1/customers                            a Customer (`cus_…`) per buyer
 *   a Checkout Session with `customer` and `payment_intent_data[setup_future_usage]=off_session`:
 *     paying it saves the card (`pm_…`, `pay(id, { card: { last4 } })`) on the customer
 *   a `mode=setup` session (with `currency`): paying it makes a SetupIntent (`seti_…`) with a new card
 *   POST /v1/payment_intents { off_session, confirm, customer, payment_method }: charges the card as
 *     `cardBehaves(pm, …)` says: `succeed`, `decline` (402 card_error card_declined, the PaymentIntent
 *     in `requires_payment_method`), `authentication_required` (402, decline code
 *     authentication_required), `requires_action` (200, a PaymentIntent in `requires_action`)
 *   GET /v1/payment_intents/:id (expand[]=payment_method), GET a session (expand[]=setup_intent.payment_method)
 *   stripe.paymentIntentWebhook(pi, 'payment_intent.succeeded' | 'payment_intent.payment_failed')
 *   stripe.offSessionCharges(): every off-session PaymentIntent that took money
 *
 * It refuses what Stripe refuses, each rule citing its page: parameters the API reference of the
 * pinned version does not have (stripe-reference.ts), a confirm with automatic payment methods
 * without return_url or allow_redirects=never, an Idempotency-Key reused with other parameters, a
 * payment method of another customer. failNextCharge('invalid_request' | 'api_error' | 'rate_limit'
 * | 'timeout', { customer }) fails an off-session charge without the card being at fault.
 *
 * Knobs: failNext(status) answers the next API request (checkout or refund) with an error (before
 * any work is done, so it is not stored against its Idempotency-Key), delayNext(ms) holds the next
 * request back before any work (a timed-out request does nothing), holdNext() holds it back until
 * the test lets it go (a provider slow to answer, for as long as the test looks), delayAnswerNext(ms) does the
 * work and then holds the answer back (a timeout after Stripe made the refund); `refundStatus`
 * ('succeeded' by default, or 'pending') is the status new refunds get.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Stripe from 'stripe';
import { LocalHttpServer, sendText } from './local-http-server.js';
import { stripeEndpointOf, stripeParameters, unknownParameters } from './stripe-reference.js';

export interface FakeStripeOptions {
  secretKey?: string;
  webhookSecret?: string;
  /** When set, a payment on the hosted pay page delivers `checkout.session.completed` here. */
  webhookUrl?: string;
  /** The status a new refund gets: 'succeeded' (default, cards) or 'pending' (some methods and banks take days). */
  refundStatus?: 'succeeded' | 'pending';
}

export interface FakeStripeSession {
  id: string;
  object: 'checkout.session';
  url: string | null;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  mode: string;
  currency: string;
  amount_subtotal: number;
  amount_total: number;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  customer_email: string | null;
  success_url: string | null;
  cancel_url: string | null;
  expires_at: number;
  created: number;
  livemode: false;
  locale: string | null;
  payment_intent: string | null;
  customer: string | null;
  setup_intent: string | null;
  line_items_input: Array<Record<string, unknown>>;
  /** `payment_intent_data` of the create request (kept for the PaymentIntent, not shown on the session). */
  payment_intent_data_input?: Record<string, unknown>;
}

/** A paid session's money: a PaymentIntent with its one Charge, as far as refunds and disputes need it. */
export interface FakeStripePayment {
  /** `pi_…` */
  id: string;
  /** `ch_…`, the PaymentIntent's charge (refunds and disputes are about it). */
  chargeId: string;
  /** The card that paid, as the charge's `payment_method_details.card` tells it. */
  card: FakeStripeCard;
  sessionId: string;
  amount: number;
  currency: string;
  /** `payment_intent_data[metadata]` of the session's create request. */
  metadata: Record<string, string>;
  /** Everything refunded so far (pending refunds included, as Stripe counts them), minor units. */
  amountRefunded: number;
  refunds: FakeStripeRefund[];
  dispute?: FakeStripeDispute;
}

/** Stripe's Refund object, as far as we model it. */
export interface FakeStripeRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  charge: string;
  payment_intent: string;
  reason: string | null;
  metadata: Record<string, string>;
  status: 'succeeded' | 'pending' | 'failed' | 'canceled' | 'requires_action';
  failure_reason?: string;
  created: number;
}

export type FakeStripeDisputeStatus =
  'warning_needs_response' | 'warning_under_review' | 'warning_closed' | 'needs_response' | 'under_review' | 'won' | 'lost' | 'prevented';

/** Stripe's Dispute object, as far as we model it. */
export interface FakeStripeDispute {
  id: string;
  object: 'dispute';
  amount: number;
  currency: string;
  charge: string;
  payment_intent: string;
  reason: string;
  status: FakeStripeDisputeStatus;
  created: number;
  livemode: false;
}

/** A webhook delivery as Stripe would send it: the exact body and its headers. */
export interface FakeStripeDelivery {
  body: string;
  headers: Record<string, string>;
  event: { id: string; type: string };
}

/** How any signed delivery is made (every builder takes these). */
export interface SignedDeliveryOptions {
  /** Unix seconds for `t=` (default now). */
  timestamp?: number;
  /** Sign with this secret instead of the endpoint's. */
  secret?: string;
  /** Change the body after signing (an amount in it goes up by one: the signature no longer matches). */
  tamper?: boolean;
  /** Reuse an event id (Stripe redelivers the same event with the same id). */
  eventId?: string;
}

export interface WebhookOptions extends SignedDeliveryOptions {
  /** Overrides applied to the session snapshot inside the event (before signing). */
  session?: Partial<FakeStripeSession>;
}

export interface ChargeRefundedWebhookOptions extends SignedDeliveryOptions {
  /** The Charge's cumulative `amount_refunded`; default what the fake has refunded on this PaymentIntent. */
  amountRefunded?: number;
  /** Overrides applied to the Charge inside the event (before signing). */
  charge?: Record<string, unknown>;
}

export type DisputeEventType = 'charge.dispute.created' | 'charge.dispute.closed' | 'charge.dispute.funds_withdrawn' | 'charge.dispute.funds_reinstated';

export interface DisputeWebhookOptions extends SignedDeliveryOptions {
  /**
   * The dispute's status, which the fake keeps from then on. Default: `needs_response` for a new
   * dispute, otherwise the status it has; `charge.dispute.closed` needs one (won, lost, warning_closed…).
   */
  status?: FakeStripeDisputeStatus;
  /** The disputed amount in minor units; default the whole charge (or what the dispute had). */
  amount?: number;
  /** The dispute's id; default the PaymentIntent's dispute, made (`du_…`) on first use. */
  disputeId?: string;
  /** Overrides applied to the Dispute inside the event (before signing). */
  dispute?: Record<string, unknown>;
}

type Endpoint = 'create' | 'retrieve' | 'expire' | 'refund' | 'listRefunds' | 'page' | 'customer' | 'intent' | 'intent_retrieve' | 'other';

/** What charging a saved card does (a queue per card; the last one stays). */
export type CardBehaviour = 'succeed' | 'decline' | 'authentication_required' | 'requires_action';

/** A saved card: a PaymentMethod attached to a Customer. */
export interface FakeStripePaymentMethod {
  id: string;
  object: 'payment_method';
  type: 'card';
  customer: string;
  card: FakeStripeCard;
  created: number;
}

/**
 * A card as Stripe shows it. `fingerprint` "uniquely identifies this particular card number"
 * (https://docs.stripe.com/api/payment_methods/object#payment_method_object-card-fingerprint): the
 * fake derives it from the brand and last four digits unless a test names it, so one test card
 * paid twice has one fingerprint.
 */
export interface FakeStripeCard {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  fingerprint: string;
}

/** The card a test pays with: brand and last four digits, and the fingerprint when it matters. */
export type FakeStripeCardInput = { last4?: string; brand?: string; fingerprint?: string };

function fakeCard(input: FakeStripeCardInput = {}): FakeStripeCard {
  const brand = input.brand ?? 'visa';
  const last4 = input.last4 ?? '4242';
  return { brand, last4, exp_month: 12, exp_year: 2030, fingerprint: input.fingerprint ?? `fp${brand}${last4}` };
}

/** A PaymentIntent as the API answers it (off-session charges, and those of paid sessions). */
export interface FakeStripePaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  customer: string | null;
  payment_method: string | null;
  /** `ch_…` of its latest charge (https://docs.stripe.com/api/payment_intents/object#payment_intent_object-latest_charge); expandable. */
  latest_charge: string | null;
  status: 'requires_payment_method' | 'requires_action' | 'processing' | 'succeeded' | 'canceled';
  off_session: boolean;
  metadata: Record<string, string>;
  description: string | null;
  last_payment_error: Record<string, unknown> | null;
  created: number;
  livemode: false;
}

/** Recorded API request (for protocol assertions). */
export interface FakeStripeRequest {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  rawBody: string;
  params: Record<string, unknown>;
  /** The `Request-Id` the answer carried (Stripe's id of the request). */
  requestId: string;
}

/** How Stripe fails a charge without the card being at fault (failNextCharge). */
export type ChargeFailure = 'invalid_request' | 'api_error' | 'rate_limit' | 'timeout';

// Stripe's zero-decimal currencies (1.7): amounts are taken as they are.
const ZERO_DECIMAL = new Set(['bif', 'clp', 'djf', 'gnf', 'jpy', 'kmf', 'krw', 'mga', 'pyg', 'rwf', 'ugx', 'vnd', 'vuv', 'xaf', 'xof', 'xpf']);
const CURRENCIES = new Set(['eur', 'usd', 'gbp', ...ZERO_DECIMAL]);
/**
 * Stripe's minimum charge amounts, in minor units, for the currencies here that its table lists:
 * https://docs.stripe.com/currencies#minimum-and-maximum-charge-amounts ("Minimum and maximum
 * charge amounts": $0.50 USD, €0.50 EUR, £0.30 GBP). A Checkout Session or PaymentIntent below it
 * is refused with 400 `amount_too_small` (https://docs.stripe.com/error-codes#amount-too-small).
 * KRW is not in that table (Stripe asks for the equivalent of its minimum, at the day's rate): the
 * one check kept for it is the Checkout Session's ₩100 below.
 */
export const STRIPE_MINIMUM_CHARGE: Readonly<Record<string, number>> = { usd: 50, eur: 50, gbp: 30 };
const SYMBOL: Readonly<Record<string, string>> = { usd: '$', eur: '€', gbp: '£' };
const tooSmall = (currency: string, what: 'session' | 'intent'): StripeApiError => {
  const minimum = `${SYMBOL[currency]}${(STRIPE_MINIMUM_CHARGE[currency]! / 100).toFixed(2)} ${currency}`;
  return new StripeApiError(400, {
    type: 'invalid_request_error',
    code: 'amount_too_small',
    param: what === 'session' ? 'line_items' : 'amount',
    message: what === 'session' ? `The Checkout Session's total amount due must add up to at least ${minimum}` : `Amount must be at least ${minimum}`,
  });
};
const LOCALES = new Set(['auto', 'en', 'ko', 'ja', 'de', 'fr', 'es', 'it', 'nl', 'zh']);
/** The API version the stripe SDK pins: the version whose reference this server follows. */
const API_VERSION = stripeParameters().apiVersion;

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { type: string; message: string; code?: string; param?: string },
  ) {
    super(body.message);
  }
}

const invalid = (message: string, param?: string, code?: string) => new StripeApiError(400, { type: 'invalid_request_error', message, param, code });

/** `a[b][0][c]=v` → { a: { b: [ { c: 'v' } ] } }, the way Stripe reads form bodies. */
export function parseStripeForm(raw: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const path = key.replace(/\]/g, '').split('[');
    if (path.some((segment) => segment === '__proto__' || segment === 'constructor' || segment === 'prototype')) continue;
    let node = root;
    for (let i = 0; i < path.length - 1; i += 1) {
      const existing = node[path[i]];
      const child = typeof existing === 'object' && existing !== null ? existing : /^\d+$/.test(path[i + 1]) ? [] : {};
      node[path[i]] = child;
      node = child as Record<string, unknown>; // arrays take their numeric keys as strings too
    }
    node[path[path.length - 1]] = value;
  }
  return root;
}

function sendJsonAnswer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'request-id': `req_${randomBytes(7).toString('hex')}`,
    'stripe-version': API_VERSION,
    ...headers,
  });
  res.end(text);
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export class FakeStripe extends LocalHttpServer {
  readonly secretKey: string;
  readonly webhookSecret: string;
  webhookUrl?: string;
  /** The status new refunds get. */
  refundStatus: 'succeeded' | 'pending';
  /** Requests received, by endpoint. */
  readonly requests: Record<Endpoint, number> = {
    create: 0,
    retrieve: 0,
    expire: 0,
    refund: 0,
    listRefunds: 0,
    page: 0,
    customer: 0,
    intent: 0,
    intent_retrieve: 0,
    other: 0,
  };
  readonly customers = new Map<string, { id: string; object: 'customer'; email: string | null; metadata: Record<string, string>; created: number }>();
  readonly paymentMethods = new Map<string, FakeStripePaymentMethod>();
  /** Every PaymentIntent by id: paid sessions' and off-session charges'. */
  readonly intents = new Map<string, FakeStripePaymentIntent>();
  private readonly behaviours = new Map<string, CardBehaviour[]>();
  private readonly setupIntents = new Map<
    string,
    { id: string; object: 'setup_intent'; customer: string; payment_method: string; status: 'succeeded'; usage: 'off_session' }
  >();
  /** Every API request, in order. */
  readonly log: FakeStripeRequest[] = [];
  readonly sessions = new Map<string, FakeStripeSession>();
  /** Paid sessions' money, by PaymentIntent id. */
  readonly payments = new Map<string, FakeStripePayment>();

  private readonly idempotency = new Map<string, { rawBody: string; path: string; status: number; body: unknown }>();
  private readonly lateAnswers: number[] = [];
  /** Requests held back until the test lets them go (holdNext). */
  private readonly gates: Array<Promise<void>> = [];
  /** How the next off-session charges fail (failNextCharge), each for one customer or any. */
  private readonly chargeFailures: Array<{ how: ChargeFailure; customer?: string; timeoutMs: number }> = [];

  constructor(options: FakeStripeOptions = {}) {
    super('FakeStripe');
    this.secretKey = options.secretKey ?? `sk_test_${randomBytes(12).toString('hex')}`;
    this.webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(16).toString('base64url')}`;
    this.webhookUrl = options.webhookUrl;
    this.refundStatus = options.refundStatus ?? 'succeeded';
  }

  /** The configuration that points the shop at this server. */
  get env(): Record<string, string> {
    return { STRIPE_SECRET_KEY: this.secretKey, STRIPE_WEBHOOK_SECRET: this.webhookSecret, STRIPE_API_BASE: this.baseUrl };
  }

  /** The last session-create request. */
  get lastCreate(): FakeStripeRequest | undefined {
    return [...this.log].reverse().find((entry) => entry.method === 'POST' && entry.path === '/v1/checkout/sessions');
  }

  /** The last refund-create request. */
  get lastRefund(): FakeStripeRequest | undefined {
    return [...this.log].reverse().find((entry) => entry.method === 'POST' && entry.path === '/v1/refunds');
  }

  /**
   * The next API request is answered with this status (default 500, Stripe's api_error shape);
   * with `endpoint` ('refund', 'create', 'intent_retrieve'…), the next request of that endpoint only.
   */
  failNext(status = 500, body: unknown = { error: { type: 'api_error', message: 'An unknown error occurred' } }, endpoint?: string): void {
    this.queueFailure({ status, body }, endpoint);
  }

  /**
   * The next `POST /v1/payment_intents` fails the way Stripe fails a request without the card being
   * at fault, before any work is done: `invalid_request` (400 invalid_request_error, a request of
   * ours it refuses), `api_error` (500), `rate_limit` (429, code rate_limit), `timeout` (no answer
   * within `timeoutMs`: the shop's client gives up first; 11 s, past the adapter's 10 s). With
   * `customer`, only a charge of that customer fails (other buyers' renewals may share the pass).
   * https://docs.stripe.com/error-handling#error-types, https://docs.stripe.com/rate-limits
   */
  failNextCharge(how: ChargeFailure, options: { customer?: string; timeoutMs?: number } = {}): void {
    this.chargeFailures.push({ how, customer: options.customer, timeoutMs: options.timeoutMs ?? 11_000 });
  }

  /** The failure queued for this charge request, taken off the queue; undefined when it goes through. */
  private takeChargeFailure(params: Record<string, unknown>): { how: ChargeFailure; timeoutMs: number } | undefined {
    const index = this.chargeFailures.findIndex((failure) => failure.customer === undefined || failure.customer === params.customer);
    return index < 0 ? undefined : this.chargeFailures.splice(index, 1)[0];
  }

  /** Stripe's answer to a charge failed as `how` (not for `timeout`, which gets none). */
  private static chargeFailureAnswer(how: Exclude<ChargeFailure, 'timeout'>): { status: number; body: unknown } {
    const error =
      how === 'invalid_request'
        ? { status: 400, body: { type: 'invalid_request_error', message: 'This request could not be processed: the shop sent something Stripe refuses.' } }
        : how === 'rate_limit'
          ? {
              status: 429,
              body: {
                type: 'invalid_request_error',
                code: 'rate_limit',
                message: 'Too many requests hit the API too quickly. We recommend an exponential backoff of your requests.',
              },
            }
          : { status: 500, body: { type: 'api_error', message: 'Sorry, something went wrong. We have already been notified of the problem.' } };
    return { status: error.status, body: { error: error.body } };
  }

  /** The off-session charge requests (`POST /v1/payment_intents`) received, in order. */
  get chargeRequests(): FakeStripeRequest[] {
    return this.log.filter((entry) => entry.method === 'POST' && entry.path === '/v1/payment_intents');
  }

  /** The next API request is answered only after `ms` (for client timeouts); nothing is done meanwhile, or at all when the client gave up. */
  delayNext(ms: number): void {
    this.queueDelay(ms);
  }

  /** The next API request waits, before any work, until the function answered is called. */
  holdNext(): () => void {
    let letGo!: () => void;
    this.gates.push(new Promise<void>((resolve) => (letGo = resolve)));
    return letGo;
  }

  /**
   * The next API request that does its work (a refund made, a session created) has its answer held
   * back `ms`: a client timeout then leaves the work done at Stripe and unknown to the client, and
   * only its Idempotency-Key makes a retry safe.
   */
  delayAnswerNext(ms: number): void {
    this.lateAnswers.push(ms);
  }

  session(id: string): FakeStripeSession {
    const session = this.sessions.get(id);
    if (!session) throw new Error(`FakeStripe has no session ${id}`);
    return session;
  }

  /** The buyer completes Checkout. `unpaid` is a delayed method (e.g. a bank debit) still in progress. */
  pay(sessionId: string, options: { paymentStatus?: 'paid' | 'unpaid'; card?: FakeStripeCardInput } = {}): FakeStripeSession {
    const session = this.session(sessionId);
    if (session.status !== 'open') throw new Error(`Session ${sessionId} is ${session.status}`);
    if (session.mode === 'setup') {
      // A setup-mode session saves a card on its customer; no money moves.
      const method = this.saveCard(session.customer!, options.card);
      const setup = {
        id: `seti_${randomBytes(12).toString('hex')}`,
        object: 'setup_intent' as const,
        customer: session.customer!,
        payment_method: method.id,
        status: 'succeeded' as const,
        usage: 'off_session' as const,
      };
      this.setupIntents.set(setup.id, setup);
      session.status = 'complete';
      session.payment_status = 'no_payment_required';
      session.setup_intent = setup.id;
      session.url = null;
      return session;
    }
    session.status = 'complete';
    session.payment_status = options.paymentStatus ?? 'paid';
    session.payment_intent = `pi_${randomBytes(12).toString('hex')}`;
    session.url = null;
    const intentData = (session.payment_intent_data_input ?? {}) as { metadata?: Record<string, string> };
    const chargeId = `ch_${randomBytes(12).toString('hex')}`;
    this.payments.set(session.payment_intent, {
      id: session.payment_intent,
      chargeId,
      card: fakeCard(options.card),
      sessionId,
      amount: session.amount_total,
      currency: session.currency,
      metadata: { ...(intentData.metadata ?? {}) },
      amountRefunded: 0,
      refunds: [],
    });
    const saves = (intentData as { setup_future_usage?: string }).setup_future_usage === 'off_session' && session.customer;
    const method = saves ? this.saveCard(session.customer!, options.card) : undefined;
    this.intents.set(session.payment_intent, {
      id: session.payment_intent,
      object: 'payment_intent',
      amount: session.amount_total,
      amount_received: session.payment_status === 'paid' ? session.amount_total : 0,
      currency: session.currency,
      customer: session.customer,
      payment_method: method?.id ?? `pm_${randomBytes(12).toString('hex')}`,
      latest_charge: chargeId,
      status: session.payment_status === 'paid' ? 'succeeded' : 'processing',
      off_session: false,
      metadata: { ...(intentData.metadata ?? {}) },
      description: null,
      last_payment_error: null,
      created: nowSeconds(),
      livemode: false,
    });
    return session;
  }

  /** A card saved on a customer (a PaymentMethod attached to it). */
  private saveCard(customer: string, card: FakeStripeCardInput = {}): FakeStripePaymentMethod {
    if (!this.customers.has(customer)) throw new Error(`FakeStripe has no customer ${customer}`);
    const method: FakeStripePaymentMethod = {
      id: `pm_${randomBytes(12).toString('hex')}`,
      object: 'payment_method',
      type: 'card',
      customer,
      card: fakeCard(card),
      created: nowSeconds(),
    };
    this.paymentMethods.set(method.id, method);
    return method;
  }

  /** What the next charges of a saved card do, in order (the last stays): e.g. cardBehaves(pm, 'decline', 'succeed'). */
  cardBehaves(paymentMethodId: string, ...outcomes: CardBehaviour[]): void {
    if (!this.paymentMethods.has(paymentMethodId)) throw new Error(`FakeStripe has no payment method ${paymentMethodId}`);
    this.behaviours.set(paymentMethodId, outcomes);
  }

  /** The card saved on a customer, newest first. */
  cardsOf(customer: string): FakeStripePaymentMethod[] {
    return [...this.paymentMethods.values()].filter((method) => method.customer === customer).reverse();
  }

  /** Off-session PaymentIntents that took money (what the buyer's statement shows). */
  offSessionCharges(): FakeStripePaymentIntent[] {
    return [...this.intents.values()].filter((intent) => intent.off_session && intent.status === 'succeeded');
  }

  /** The buyer confirms an off-session PaymentIntent that needed authentication (their bank's page). */
  buyerAuthenticates(paymentIntent: string): FakeStripePaymentIntent {
    const intent = this.intent(paymentIntent);
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    intent.last_payment_error = null;
    return intent;
  }

  intent(id: string): FakeStripePaymentIntent {
    const intent = this.intents.get(id);
    if (!intent) throw new Error(`FakeStripe has no payment intent ${id}`);
    return intent;
  }

  /** A signed `payment_intent.*` event carrying the PaymentIntent as it is now. */
  paymentIntentWebhook(
    paymentIntent: string,
    type: 'payment_intent.succeeded' | 'payment_intent.payment_failed',
    options: SignedDeliveryOptions = {},
  ): FakeStripeDelivery {
    return this.signedDelivery(type, { ...this.intent(paymentIntent) }, 'amount', options);
  }

  /** A paid session's money by its PaymentIntent id. */
  payment(paymentIntent: string): FakeStripePayment {
    const payment = this.payments.get(paymentIntent);
    if (!payment) throw new Error(`FakeStripe has no payment intent ${paymentIntent}`);
    return payment;
  }

  /** Someone refunds in Stripe's dashboard (no API call of ours): default all that is left. */
  dashboardRefund(paymentIntent: string, amount?: number): FakeStripeRefund {
    const payment = this.payment(paymentIntent);
    return this.refund(payment, { amount: String(amount ?? payment.amount - payment.amountRefunded), reason: 'requested_by_customer' });
  }

  /** A pending refund finishes: `succeeded`, or `failed` (its amount counts as not refunded again, as at Stripe). */
  settleRefund(refundId: string, status: 'succeeded' | 'failed' | 'canceled', failureReason = 'lost_or_stolen_card'): FakeStripeRefund {
    for (const payment of this.payments.values()) {
      const refund = payment.refunds.find((candidate) => candidate.id === refundId);
      if (!refund) continue;
      if (refund.status !== 'pending' && refund.status !== 'requires_action') throw new Error(`Refund ${refundId} is ${refund.status}`);
      refund.status = status;
      if (status !== 'succeeded') {
        payment.amountRefunded -= refund.amount;
        if (status === 'failed') refund.failure_reason = failureReason;
      }
      return refund;
    }
    throw new Error(`FakeStripe has no refund ${refundId}`);
  }

  /** The PaymentIntent's Charge as Stripe shows it in `charge.*` events. */
  charge(paymentIntent: string): Record<string, unknown> {
    const payment = this.payment(paymentIntent);
    return {
      id: payment.chargeId,
      object: 'charge',
      amount: payment.amount,
      amount_captured: payment.amount,
      amount_refunded: payment.amountRefunded,
      captured: true,
      created: nowSeconds(),
      currency: payment.currency,
      disputed: payment.dispute !== undefined,
      livemode: false,
      metadata: {},
      paid: true,
      payment_intent: payment.id,
      // https://docs.stripe.com/api/charges/object#charge_object-payment_method_details-card
      payment_method_details: { type: 'card', card: { ...payment.card } },
      refunded: payment.amountRefunded >= payment.amount,
      status: 'succeeded',
    };
  }

  /** A delayed payment settles later (goes with `checkout.session.async_payment_succeeded`). */
  settle(sessionId: string): FakeStripeSession {
    const session = this.session(sessionId);
    session.payment_status = 'paid';
    return session;
  }

  /** The session times out unpaid (goes with `checkout.session.expired`). */
  expire(sessionId: string): FakeStripeSession {
    const session = this.session(sessionId);
    if (session.status !== 'open') throw new Error(`Session ${sessionId} is ${session.status}`);
    session.status = 'expired';
    session.url = null;
    return session;
  }

  /** Builds a signed webhook delivery of `type` carrying the session as it is now. */
  webhook(sessionId: string, type: string, options: WebhookOptions = {}): FakeStripeDelivery {
    const { line_items_input: _inputs, payment_intent_data_input: _intent, ...snapshot } = { ...this.session(sessionId), ...options.session };
    return this.signedDelivery(type, snapshot, 'amount_total', options);
  }

  /**
   * `charge.refunded` for a paid session's PaymentIntent: its Charge with the cumulative
   * `amount_refunded` as the fake knows it (after our refund or `dashboardRefund`), or as given.
   */
  chargeRefundedWebhook(paymentIntent: string, options: ChargeRefundedWebhookOptions = {}): FakeStripeDelivery {
    const charge = { ...this.charge(paymentIntent), ...options.charge };
    if (options.amountRefunded !== undefined) {
      charge.amount_refunded = options.amountRefunded;
      charge.refunded = options.amountRefunded >= this.payment(paymentIntent).amount;
    }
    return this.signedDelivery('charge.refunded', charge, 'amount_refunded', options);
  }

  /**
   * `charge.refund.updated` (or another Refund event) for one refund as the fake knows it now: a
   * pending refund that `settleRefund` made succeeded or failed.
   */
  refundUpdatedWebhook(refundId: string, options: SignedDeliveryOptions & { type?: string } = {}): FakeStripeDelivery {
    for (const payment of this.payments.values()) {
      const refund = payment.refunds.find((candidate) => candidate.id === refundId);
      if (refund) return this.signedDelivery(options.type ?? 'charge.refund.updated', { ...refund }, 'amount', options);
    }
    throw new Error(`FakeStripe has no refund ${refundId}`);
  }

  /**
   * A `charge.dispute.*` event for a paid session's PaymentIntent. The fake keeps one dispute per
   * PaymentIntent: the first call makes it, later ones (closed…) carry it with the status given.
   */
  disputeWebhook(paymentIntent: string, type: DisputeEventType, options: DisputeWebhookOptions = {}): FakeStripeDelivery {
    const payment = this.payment(paymentIntent);
    if (type === 'charge.dispute.closed' && !options.status && !payment.dispute) throw new Error('Say how the dispute closed: { status: "won" | "lost" | … }');
    const dispute: FakeStripeDispute = payment.dispute ?? {
      id: options.disputeId ?? `du_${randomBytes(12).toString('hex')}`,
      object: 'dispute',
      amount: payment.amount,
      currency: payment.currency,
      charge: payment.chargeId,
      payment_intent: payment.id,
      reason: 'fraudulent',
      status: 'needs_response',
      created: nowSeconds(),
      livemode: false,
    };
    if (options.disputeId) dispute.id = options.disputeId;
    if (options.amount !== undefined) dispute.amount = options.amount;
    if (options.status) dispute.status = options.status;
    payment.dispute = dispute;
    return this.signedDelivery(type, { ...dispute, ...options.dispute }, 'amount', options);
  }

  /** An event around `object`, signed like Stripe's; `tamper` raises `amountField` by one after signing. */
  private signedDelivery(type: string, object: object, amountField: string, options: SignedDeliveryOptions): FakeStripeDelivery {
    const event = {
      id: options.eventId ?? `evt_${randomBytes(12).toString('hex')}`,
      object: 'event',
      api_version: API_VERSION,
      created: nowSeconds(),
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    let body = JSON.stringify(event, null, 2);
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload: body,
      secret: options.secret ?? this.webhookSecret,
      timestamp: options.timestamp ?? nowSeconds(),
    });
    if (options.tamper) {
      const tampered = body.replace(new RegExp(`"${amountField}": (\\d+)`), (_match, value: string) => `"${amountField}": ${Number(value) + 1}`);
      if (tampered === body) throw new Error(`FakeStripe cannot tamper with an event without "${amountField}"`);
      body = tampered;
    }
    return {
      body,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': signature,
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      },
      event: { id: event.id, type },
    };
  }

  /** POSTs a delivery to our webhook endpoint, as Stripe does. */
  deliver(url: string, delivery: FakeStripeDelivery): Promise<{ status: number; body: string }> {
    return this.post(url, delivery);
  }

  protected override answerCrash(res: ServerResponse): void {
    sendJsonAnswer(res, 500, { error: { type: 'api_error', message: 'fake failure' } });
  }

  protected override async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { method, url, rawBody } = await this.readRequest(req);

    const page = /^\/pay\/([\w-]+)$/.exec(url.pathname);
    if (page) {
      this.requests.page += 1;
      return this.payPage(method, page[1], new URLSearchParams(rawBody), res);
    }

    const route = this.route(method, url.pathname);
    this.requests[route.endpoint] += 1;
    const params = method === 'GET' ? parseStripeForm(url.search.slice(1)) : parseStripeForm(rawBody);
    const requestId = `req_${randomBytes(7).toString('hex')}`;
    this.log.push({ method, path: url.pathname, headers: { ...req.headers } as Record<string, string | undefined>, rawBody, params, requestId });
    const sendJson = (target: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
      sendJsonAnswer(target, status, body, { 'request-id': requestId, ...headers });

    if (!(await this.waitQueuedDelay(res))) return;
    const gate = this.gates.shift();
    if (gate) await gate;
    const chargeFailure = route.endpoint === 'intent' && method === 'POST' ? this.takeChargeFailure(params) : undefined;
    if (chargeFailure?.how === 'timeout') {
      // No answer before the client gives up, and nothing done.
      if (!(await this.hold(chargeFailure.timeoutMs, res))) return;
    } else if (chargeFailure) {
      const answer = FakeStripe.chargeFailureAnswer(chargeFailure.how);
      return sendJson(res, answer.status, answer.body);
    }
    const failure = this.takeFailure(route.endpoint) ?? this.takeFailure();
    if (failure) return sendJson(res, failure.status, failure.body);

    try {
      this.authenticate(req.headers.authorization);
      if (route.endpoint === 'other')
        throw new StripeApiError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${url.pathname}).` });
      // A parameter the API reference of this version does not have is refused, whatever else the
      // request says: https://docs.stripe.com/error-codes#parameter-unknown ("The request contains
      // one or more unexpected parameters"). The reference: stripe-reference.ts.
      const endpoint = stripeEndpointOf(method, url.pathname);
      const unknown = endpoint ? unknownParameters(endpoint, params) : [];
      if (unknown.length > 0) throw invalid(`Received unknown parameter: ${unknown[0]}`, unknown[0], 'parameter_unknown');
      if (method === 'POST') {
        // An idempotency key answers its first request again; used with other parameters it is
        // refused (400 idempotency_error), and results of requests that failed validation are not
        // kept: https://docs.stripe.com/api/idempotent_requests,
        // https://docs.stripe.com/error-low-level#idempotency
        const key = req.headers['idempotency-key'];
        if (typeof key === 'string') {
          const stored = this.idempotency.get(key);
          if (stored) {
            if (stored.rawBody !== rawBody || stored.path !== url.pathname) {
              throw new StripeApiError(400, {
                type: 'idempotency_error',
                message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
              });
            }
            return sendJson(res, stored.status, stored.body, { 'idempotent-replayed': 'true' });
          }
        }
        const { status, body } = this.execute(route, params);
        if (typeof key === 'string') this.idempotency.set(key, { rawBody, path: url.pathname, status, body });
        return await this.answerDone(res, status, body, requestId);
      }
      // A read does no work: a held-back answer is for the next request that does (another
      // process's reconcile or refund list must not take it).
      const { status, body } = this.execute(route, params);
      return sendJson(res, status, body);
    } catch (error) {
      if (error instanceof StripeApiError) return sendJson(res, error.status, { error: error.body });
      throw error;
    }
  }

  /** The answer to work done, held back first when a test asked for it (delayAnswerNext). */
  private async answerDone(res: ServerResponse, status: number, body: unknown, requestId: string): Promise<void> {
    const late = this.lateAnswers.shift();
    if (late !== undefined && !(await this.hold(late, res))) return;
    sendJsonAnswer(res, status, body, { 'request-id': requestId });
  }

  private route(method: string, path: string): { endpoint: Endpoint; id?: string } {
    if (method === 'POST' && path === '/v1/checkout/sessions') return { endpoint: 'create' };
    if (method === 'POST' && path === '/v1/customers') return { endpoint: 'customer' };
    if (method === 'POST' && path === '/v1/payment_intents') return { endpoint: 'intent' };
    const intent = /^\/v1\/payment_intents\/([\w-]+)$/.exec(path);
    if (method === 'GET' && intent) return { endpoint: 'intent_retrieve', id: intent[1] };
    if (method === 'POST' && path === '/v1/refunds') return { endpoint: 'refund' };
    if (method === 'GET' && path === '/v1/refunds') return { endpoint: 'listRefunds' };
    const one = /^\/v1\/checkout\/sessions\/([\w-]+)$/.exec(path);
    if (method === 'GET' && one) return { endpoint: 'retrieve', id: one[1] };
    const expire = /^\/v1\/checkout\/sessions\/([\w-]+)\/expire$/.exec(path);
    if (method === 'POST' && expire) return { endpoint: 'expire', id: expire[1] };
    return { endpoint: 'other' };
  }

  private authenticate(header: string | undefined): void {
    let key: string | undefined;
    const bearer = /^Bearer (\S+)$/i.exec(header ?? '');
    const basic = /^Basic (\S+)$/i.exec(header ?? '');
    if (bearer) key = bearer[1];
    else if (basic) key = Buffer.from(basic[1], 'base64').toString('utf8').split(':')[0];
    if (!key) {
      throw new StripeApiError(401, {
        type: 'invalid_request_error',
        message:
          "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
      });
    }
    if (key !== this.secretKey) {
      throw new StripeApiError(401, {
        type: 'invalid_request_error',
        code: 'api_key_invalid',
        message: `Invalid API Key provided: ${key.slice(0, 8)}****${key.slice(-4)}`,
      });
    }
  }

  private execute(route: { endpoint: Endpoint; id?: string }, params: Record<string, unknown>): { status: number; body: unknown } {
    if (route.endpoint === 'create') return { status: 200, body: this.publicView(this.create(params)) };
    if (route.endpoint === 'customer') return { status: 200, body: this.createCustomer(params) };
    if (route.endpoint === 'intent') return this.createIntent(params);
    if (route.endpoint === 'intent_retrieve') {
      const intent = this.intents.get(route.id ?? '');
      if (!intent) {
        throw new StripeApiError(404, {
          type: 'invalid_request_error',
          code: 'resource_missing',
          param: 'intent',
          message: `No such payment_intent: '${route.id}'`,
        });
      }
      const expand = Array.isArray(params.expand) ? (params.expand as string[]) : [];
      return {
        status: 200,
        body: {
          ...intent,
          ...(expand.includes('payment_method') && intent.payment_method
            ? { payment_method: this.paymentMethods.get(intent.payment_method) ?? intent.payment_method }
            : {}),
          ...(expand.includes('latest_charge') && intent.latest_charge && this.payments.has(intent.id) ? { latest_charge: this.charge(intent.id) } : {}),
        },
      };
    }
    if (route.endpoint === 'refund') return { status: 200, body: this.createRefund(params) };
    if (route.endpoint === 'listRefunds') {
      // GET /v1/refunds?payment_intent=pi_…: newest first, as Stripe lists them.
      const payment = this.payments.get(String(params.payment_intent ?? ''));
      const data = payment ? [...payment.refunds].reverse() : [];
      return { status: 200, body: { object: 'list', data, has_more: false, url: '/v1/refunds' } };
    }
    const session = this.sessions.get(route.id ?? '');
    if (!session) {
      throw new StripeApiError(404, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'session',
        message: `No such checkout.session: '${route.id}'`,
      });
    }
    if (route.endpoint === 'expire') {
      // https://docs.stripe.com/api/checkout/sessions/expire: "A Checkout Session can be expired when
      // it is in one of these statuses: open. After it expires, a customer can't complete a Checkout
      // Session and customers loading the Checkout Session see a message saying the Checkout Session
      // is expired." Any other status (complete, expired) is refused with invalid_request_error.
      if (session.status !== 'open') {
        throw invalid(`Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`);
      }
      this.expire(session.id);
    }
    const expand = Array.isArray(params.expand) ? (params.expand as string[]) : [];
    if (expand.includes('setup_intent.payment_method') && session.setup_intent) {
      const setup = this.setupIntents.get(session.setup_intent)!;
      return { status: 200, body: { ...this.publicView(session), setup_intent: { ...setup, payment_method: this.paymentMethods.get(setup.payment_method) } } };
    }
    return { status: 200, body: this.publicView(session) };
  }

  /** `POST /v1/customers`. */
  private createCustomer(params: Record<string, unknown>) {
    const customer = {
      id: `cus_${randomBytes(7).toString('hex')}`,
      object: 'customer' as const,
      email: typeof params.email === 'string' ? params.email : null,
      metadata: { ...((params.metadata ?? {}) as Record<string, string>) },
      created: nowSeconds(),
    };
    this.customers.set(customer.id, customer);
    return customer;
  }

  /**
   * `POST /v1/payment_intents` with `confirm=true` (and `off_session=true`) on a saved card: the
   * card's behaviour decides. Declines are Stripe's 402 card_error carrying the PaymentIntent.
   */
  private createIntent(params: Record<string, unknown>): { status: number; body: unknown } {
    const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
    const amount = text(params.amount);
    if (!amount || !/^\d+$/.test(amount) || Number(amount) < 1) throw invalid('Invalid integer: amount', 'amount');
    const currency = text(params.currency);
    if (!currency || !CURRENCIES.has(currency)) throw invalid(`Invalid currency: ${currency}`, 'currency');
    if (Number(amount) < (STRIPE_MINIMUM_CHARGE[currency] ?? 0)) throw tooSmall(currency, 'intent');
    const customer = text(params.customer);
    if (customer && !this.customers.has(customer))
      throw new StripeApiError(400, { type: 'invalid_request_error', code: 'resource_missing', param: 'customer', message: `No such customer: '${customer}'` });
    const methodId = text(params.payment_method);
    const method = methodId ? this.paymentMethods.get(methodId) : undefined;
    if (methodId && !method)
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'payment_method',
        message: `No such PaymentMethod: '${methodId}'`,
      });
    // A PaymentMethod attached to a Customer is used only with that Customer:
    // https://docs.stripe.com/api/payment_intents/create#create_payment_intent-payment_method
    // ("…the PaymentMethod must be attached to the same Customer as the PaymentIntent").
    if (method && method.customer !== customer) {
      throw invalid(
        `The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment, or belongs to another Customer.`,
        'payment_method',
      );
    }
    const offSession = text(params.off_session) === 'true';
    if (offSession && text(params.confirm) !== 'true') throw invalid('off_session can only be used with confirm=true.', 'off_session');
    // Since API version 2023-08-16 a PaymentIntent without a list of payment method types has
    // automatic payment methods on, and confirming one needs `return_url` unless
    // `automatic_payment_methods[allow_redirects]=never`: https://docs.stripe.com/upgrades#2023-08-16,
    // https://docs.stripe.com/api/payment_intents/create#create_payment_intent-return_url,
    // https://docs.stripe.com/payments/save-and-reuse#charge-saved-payment-method (which passes return_url).
    const automatic = (params.automatic_payment_methods ?? {}) as Record<string, unknown>;
    const automaticOn = text(automatic.enabled) !== 'false' && params.allowed_payment_method_types === undefined;
    if (text(params.confirm) === 'true' && automaticOn && !text(params.return_url) && text(automatic.allow_redirects) !== 'never') {
      throw invalid(
        "This PaymentIntent is configured to accept payment methods enabled in your Dashboard, because automatic_payment_methods[enabled] is set to true. Some of these payment methods may redirect your customer off of your page. You must provide a return_url when confirming this PaymentIntent, or set automatic_payment_methods[allow_redirects] to 'never'.",
        'return_url',
      );
    }
    const intent: FakeStripePaymentIntent = {
      id: `pi_${randomBytes(12).toString('hex')}`,
      object: 'payment_intent',
      amount: Number(amount),
      amount_received: 0,
      currency,
      customer: customer ?? null,
      payment_method: methodId ?? null,
      latest_charge: null,
      status: 'requires_payment_method',
      off_session: offSession,
      metadata: { ...((params.metadata ?? {}) as Record<string, string>) },
      description: text(params.description) ?? null,
      last_payment_error: null,
      created: nowSeconds(),
      livemode: false,
    };
    this.intents.set(intent.id, intent);
    if (text(params.confirm) !== 'true' || !method) return { status: 200, body: intent };
    const queue = this.behaviours.get(method.id) ?? [];
    const behaviour = (queue.length > 1 ? queue.shift() : queue[0]) ?? 'succeed';
    if (behaviour === 'succeed') {
      intent.status = 'succeeded';
      intent.amount_received = intent.amount;
      intent.latest_charge = `ch_${randomBytes(12).toString('hex')}`;
      // Its money, for refunds and disputes, as a paid session's.
      this.payments.set(intent.id, {
        id: intent.id,
        chargeId: intent.latest_charge,
        card: { ...method.card },
        sessionId: '',
        amount: intent.amount,
        currency,
        metadata: intent.metadata,
        amountRefunded: 0,
        refunds: [],
      });
      return { status: 200, body: intent };
    }
    if (behaviour === 'requires_action') {
      intent.status = 'requires_action';
      return { status: 200, body: intent };
    }
    const code = behaviour === 'decline' ? 'card_declined' : 'authentication_required';
    const declineCode = behaviour === 'decline' ? 'insufficient_funds' : 'authentication_required';
    const message = behaviour === 'decline' ? 'Your card has insufficient funds.' : 'Your card was declined. This transaction requires authentication.';
    intent.last_payment_error = { type: 'card_error', code, decline_code: declineCode, message, payment_method: method };
    return {
      status: 402,
      body: { error: { type: 'card_error', code, decline_code: declineCode, message, payment_intent: { ...intent }, payment_method: method } },
    };
  }

  private create(params: Record<string, unknown>): FakeStripeSession {
    const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
    const mode = text(params.mode);
    if (!mode) throw invalid('Missing required param: mode.', 'mode');
    if (!['payment', 'subscription', 'setup'].includes(mode)) throw invalid(`Invalid mode: must be one of payment, setup, or subscription`, 'mode');
    const items = params.line_items;
    const customer = text(params.customer);
    if (customer && !this.customers.has(customer)) throw invalid(`No such customer: '${customer}'`, 'customer', 'resource_missing');
    if (customer && text(params.customer_email)) throw invalid('You may only specify one of these parameters: customer, customer_email.', 'customer_email');
    if (mode === 'setup' && !customer) throw invalid('A customer is needed to save a card in setup mode here.', 'customer');
    if (mode === 'setup' && !text(params.currency)) throw invalid('currency is required in setup mode when payment_method_types is not passed.', 'currency');
    const intentData = (params.payment_intent_data ?? {}) as Record<string, unknown>;
    if (intentData.setup_future_usage !== undefined && !['off_session', 'on_session'].includes(String(intentData.setup_future_usage))) {
      throw invalid('Invalid payment_intent_data[setup_future_usage]', 'payment_intent_data[setup_future_usage]');
    }
    if (mode === 'payment' && (!Array.isArray(items) || items.length === 0)) {
      throw invalid('You must provide at least one recurring price in `subscription` mode or at least one line item in `payment` mode.', 'line_items');
    }
    let total = 0;
    let currency: string | undefined;
    (Array.isArray(items) ? (items as Array<Record<string, unknown>>) : []).forEach((item, i) => {
      const quantity = text(item.quantity);
      if (!quantity || !/^\d+$/.test(quantity) || Number(quantity) < 1) throw invalid('Invalid integer: quantity', `line_items[${i}][quantity]`);
      const priceData = item.price_data as Record<string, unknown> | undefined;
      if (!priceData) throw invalid('You must specify either `price` or `price_data`.', `line_items[${i}]`);
      const itemCurrency = text(priceData.currency);
      if (!itemCurrency || itemCurrency !== itemCurrency.toLowerCase() || !CURRENCIES.has(itemCurrency)) {
        throw invalid(
          `Invalid currency: ${itemCurrency}. Stripe currently supports these currencies: ${[...CURRENCIES].join(', ')}`,
          `line_items[${i}][price_data][currency]`,
        );
      }
      if (currency && currency !== itemCurrency) throw invalid('All line items must use the same currency.', `line_items[${i}][price_data][currency]`);
      currency = itemCurrency;
      const unitAmount = text(priceData.unit_amount);
      if (!unitAmount || !/^\d+$/.test(unitAmount)) throw invalid('Invalid integer: unit_amount', `line_items[${i}][price_data][unit_amount]`);
      const productData = priceData.product_data as Record<string, unknown> | undefined;
      if (!text(productData?.name))
        throw invalid('Missing required param: line_items[0][price_data][product_data][name].', `line_items[${i}][price_data][product_data][name]`);
      total += Number(unitAmount) * Number(quantity);
    });
    if (mode === 'payment' && currency && total < (STRIPE_MINIMUM_CHARGE[currency] ?? 0)) throw tooSmall(currency, 'session');
    if (currency === 'krw' && total < 100) throw invalid("The Checkout Session's total amount due must add up to at least ₩100 krw", 'line_items');
    const metadata = (params.metadata ?? {}) as Record<string, string>;
    for (const [key, value] of Object.entries(metadata)) {
      if (key.length > 40 || String(value).length > 500)
        throw invalid('Metadata keys are limited to 40 characters and values to 500 characters.', `metadata[${key}]`);
    }
    const locale = text(params.locale);
    if (locale && !LOCALES.has(locale)) throw invalid(`Invalid locale: ${locale}`, 'locale');
    const created = nowSeconds();
    const expiresAtRaw = text(params.expires_at);
    let expiresAt = created + 24 * 3600;
    if (expiresAtRaw !== undefined) {
      expiresAt = Number(expiresAtRaw);
      if (!Number.isInteger(expiresAt) || expiresAt < created + 30 * 60 || expiresAt > created + 24 * 3600) {
        throw invalid('The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.', 'expires_at');
      }
    }
    const successUrl = text(params.success_url) ?? null;
    if (successUrl && !/^https?:\/\//.test(successUrl)) throw invalid('Not a valid URL', 'success_url');
    const id = `cs_test_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'a')}`;
    const session: FakeStripeSession = {
      id,
      object: 'checkout.session',
      url: `${this.baseUrl}/pay/${id}`,
      status: 'open',
      payment_status: 'unpaid',
      mode,
      currency: currency ?? text(params.currency) ?? 'eur',
      amount_subtotal: total,
      amount_total: total,
      client_reference_id: text(params.client_reference_id) ?? null,
      metadata,
      customer_email: text(params.customer_email) ?? null,
      success_url: successUrl,
      cancel_url: text(params.cancel_url) ?? null,
      expires_at: expiresAt,
      created,
      livemode: false,
      locale: locale ?? null,
      payment_intent: null,
      customer: customer ?? null,
      setup_intent: null,
      line_items_input: (items ?? []) as Array<Record<string, unknown>>,
      payment_intent_data_input: (params.payment_intent_data ?? undefined) as Record<string, unknown> | undefined,
    };
    this.sessions.set(id, session);
    return session;
  }

  /** `POST /v1/refunds` on a PaymentIntent (or its charge), as Stripe checks it. */
  private createRefund(params: Record<string, unknown>): FakeStripeRefund {
    const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
    const paymentIntent = text(params.payment_intent);
    const chargeId = text(params.charge);
    if ((paymentIntent === undefined) === (chargeId === undefined)) throw invalid('You must pass exactly one of charge or payment_intent.');
    const payment = paymentIntent !== undefined ? this.payments.get(paymentIntent) : [...this.payments.values()].find((p) => p.chargeId === chargeId);
    if (!payment) {
      const [param, id] = paymentIntent !== undefined ? ['payment_intent', paymentIntent] : ['charge', chargeId];
      throw new StripeApiError(404, { type: 'invalid_request_error', code: 'resource_missing', param, message: `No such ${param}: '${id}'` });
    }
    // An off-session PaymentIntent (a renewal charge) has no session: it is here only once it succeeded.
    if (payment.sessionId && this.session(payment.sessionId).payment_status !== 'paid') {
      throw invalid(`This PaymentIntent (${payment.id}) does not have a successful charge to refund.`, 'payment_intent', 'charge_not_refundable');
    }
    return this.refund(payment, params);
  }

  /** Records a refund on a payment (from the API or the dashboard), refusing more than is left the way Stripe does. */
  private refund(payment: FakeStripePayment, params: Record<string, unknown>): FakeStripeRefund {
    const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
    const left = payment.amount - payment.amountRefunded;
    const amountRaw = text(params.amount);
    if (amountRaw !== undefined && !/^\d+$/.test(amountRaw)) throw invalid('Invalid integer: amount', 'amount');
    const amount = amountRaw === undefined ? left : Number(amountRaw);
    if (amountRaw !== undefined && amount < 1) throw invalid('Invalid positive integer', 'amount');
    if (left <= 0) throw invalid(`Charge ${payment.chargeId} has already been refunded.`, undefined, 'charge_already_refunded');
    if (amount > left) {
      const show = (value: number) => (ZERO_DECIMAL.has(payment.currency) ? String(value) : (value / 100).toFixed(2));
      throw invalid(
        `Refund amount (${show(amount)} ${payment.currency}) is greater than unrefunded amount on charge (${show(left)} ${payment.currency})`,
        'amount',
        'amount_too_large',
      );
    }
    const reason = text(params.reason) ?? null;
    if (reason !== null && !['duplicate', 'fraudulent', 'requested_by_customer'].includes(reason)) {
      throw invalid('Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer', 'reason');
    }
    const refund: FakeStripeRefund = {
      id: `re_${randomBytes(12).toString('hex')}`,
      object: 'refund',
      amount,
      currency: payment.currency,
      charge: payment.chargeId,
      payment_intent: payment.id,
      reason,
      metadata: { ...((params.metadata ?? {}) as Record<string, string>) },
      status: this.refundStatus,
      created: nowSeconds(),
    };
    payment.refunds.push(refund);
    // Stripe counts a refund as soon as it exists; a failed one is given back (settleRefund).
    payment.amountRefunded += amount;
    return refund;
  }

  private publicView(session: FakeStripeSession): Omit<FakeStripeSession, 'line_items_input' | 'payment_intent_data_input'> {
    const { line_items_input: _inputs, payment_intent_data_input: _intent, ...view } = session;
    return view;
  }

  /** The hosted page: GET shows it, POST `action=pay|cancel` finishes it and redirects like Stripe. */
  private async payPage(method: string, id: string, form: URLSearchParams, res: ServerResponse): Promise<void> {
    const session = this.sessions.get(id);
    if (!session || session.status !== 'open') return sendText(res, 404, '<p>This Checkout Session is no longer available.</p>');
    if (method === 'GET') {
      const amount = ZERO_DECIMAL.has(session.currency) ? String(session.amount_total) : (session.amount_total / 100).toFixed(2);
      return sendText(
        res,
        200,
        `<!doctype html><title>Fake Stripe Checkout</title><h1>Pay ${escapeHtml(amount)} ${session.currency.toUpperCase()}</h1>
<form method="post"><button name="action" value="pay" data-testid="stripe-pay">Pay</button><button name="action" value="cancel" data-testid="stripe-cancel">Back</button></form>`,
      );
    }
    if (form.get('action') === 'cancel') {
      res.writeHead(303, { location: session.cancel_url ?? '/' });
      return void res.end();
    }
    this.pay(id);
    if (this.webhookUrl) await this.deliver(this.webhookUrl, this.webhook(id, 'checkout.session.completed'));
    res.writeHead(303, { location: (session.success_url ?? '/').replace('{CHECKOUT_SESSION_ID}', id) });
    res.end();
  }
}

export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const stripe = new FakeStripe(options);
  await stripe.start();
  return stripe;
}
