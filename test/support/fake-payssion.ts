/**
 * A local stand-in for Payssion (protocols.md section 3): a real HTTP server on 127.0.0.1 with
 * `/api/v1/payment/create` (checks api_key, pm_id, amount, currency, URLs and
 * `api_sig = md5(api_key|pm_id|amount|currency|order_id|secret_key)`; a second payment for the same
 * order_id is refused with result_code 413 "Repeated order"), `/api/v1/payment/details`
 * (`api_sig = md5(api_key|transaction_id|order_id|secret_key)`, the official SDK form), and a pay
 * page. Payssion answers errors with HTTP 200, a `result_code` other than 200 and a `description`.
 *
 *   const payssion = new FakePayssion();                // payssion.apiKey, payssion.secretKey
 *   const { baseUrl } = await payssion.start();         // PAYSSION_API_BASE = `${baseUrl}/api/v1`
 *   // … the adapter creates a payment (providerReference = transaction_id); the buyer pays:
 *   payssion.setState(transactionId, 'completed');
 *   await payssion.deliver('http://127.0.0.1:3000/api/webhook/payssion', payssion.notification(transactionId));
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LocalHttpServer, sendText } from './local-http-server.js';

export interface FakePayssionOptions {
  apiKey?: string;
  secretKey?: string;
  /** Also accept `md5(api_key|order_id|secret_key)` on payment/details when there is no transaction id (a third-party variant). Default false. */
  acceptShortDetailsSig?: boolean;
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

type Endpoint = 'create' | 'details' | 'page' | 'other';

export interface FakePayssionRequest {
  path: string;
  contentType: string;
  rawBody: string;
  params: Record<string, string>;
}

export const PAYSSION_KOREAN_PM_IDS = ['kakaopay_kr', 'samsungpay_kr', 'creditcard_kr', 'ebanking_kr', 'payco_kr', 'ssgpay_kr'];
const PM_IDS = new Set([...PAYSSION_KOREAN_PM_IDS, 'payssion_test']);
const CURRENCIES = new Set(['KRW', 'USD', 'EUR', 'CNY', 'JPY']);

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
  readonly requests: Record<Endpoint, number> = { create: 0, details: 0, page: 0, other: 0 };
  /** Every API request, in order. */
  readonly log: FakePayssionRequest[] = [];
  /** Transactions by transaction_id. */
  readonly transactions = new Map<string, FakePayssionTransaction>();

  constructor(options: FakePayssionOptions = {}) {
    super('FakePayssion');
    this.apiKey = options.apiKey ?? `live_${randomBytes(8).toString('hex')}`;
    this.secretKey = options.secretKey ?? randomBytes(16).toString('hex');
    this.acceptShortDetailsSig = options.acceptShortDetailsSig ?? false;
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

  /** The next API request is answered with this HTTP status (default 500). */
  failNext(status = 500, body = '<html><body><h1>500 Internal Server Error</h1></body></html>'): void {
    this.queueFailure({ status, body });
  }

  /** The next API request is answered only after `ms`. */
  delayNext(ms: number): void {
    this.queueDelay(ms);
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
    const endpoint: Endpoint = url.pathname === '/api/v1/payment/create' ? 'create' : url.pathname === '/api/v1/payment/details' ? 'details' : 'other';
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
    if (!p.api_sig || p.api_sig.toLowerCase() !== md5([p.api_key, p.pm_id, p.amount, p.currency, p.order_id, this.secretKey]))
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
    const sdkForm = md5([p.api_key, p.transaction_id, p.order_id, this.secretKey]);
    const shortForm = !p.transaction_id && this.acceptShortDetailsSig ? md5([p.api_key, p.order_id, this.secretKey]) : undefined;
    if (sig !== sdkForm && sig !== shortForm) return fail(402, 'invalid api signature');
    const transaction = p.transaction_id ? this.transactions.get(p.transaction_id) : this.byOrderId(p.order_id);
    if (!transaction || (p.order_id && transaction.order_id !== p.order_id)) return fail(412, 'invalid transaction id');
    const { return_url: _r, notify_url: _n, payer_email: _e, description: _d, ...view } = transaction;
    sendJson(res, { result_code: 200, transaction: { ...view, fee: '0.00', created: Math.floor(Date.now() / 1000) } });
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
