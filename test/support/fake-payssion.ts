/**
 * A local stand-in for Payssion (protocols.md section 3): a real HTTP server on 127.0.0.1 with
 * `/api/v1/payment/create` (checks api_key, pm_id, amount, currency, URLs and
 * `api_sig = md5(api_key|pm_id|amount|currency|order_id|secret_key)`; a second payment for the same
 * order_id is refused with result_code 413 "Repeated order"), `/api/v1/payment/details`
 * (`api_sig = md5(api_key|transaction_id|order_id|secret_key)`, the official SDK form),
 * `/api/v1/refunds` (`api_sig = md5(api_key|transaction_id|amount|currency|secret_key)`; only a
 * completed payment, never more than is left of it), and a pay page. Payssion answers errors with
 * HTTP 200, a `result_code` other than 200 and a `description`.
 *
 *   const payssion = new FakePayssion();                // payssion.apiKey, payssion.secretKey
 *   const { baseUrl } = await payssion.start();         // PAYSSION_API_BASE = `${baseUrl}/api/v1`
 *   // … the adapter creates a payment (providerReference = transaction_id); the buyer pays:
 *   payssion.setState(transactionId, 'completed');
 *   await payssion.deliver('http://127.0.0.1:3000/api/webhook/payssion', payssion.notification(transactionId));
 *   // money going back: after our refund call (or `payssion.dashboardRefund(transactionId)`), and a chargeback:
 *   await payssion.deliver(url, payssion.refundedNotification(transactionId));
 *   await payssion.deliver(url, payssion.chargebackNotification(transactionId));
 *
 * Each API request is first held against Payssion's reference for its endpoint
 * (provider-references.ts, which cites the documents): a required parameter missing or one the
 * reference does not have is refused with result_code 400 "invalid parameter", a signature not made
 * by the documented formula with 402 "invalid api signature".
 *
 * Knobs: failNext(status) and delayNext(ms) act on the next API request (refunds too), before any
 * work; delayAnswerNext(ms) makes the next refund and then holds its answer back; `refundState`
 * ('refunded' by default, or 'refund_pending') is what a new refund answers.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LocalHttpServer, sendText } from './local-http-server.js';
import { PAYSSION_REFERENCE, referenceProblems, type PayssionEndpoint } from './provider-references.js';

export interface FakePayssionOptions {
  apiKey?: string;
  secretKey?: string;
  /** Also accept `md5(api_key|order_id|secret_key)` on payment/details when there is no transaction id (a third-party variant). Default false. */
  acceptShortDetailsSig?: boolean;
  /** The state a new refund answers: 'refunded' (default) or 'refund_pending' (the bank is still at it). */
  refundState?: 'refunded' | 'refund_pending';
}

/** One refund the fake made on a transaction. */
export interface FakePayssionRefund {
  /** Payssion's id of the refund. */
  transaction_id: string;
  /** The refunded payment's transaction_id. */
  parent_transaction_id: string;
  /** As posted, e.g. "15000" or "10.50". */
  amount: string;
  currency: string;
  state: 'refunded' | 'refund_pending';
  /** False for a refund made in Payssion's dashboard (no API call). */
  viaApi: boolean;
}

export type PayssionState =
  | 'pending'
  | 'completed'
  | 'paid_partial'
  | 'paid_more'
  | 'awaiting_confirm'
  | 'failed'
  | 'cancelled'
  | 'cancelled_by_user'
  | 'rejected_by_bank'
  | 'expired'
  | 'error'
  | 'refunded'
  | 'refund_pending'
  | 'refund_failed'
  | 'chargeback';

export interface FakePayssionTransaction {
  transaction_id: string;
  order_id: string;
  pm_id: string;
  amount: string;
  currency: string;
  description?: string;
  return_url?: string;
  notify_url?: string;
  payer_email?: string;
  state: PayssionState;
  paid: string;
  /** Refunds made on it, oldest first. */
  refunds: FakePayssionRefund[];
}

export interface FakePayssionNotification {
  body: string;
  headers: Record<string, string>;
  fields: Record<string, string>;
}

export interface PayssionNotificationOptions {
  /** Default: the transaction's current state. */
  state?: PayssionState | string;
  /** A genuine, signed notification for another amount string (e.g. "15000.00" or "9000"). */
  amount?: string;
  /** Sign with a wrong secret. */
  forgeSig?: boolean;
  /** Fields changed after signing. */
  tamper?: Record<string, string>;
  /** Post JSON instead of a form. */
  json?: boolean;
}

/** For the money-back builders: the same as a notification's, with a default amount. */
export type PayssionMoneyBackOptions = Omit<PayssionNotificationOptions, 'state'> & {
  /** The refund the notification is about (default the last one made): its own transaction_id is posted. */
  refund?: FakePayssionRefund;
};

type Endpoint = 'create' | 'details' | 'refund' | 'page' | 'other';

export interface FakePayssionRequest {
  path: string;
  contentType: string;
  rawBody: string;
  params: Record<string, string>;
}

export const PAYSSION_KOREAN_PM_IDS = ['kakaopay_kr', 'samsungpay_kr', 'creditcard_kr', 'ebanking_kr', 'payco_kr', 'ssgpay_kr'];
const PM_IDS = new Set([...PAYSSION_KOREAN_PM_IDS, 'payssion_test']);
const CURRENCIES = new Set(['KRW', 'USD', 'EUR', 'CNY', 'JPY']);

const ENDPOINTS: Record<string, Endpoint | undefined> = {
  '/api/v1/payment/create': 'create',
  '/api/v1/payment/details': 'details',
  '/api/v1/refunds': 'refund',
};

/** What has been refunded on a transaction, in major units. */
function refundedSum(transaction: FakePayssionTransaction): number {
  return transaction.refunds.reduce((sum, refund) => sum + Number(refund.amount), 0);
}

/** A major-unit amount written like `example` ("15000" → whole won, "10.50" → two decimals). */
function formatLike(example: string, value: number): string {
  const decimals = example.includes('.') ? example.split('.')[1].length : 0;
  return value.toFixed(decimals);
}

/** md5 of the `|`-joined parts, computed here independently of the adapter. */
function md5(parts: Array<string | undefined>): string {
  return createHash('md5')
    .update(parts.map((part) => part ?? '').join('|'))
    .digest('hex');
}

function sendJson(res: ServerResponse, body: unknown, status = 200): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export class FakePayssion extends LocalHttpServer<string> {
  readonly apiKey: string;
  readonly secretKey: string;
  acceptShortDetailsSig: boolean;
  refundState: 'refunded' | 'refund_pending';
  readonly requests: Record<Endpoint, number> = { create: 0, details: 0, refund: 0, page: 0, other: 0 };
  /** Every API request, in order. */
  readonly log: FakePayssionRequest[] = [];
  /** Transactions by transaction_id. */
  readonly transactions = new Map<string, FakePayssionTransaction>();
  private readonly lateAnswers: number[] = [];

  constructor(options: FakePayssionOptions = {}) {
    super('FakePayssion');
    this.apiKey = options.apiKey ?? `live_${randomBytes(8).toString('hex')}`;
    this.secretKey = options.secretKey ?? randomBytes(16).toString('hex');
    this.acceptShortDetailsSig = options.acceptShortDetailsSig ?? false;
    this.refundState = options.refundState ?? 'refunded';
  }

  /** The configuration that points the shop at this server. */
  get env(): Record<string, string> {
    return { PAYSSION_API_KEY: this.apiKey, PAYSSION_SECRET_KEY: this.secretKey, PAYSSION_API_BASE: this.apiBase };
  }

  /** What PAYSSION_API_BASE should be. */
  get apiBase(): string {
    return `${this.baseUrl}/api/v1`;
  }

  get lastCreate(): FakePayssionRequest | undefined {
    return [...this.log].reverse().find((entry) => entry.path === '/api/v1/payment/create');
  }

  get lastRefund(): FakePayssionRequest | undefined {
    return [...this.log].reverse().find((entry) => entry.path === '/api/v1/refunds');
  }

  /** The next API request is answered with this HTTP status (default 500). */
  failNext(status = 500, body = '<html><body><h1>500 Internal Server Error</h1></body></html>'): void {
    this.queueFailure({ status, body });
  }

  /** The next API request is answered only after `ms`; nothing is done meanwhile, or at all when the client gave up. */
  delayNext(ms: number): void {
    this.queueDelay(ms);
  }

  /**
   * The next refund is made, and its answer held back `ms`: a client timeout then leaves a refund at
   * Payssion that the shop does not know about (Payssion has no idempotency key to ask again with).
   */
  delayAnswerNext(ms: number): void {
    this.lateAnswers.push(ms);
  }

  transaction(transactionId: string): FakePayssionTransaction {
    const transaction = this.transactions.get(transactionId);
    if (!transaction) throw new Error(`FakePayssion has no transaction ${transactionId}`);
    return transaction;
  }

  /** The transaction for one of our order ids. */
  byOrderId(orderId: string): FakePayssionTransaction | undefined {
    return [...this.transactions.values()].find((transaction) => transaction.order_id === orderId);
  }

  /** What Payssion's own records say now (what payment/details answers). */
  setState(transactionId: string, state: PayssionState): FakePayssionTransaction {
    const transaction = this.transaction(transactionId);
    transaction.state = state;
    transaction.paid = state === 'completed' || state === 'paid_more' || state === 'refunded' ? transaction.amount : '0';
    return transaction;
  }

  /** Builds a notification for a transaction, as Payssion posts it to notify_url. */
  notification(transactionId: string, options: PayssionNotificationOptions = {}): FakePayssionNotification {
    const t = this.transaction(transactionId);
    const state = options.state ?? t.state;
    const amount = options.amount ?? t.amount;
    const fields: Record<string, string> = {
      app_name: 'subshare',
      pm_id: t.pm_id,
      transaction_id: t.transaction_id,
      order_id: t.order_id,
      amount,
      paid: state === 'completed' ? amount : '0',
      fee: '0.00',
      currency: t.currency,
      state,
      notify_sig: md5([this.apiKey, t.pm_id, amount, t.currency, t.order_id, state, options.forgeSig ? `${this.secretKey}-forged` : this.secretKey]),
    };
    Object.assign(fields, options.tamper ?? {});
    return options.json
      ? { body: JSON.stringify(fields), headers: { 'content-type': 'application/json' }, fields }
      : { body: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' }, fields };
  }

  /**
   * The signed `refunded` notification Payssion posts after a refund. Its amount: the last refund's
   * as it was posted (our call or `dashboardRefund`), else the whole payment; or `amount` as given.
   */
  refundedNotification(transactionId: string, options: PayssionMoneyBackOptions = {}): FakePayssionNotification {
    const t = this.transaction(transactionId);
    const { refund = t.refunds.at(-1), ...rest } = options;
    // A refund is a transaction of its own at Payssion (the refunds call answers its transaction_id):
    // its notification carries that id, unsigned like every transaction_id (issue 34) [?].
    return this.notification(transactionId, {
      ...rest,
      state: 'refunded',
      amount: options.amount ?? refund?.amount ?? t.amount,
      tamper: { ...(refund ? { transaction_id: refund.transaction_id } : {}), ...rest.tamper },
    });
  }

  /** The buyer's bank took the money back: Payssion's records say `chargeback`, and it posts that, signed, for the whole amount (or `amount`). */
  chargebackNotification(transactionId: string, options: PayssionMoneyBackOptions = {}): FakePayssionNotification {
    const t = this.transaction(transactionId);
    t.state = 'chargeback';
    const { refund: _refund, ...rest } = options;
    return this.notification(transactionId, { ...rest, state: 'chargeback', amount: options.amount ?? t.amount });
  }

  /** Someone refunds in Payssion's dashboard (no API call of ours): default all that is left. */
  dashboardRefund(transactionId: string, amount?: string): FakePayssionRefund {
    const t = this.transaction(transactionId);
    const refund = this.refund(t, amount ?? formatLike(t.amount, Number(t.amount) - refundedSum(t)), false);
    if (typeof refund === 'string') throw new Error(`FakePayssion cannot refund ${transactionId}: ${refund}`);
    return refund;
  }

  /** POSTs a notification to our notify URL. */
  deliver(url: string, notification: FakePayssionNotification): Promise<{ status: number; body: string }> {
    return this.post(url, notification);
  }

  protected override async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { method, url, contentType, rawBody } = await this.readRequest(req);

    const page = /^\/pay\/([\w-]+)$/.exec(url.pathname);
    if (page) {
      this.requests.page += 1;
      return this.payPage(method, page[1], new URLSearchParams(rawBody), res);
    }
    const endpoint: Endpoint = (Object.hasOwn(ENDPOINTS, url.pathname) ? ENDPOINTS[url.pathname] : undefined) ?? 'other';
    this.requests[endpoint] += 1;
    let params: Record<string, string>;
    if (/json/i.test(contentType)) {
      try {
        params = Object.fromEntries(Object.entries(JSON.parse(rawBody) as Record<string, unknown>).map(([key, value]) => [key, String(value)]));
      } catch {
        params = {};
      }
    } else {
      params = Object.fromEntries(new URLSearchParams(rawBody));
    }
    this.log.push({ path: url.pathname, contentType, rawBody, params });

    if (!(await this.waitQueuedDelay(res))) return;
    const failure = this.takeFailure();
    if (failure) return sendText(res, failure.status, failure.body);
    if (endpoint === 'other') return sendText(res, 404, '<h1>404 Not Found</h1>');
    if (method !== 'POST') return sendJson(res, { result_code: 420, description: 'invalid request method' });
    const documented: PayssionEndpoint = endpoint === 'create' ? 'payment/create' : endpoint === 'details' ? 'payment/details' : 'refunds';
    // The signature is checked by each endpoint below (402), after the merchant's key (401), as Payssion's result codes order them.
    const invalid = referenceProblems(PAYSSION_REFERENCE[documented], params, this.secretKey).filter((problem) => !problem.startsWith('bad '));
    if (invalid.length > 0) return sendJson(res, { result_code: 400, description: `invalid parameter: ${invalid.join(', ')}` });
    if (endpoint === 'refund') return this.refundCall(params, res);
    return endpoint === 'create' ? this.create(params, res) : this.details(params, res);
  }

  private create(p: Record<string, string>, res: ServerResponse): void {
    const fail = (code: number, description: string) => sendJson(res, { result_code: code, description });
    if (!p.api_key || p.api_key !== this.apiKey) return fail(401, 'invalid api_key');
    if (!p.pm_id || !PM_IDS.has(p.pm_id)) return fail(405, 'invalid payment method');
    if (!p.currency || !CURRENCIES.has(p.currency)) return fail(406, 'invalid currency');
    if (!p.amount || !/^\d+(\.\d{1,2})?$/.test(p.amount) || Number(p.amount) <= 0 || (p.currency === 'KRW' && !/^\d+$/.test(p.amount)))
      return fail(407, 'invalid amount');
    if (!p.order_id) return fail(400, 'invalid parameter: order_id');
    if (!p.api_sig || p.api_sig.toLowerCase() !== PAYSSION_REFERENCE['payment/create'].signature.expected(p, this.secretKey))
      return fail(402, 'invalid api signature');
    for (const field of ['return_url', 'notify_url']) {
      if (p[field] !== undefined && !/^https?:\/\/\S+$/.test(p[field])) return fail(409, `invalid url: ${field}`);
    }
    if (this.byOrderId(p.order_id)) return fail(413, 'Repeated order');
    const transactionId = `T${Date.now()}${randomInt(100000, 999999)}`;
    const transaction: FakePayssionTransaction = {
      transaction_id: transactionId,
      order_id: p.order_id,
      pm_id: p.pm_id,
      amount: p.amount,
      currency: p.currency,
      description: p.description,
      return_url: p.return_url,
      notify_url: p.notify_url,
      payer_email: p.payer_email,
      state: 'pending',
      paid: '0',
      refunds: [],
    };
    this.transactions.set(transactionId, transaction);
    sendJson(res, {
      result_code: 200,
      todo: 'redirect',
      redirect_url: `${this.baseUrl}/pay/${transactionId}`,
      transaction: { transaction_id: transactionId, state: 'pending', order_id: p.order_id, pm_id: p.pm_id, amount: p.amount, currency: p.currency },
    });
  }

  private details(p: Record<string, string>, res: ServerResponse): void {
    const fail = (code: number, description: string) => sendJson(res, { result_code: code, description });
    if (!p.api_key || p.api_key !== this.apiKey) return fail(401, 'invalid api_key');
    if (!p.transaction_id && !p.order_id) return fail(400, 'invalid parameter: transaction_id or order_id');
    const sig = (p.api_sig ?? '').toLowerCase();
    const sdkForm = PAYSSION_REFERENCE['payment/details'].signature.expected(p, this.secretKey);
    const shortForm = !p.transaction_id && this.acceptShortDetailsSig ? md5([p.api_key, p.order_id, this.secretKey]) : undefined;
    if (sig !== sdkForm && sig !== shortForm) return fail(402, 'invalid api signature');
    const transaction = p.transaction_id ? this.transactions.get(p.transaction_id) : this.byOrderId(p.order_id);
    if (!transaction || (p.order_id && transaction.order_id !== p.order_id)) return fail(412, 'invalid transaction id');
    const { return_url: _r, notify_url: _n, payer_email: _e, description: _d, refunds: _f, ...view } = transaction;
    sendJson(res, { result_code: 200, transaction: { ...view, fee: '0.00', created: Math.floor(Date.now() / 1000) } });
  }

  /** `refunds` (3.3): our signed call to give (part of) a completed payment back. */
  private async refundCall(p: Record<string, string>, res: ServerResponse): Promise<void> {
    const fail = (code: number, description: string) => sendJson(res, { result_code: code, description });
    if (!p.api_key || p.api_key !== this.apiKey) return fail(401, 'invalid api_key');
    if (!p.transaction_id) return fail(400, 'invalid parameter: transaction_id');
    if (!p.amount || !/^\d+(\.\d{1,2})?$/.test(p.amount) || Number(p.amount) <= 0) return fail(407, 'invalid amount');
    if (!p.currency || !CURRENCIES.has(p.currency)) return fail(406, 'invalid currency');
    if (!p.api_sig || p.api_sig.toLowerCase() !== PAYSSION_REFERENCE.refunds.signature.expected(p, this.secretKey)) return fail(402, 'invalid api signature');
    const transaction = this.transactions.get(p.transaction_id);
    if (!transaction) return fail(412, 'invalid transaction id');
    if (p.currency !== transaction.currency) return fail(406, 'invalid currency: not the currency of the payment');
    const refund = this.refund(transaction, p.amount, true);
    if (typeof refund === 'string') return fail(refund === 'not refundable' ? 400 : 407, refund);
    const late = this.lateAnswers.shift();
    if (late !== undefined && !(await this.hold(late, res))) return;
    const { viaApi: _v, ...view } = refund;
    sendJson(res, { result_code: 200, refund: { ...view, order_id: transaction.order_id, created: Math.floor(Date.now() / 1000) } });
  }

  /** Records a refund, or says why not: only a completed (or partly refunded) payment, never more than is left. */
  private refund(transaction: FakePayssionTransaction, amount: string, viaApi: boolean): FakePayssionRefund | string {
    if (!['completed', 'paid_more', 'refunded', 'refund_pending'].includes(transaction.state)) return 'not refundable';
    const left = Number(transaction.amount) - refundedSum(transaction);
    if (left <= 0) return 'not refundable';
    if (Number(amount) > left + 1e-9) return `invalid amount: more than the ${formatLike(transaction.amount, left)} ${transaction.currency} left to refund`;
    const refund: FakePayssionRefund = {
      transaction_id: `R${Date.now()}${randomInt(100000, 999999)}`,
      parent_transaction_id: transaction.transaction_id,
      amount,
      currency: transaction.currency,
      state: this.refundState,
      viaApi,
    };
    transaction.refunds.push(refund);
    // What payment/details answers from now on: refunded once nothing is left.
    const whole = refundedSum(transaction) >= Number(transaction.amount) - 1e-9;
    transaction.state = this.refundState === 'refund_pending' ? 'refund_pending' : whole ? 'refunded' : transaction.state;
    return refund;
  }

  /** GET shows the page; POST `action=pay|cancel` settles the transaction, notifies, and returns the buyer like Payssion. */
  private async payPage(method: string, transactionId: string, form: URLSearchParams, res: ServerResponse): Promise<void> {
    const transaction = this.transactions.get(transactionId);
    if (!transaction) return sendText(res, 404, '<p>Transaction not found</p>');
    if (method === 'GET') {
      return sendText(
        res,
        200,
        `<!doctype html><title>Fake Payssion</title><h1>${escapeHtml(transaction.pm_id)}: ${escapeHtml(transaction.amount)} ${escapeHtml(transaction.currency)}</h1>
<form method="post"><button name="action" value="pay" data-testid="payssion-pay">Pay</button><button name="action" value="cancel" data-testid="payssion-cancel">Cancel</button></form>`,
      );
    }
    this.setState(transactionId, form.get('action') === 'cancel' ? 'cancelled_by_user' : 'completed');
    if (transaction.notify_url) await this.deliver(transaction.notify_url, this.notification(transactionId)).catch(() => undefined);
    const back = new URL(transaction.return_url ?? `${this.baseUrl}/`);
    // Payssion adds its own parameters to return_url [P]; ours stay (a name may then appear twice).
    back.searchParams.append('transaction_id', transaction.transaction_id);
    back.searchParams.append('order_id', transaction.order_id);
    res.writeHead(303, { location: back.toString() });
    res.end();
  }
}

export async function startFakePayssion(options: FakePayssionOptions = {}): Promise<FakePayssion> {
  const payssion = new FakePayssion(options);
  await payssion.start();
  return payssion;
}
