/**
 * A local stand-in for Stripe Checkout (protocols.md section 1): a real HTTP server on 127.0.0.1
 * that speaks `/v1/checkout/sessions` the way the stripe SDK expects (form bodies with bracket
 * notation, Bearer or Basic auth with the secret key, JSON answers, Stripe's error shape,
 * Idempotency-Key replay), keeps sessions, hosts a pay page, and builds webhook deliveries signed
 * exactly like Stripe's (`Stripe-Signature: t=…,v1=HMAC-SHA256(secret, "t.body")`).
 *
 *   const stripe = new FakeStripe();                    // stripe.secretKey, stripe.webhookSecret
 *   const { baseUrl, stop } = await stripe.start();     // STRIPE_API_BASE = baseUrl
 *   // … the adapter creates a session; the buyer "pays":
 *   stripe.pay(sessionId);                              // or { paymentStatus: 'unpaid' } for a delayed method
 *   const delivery = stripe.webhook(sessionId, 'checkout.session.completed');
 *   await stripe.deliver('http://127.0.0.1:3000/api/webhook/stripe', delivery);
 *
 * Knobs: failNext(status) answers the next API request with an error (before any work is done,
 * so it is not stored against its Idempotency-Key), delayNext(ms) holds the next answer back.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Stripe from 'stripe';
import { LocalHttpServer, sendText } from './local-http-server.js';

export interface FakeStripeOptions {
  secretKey?: string;
  webhookSecret?: string;
  /** When set, a payment on the hosted pay page delivers `checkout.session.completed` here. */
  webhookUrl?: string;
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
  line_items_input: Array<Record<string, unknown>>;
}

/** A webhook delivery as Stripe would send it: the exact body and its headers. */
export interface FakeStripeDelivery {
  body: string;
  headers: Record<string, string>;
  event: { id: string; type: string };
}

export interface WebhookOptions {
  /** Unix seconds for `t=` (default now). */
  timestamp?: number;
  /** Sign with this secret instead of the endpoint's. */
  secret?: string;
  /** Change the body after signing (the signature no longer matches). */
  tamper?: boolean;
  /** Reuse an event id (Stripe redelivers the same event with the same id). */
  eventId?: string;
  /** Overrides applied to the session snapshot inside the event (before signing). */
  session?: Partial<FakeStripeSession>;
}

type Endpoint = 'create' | 'retrieve' | 'expire' | 'page' | 'other';

/** Recorded API request (for protocol assertions). */
export interface FakeStripeRequest {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  rawBody: string;
  params: Record<string, unknown>;
}

// Stripe's zero-decimal currencies (1.7): amounts are taken as they are.
const ZERO_DECIMAL = new Set(['bif', 'clp', 'djf', 'gnf', 'jpy', 'kmf', 'krw', 'mga', 'pyg', 'rwf', 'ugx', 'vnd', 'vuv', 'xaf', 'xof', 'xpf']);
const CURRENCIES = new Set(['eur', 'usd', 'gbp', ...ZERO_DECIMAL]);
const LOCALES = new Set(['auto', 'en', 'ko', 'ja', 'de', 'fr', 'es', 'it', 'nl', 'zh']);
const API_VERSION = '2026-10-28.endive';

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

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
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
  /** Requests received, by endpoint. */
  readonly requests: Record<Endpoint, number> = { create: 0, retrieve: 0, expire: 0, page: 0, other: 0 };
  /** Every API request, in order. */
  readonly log: FakeStripeRequest[] = [];
  readonly sessions = new Map<string, FakeStripeSession>();

  private readonly idempotency = new Map<string, { rawBody: string; path: string; status: number; body: unknown }>();

  constructor(options: FakeStripeOptions = {}) {
    super('FakeStripe');
    this.secretKey = options.secretKey ?? `sk_test_${randomBytes(12).toString('hex')}`;
    this.webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(16).toString('base64url')}`;
    this.webhookUrl = options.webhookUrl;
  }

  /** The configuration that points the shop at this server. */
  get env(): Record<string, string> {
    return { STRIPE_SECRET_KEY: this.secretKey, STRIPE_WEBHOOK_SECRET: this.webhookSecret, STRIPE_API_BASE: this.baseUrl };
  }

  /** The last session-create request. */
  get lastCreate(): FakeStripeRequest | undefined {
    return [...this.log].reverse().find((entry) => entry.method === 'POST' && entry.path === '/v1/checkout/sessions');
  }

  /** The next API request is answered with this status (default 500, Stripe's api_error shape). */
  failNext(status = 500, body: unknown = { error: { type: 'api_error', message: 'An unknown error occurred' } }): void {
    this.queueFailure({ status, body });
  }

  /** The next API request is answered only after `ms` (for client timeouts). */
  delayNext(ms: number): void {
    this.queueDelay(ms);
  }

  session(id: string): FakeStripeSession {
    const session = this.sessions.get(id);
    if (!session) throw new Error(`FakeStripe has no session ${id}`);
    return session;
  }

  /** The buyer completes Checkout. `unpaid` is a delayed method (e.g. a bank debit) still in progress. */
  pay(sessionId: string, options: { paymentStatus?: 'paid' | 'unpaid' } = {}): FakeStripeSession {
    const session = this.session(sessionId);
    if (session.status !== 'open') throw new Error(`Session ${sessionId} is ${session.status}`);
    session.status = 'complete';
    session.payment_status = options.paymentStatus ?? 'paid';
    session.payment_intent = `pi_${randomBytes(12).toString('hex')}`;
    session.url = null;
    return session;
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
    const { line_items_input: _inputs, ...snapshot } = { ...this.session(sessionId), ...options.session };
    const event = {
      id: options.eventId ?? `evt_${randomBytes(12).toString('hex')}`,
      object: 'event',
      api_version: API_VERSION,
      created: nowSeconds(),
      data: { object: snapshot },
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
    if (options.tamper) body = body.replace(`"amount_total": ${snapshot.amount_total}`, `"amount_total": ${snapshot.amount_total + 1}`);
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
    sendJson(res, 500, { error: { type: 'api_error', message: 'fake failure' } });
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
    this.log.push({ method, path: url.pathname, headers: { ...req.headers } as Record<string, string | undefined>, rawBody, params });

    if (!(await this.waitQueuedDelay(res))) return;
    const failure = this.takeFailure();
    if (failure) return sendJson(res, failure.status, failure.body);

    try {
      this.authenticate(req.headers.authorization);
      if (route.endpoint === 'other')
        throw new StripeApiError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${url.pathname}).` });
      if (method === 'POST') {
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
        return sendJson(res, status, body);
      }
      const { status, body } = this.execute(route, params);
      return sendJson(res, status, body);
    } catch (error) {
      if (error instanceof StripeApiError) return sendJson(res, error.status, { error: error.body });
      throw error;
    }
  }

  private route(method: string, path: string): { endpoint: Endpoint; id?: string } {
    if (method === 'POST' && path === '/v1/checkout/sessions') return { endpoint: 'create' };
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
      if (session.status !== 'open') {
        throw invalid(`Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`);
      }
      this.expire(session.id);
    }
    return { status: 200, body: this.publicView(session) };
  }

  private create(params: Record<string, unknown>): FakeStripeSession {
    const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
    const mode = text(params.mode);
    if (!mode) throw invalid('Missing required param: mode.', 'mode');
    if (!['payment', 'subscription', 'setup'].includes(mode)) throw invalid(`Invalid mode: must be one of payment, setup, or subscription`, 'mode');
    const items = params.line_items;
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
      currency: currency ?? 'eur',
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
      line_items_input: (items ?? []) as Array<Record<string, unknown>>,
    };
    this.sessions.set(id, session);
    return session;
  }

  private publicView(session: FakeStripeSession): Omit<FakeStripeSession, 'line_items_input'> {
    const { line_items_input: _inputs, ...view } = session;
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
