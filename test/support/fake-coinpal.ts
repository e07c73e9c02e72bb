/**
 * A local stand-in for CoinPal (protocols.md section 2): a real HTTP server on 127.0.0.1 with
 * `/gateway/pay/checkout` (checks the request against CoinPal's reference, provider-references.ts:
 * a required field missing or an unknown one is a param error, a `sign` not made by the documented
 * formula "signature verification failed"; keeps the payment, answers like the SDK example),
 * `/gateway/pay/query` (`gcid` only, as the official SDK sends it → the payment's fields, like a
 * notification), and a cashier page. Bodies are accepted form-encoded, as JSON or as multipart
 * form data, as the official clients send them. CoinPal answers errors with HTTP 200 and a
 * `respCode` other than 200.
 *
 *   const coinpal = new FakeCoinPal();                  // coinpal.merchantNo, coinpal.secretKey
 *   const { baseUrl } = await coinpal.start();          // COINPAL_API_BASE = baseUrl
 *   // … the adapter creates a payment (providerReference = CoinPal's `reference`); the buyer pays:
 *   coinpal.setStatus(reference, 'paid');
 *   await coinpal.deliver('http://127.0.0.1:3000/api/webhook/coinpal', coinpal.notification(reference));
 *
 * The notification's sign covers requestId, merchantNo, orderNo, orderAmount and orderCurrency
 * only: `notification(ref, { status: 'paid' })` is validly signed whatever the real status is.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LocalHttpServer, sendText } from './local-http-server.js';
import { COINPAL_REFERENCE, referenceProblems } from './provider-references.js';

export interface FakeCoinPalOptions {
  merchantNo?: string;
  secretKey?: string;
  /** Order currencies CoinPal takes (KRW support is not verified [?]; on by default). */
  currencies?: string[];
}

export type CoinPalStatus =
  | 'created'
  | 'unpaid'
  | 'pending'
  | 'paid_confirming'
  | 'partial_paid_confirming'
  | 'partial_paid'
  | 'paid'
  | 'failed'
  | 'cancelled'
  | 'expired'
  | 'refunding'
  | 'refunded'
  // The buyer's side took the money back; the issue names it (issue 34), CoinPal's public material
  // does not (protocols.md section 2.7 [?]).
  | 'chargeback';

export interface FakeCoinPalPayment {
  reference: string;
  requestId: string;
  merchantNo: string;
  orderNo: string;
  orderCurrencyType: string;
  orderCurrency: string;
  orderAmount: string;
  notifyURL: string;
  redirectURL?: string;
  payerIP: string;
  payerEmail?: string;
  orderDescription?: string;
  remark?: string;
  status: CoinPalStatus;
  paidOrderAmount: string;
  confirmedTime?: number;
}

/** A notification as CoinPal would post it. */
export interface FakeCoinPalNotification {
  body: string;
  headers: Record<string, string>;
  fields: Record<string, string>;
}

export interface CoinPalNotificationOptions {
  /** Default: the payment's current status. The sign does not cover it. */
  status?: CoinPalStatus | string;
  /** A genuine, signed notification for another amount (orderAmount, and paidOrderAmount when paid). */
  amount?: string;
  /** Sign with a wrong secret. */
  forgeSign?: boolean;
  /** Fields changed after signing. */
  tamper?: Record<string, string>;
  /** Post JSON (as the Wix plugin receives it) instead of a form. */
  json?: boolean;
}

type Endpoint = 'checkout' | 'query' | 'cashier' | 'other';

export interface FakeCoinPalRequest {
  path: string;
  contentType: string;
  rawBody: string;
  params: Record<string, string>;
}

/**
 * The documented sign (protocols.md 2.3), from the reference; a notification's sign has the same
 * formula over its own fields (2.6).
 */
function sign(secret: string, f: Partial<Record<string, string>>): string {
  return COINPAL_REFERENCE['gateway/pay/checkout'].signature.expected(f, secret);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Text fields of a multipart/form-data body (enough for what the PHP SDK's curl sends). */
function parseMultipart(raw: string, contentType: string): Record<string, string> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (!boundary) return {};
  const fields: Record<string, string> = {};
  for (const part of raw.split(`--${boundary[1] ?? boundary[2]}`)) {
    const match = /^\r\nContent-Disposition:\s*form-data;\s*name="([^"]+)"[^\r\n]*\r\n(?:[^\r\n]+\r\n)*\r\n([\s\S]*)\r\n$/i.exec(part);
    if (match) fields[match[1]] = match[2];
  }
  return fields;
}

function parseBody(raw: string, contentType: string): Record<string, string> {
  if (/multipart\/form-data/i.test(contentType)) return parseMultipart(raw, contentType);
  if (/json/i.test(contentType)) {
    try {
      const parsed = JSON.parse(raw) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(parsed ?? {}).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]));
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(raw));
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export class FakeCoinPal extends LocalHttpServer<string> {
  readonly merchantNo: string;
  readonly secretKey: string;
  readonly currencies: Set<string>;
  readonly requests: Record<Endpoint, number> = { checkout: 0, query: 0, cashier: 0, other: 0 };
  /** Every API request, in order. */
  readonly log: FakeCoinPalRequest[] = [];
  /** Payments by CoinPal reference. */
  readonly payments = new Map<string, FakeCoinPalPayment>();

  private readonly requestIds = new Set<string>();

  constructor(options: FakeCoinPalOptions = {}) {
    super('FakeCoinPal');
    this.merchantNo = options.merchantNo ?? String(100000 + Math.floor(Math.random() * 899999));
    this.secretKey = options.secretKey ?? randomBytes(16).toString('hex');
    this.currencies = new Set(options.currencies ?? ['USD', 'EUR', 'KRW', 'GBP', 'JPY', 'USDT', 'BTC', 'ETH']);
  }

  /** The configuration that points the shop at this server. */
  get env(): Record<string, string> {
    return { COINPAL_MERCHANT_NO: this.merchantNo, COINPAL_SECRET_KEY: this.secretKey, COINPAL_API_BASE: this.baseUrl };
  }

  /** The last checkout request. */
  get lastCheckout(): FakeCoinPalRequest | undefined {
    return [...this.log].reverse().find((entry) => entry.path === '/gateway/pay/checkout');
  }

  /** The next API request is answered with this HTTP status (default 500, an HTML error page like a gateway's). */
  failNext(status = 500, body = '<html><body><h1>500 Internal Server Error</h1></body></html>'): void {
    this.queueFailure({ status, body });
  }

  /** The next API request is answered only after `ms`. */
  delayNext(ms: number): void {
    this.queueDelay(ms);
  }

  payment(reference: string): FakeCoinPalPayment {
    const payment = this.payments.get(reference);
    if (!payment) throw new Error(`FakeCoinPal has no payment ${reference}`);
    return payment;
  }

  /** The payment for one of our order numbers (the last one, if several). */
  byOrderNo(orderNo: string): FakeCoinPalPayment | undefined {
    return [...this.payments.values()].reverse().find((payment) => payment.orderNo === orderNo);
  }

  /** What CoinPal's own records say now (what `/gateway/pay/query` answers). `paid` pays in full unless paidOrderAmount is given. */
  setStatus(reference: string, status: CoinPalStatus, options: { paidOrderAmount?: string } = {}): FakeCoinPalPayment {
    const payment = this.payment(reference);
    payment.status = status;
    payment.paidOrderAmount =
      options.paidOrderAmount ?? (status === 'paid' || status === 'refunded' || status === 'refunding' || status === 'chargeback' ? payment.orderAmount : '0');
    payment.confirmedTime ??= Math.floor(Date.now() / 1000);
    return payment;
  }

  /** The fields CoinPal reports for a payment (notification and query). */
  fields(reference: string): Record<string, string> {
    const p = this.payment(reference);
    const paid = p.paidOrderAmount !== '0';
    const fields: Record<string, string> = {
      version: '2',
      requestId: p.requestId,
      merchantNo: p.merchantNo,
      orderNo: p.orderNo,
      reference: p.reference,
      orderCurrency: p.orderCurrency,
      orderAmount: p.orderAmount,
      paidOrderAmount: p.paidOrderAmount,
      paymentMethod: 'crypto',
      selectedWallet: 'MetaMask',
      dueCurrency: 'USDT',
      dueAmount: p.orderAmount,
      network: 'TRC20',
      paidCurrency: paid ? 'USDT' : '',
      paidAmount: paid ? p.orderAmount : '0',
      paidUsdt: paid ? p.orderAmount : '0',
      paidAddress: paid ? `T${createHash('sha256').update(p.reference).digest('hex').slice(0, 33)}` : '',
      confirmedTime: paid ? String(p.confirmedTime ?? '') : '',
      status: p.status,
      remark: p.remark ?? '',
      unresolvedLabel: '',
    };
    fields.sign = sign(this.secretKey, fields);
    return fields;
  }

  /** Builds a notification for a payment, as CoinPal posts it to notifyURL. */
  notification(reference: string, options: CoinPalNotificationOptions = {}): FakeCoinPalNotification {
    const fields = this.fields(reference);
    if (options.status !== undefined) fields.status = options.status;
    if (options.amount !== undefined) {
      fields.orderAmount = options.amount;
      if (fields.paidOrderAmount !== '0') fields.paidOrderAmount = options.amount;
    }
    fields.sign = sign(options.forgeSign ? `${this.secretKey}-forged` : this.secretKey, fields);
    Object.assign(fields, options.tamper ?? {});
    return options.json
      ? { body: JSON.stringify(fields), headers: { 'content-type': 'application/json' }, fields }
      : { body: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' }, fields };
  }

  /** POSTs a notification to our notify URL. */
  deliver(url: string, notification: FakeCoinPalNotification): Promise<{ status: number; body: string }> {
    return this.post(url, notification);
  }

  protected override async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { method, url, contentType, rawBody } = await this.readRequest(req);

    const cashier = /^\/cashier\/([\w-]+)$/.exec(url.pathname);
    if (cashier) {
      this.requests.cashier += 1;
      return this.cashier(method, cashier[1], res);
    }
    const endpoint: Endpoint = url.pathname === '/gateway/pay/checkout' ? 'checkout' : url.pathname === '/gateway/pay/query' ? 'query' : 'other';
    this.requests[endpoint] += 1;
    const params = parseBody(rawBody, contentType);
    this.log.push({ path: url.pathname, contentType, rawBody, params });

    if (!(await this.waitQueuedDelay(res))) return;
    const failure = this.takeFailure();
    if (failure) return sendText(res, failure.status, failure.body);
    if (endpoint === 'other' || method !== 'POST') return sendText(res, 404, '<h1>404 Not Found</h1>');
    return endpoint === 'checkout' ? this.checkout(params, res) : this.query(params, res);
  }

  private checkout(params: Record<string, string>, res: ServerResponse): void {
    const fail = (respCode: number, respMessage: string) => sendJson(res, 200, { version: '2', requestId: params.requestId ?? '', respCode, respMessage });
    // The reference's parameters (provider-references.ts): a missing or unknown one is a param error; the sign is checked below.
    const invalid = referenceProblems(COINPAL_REFERENCE['gateway/pay/checkout'], params, this.secretKey).filter((problem) => !problem.startsWith('bad '));
    if (invalid.length > 0) return fail(400, `param error: ${invalid.join(', ')}`);
    if (params.version !== '2') return fail(400, 'param error: version');
    if (params.merchantNo !== this.merchantNo) return fail(401, 'merchant does not exist');
    if (params.sign.toLowerCase() !== sign(this.secretKey, params)) return fail(401, 'signature verification failed');
    if (!['fiat', 'crypto'].includes(params.orderCurrencyType)) return fail(400, 'param error: orderCurrencyType');
    if (!this.currencies.has(params.orderCurrency)) return fail(400, 'payment in this currency is not supported');
    if (!/^\d+(\.\d+)?$/.test(params.orderAmount) || Number(params.orderAmount) <= 0) return fail(400, 'param error: orderAmount');
    if (!/^https?:\/\//.test(params.notifyURL)) return fail(400, 'param error: notifyURL');
    if (this.requestIds.has(params.requestId)) return fail(400, 'requestId repeated');
    this.requestIds.add(params.requestId);

    const reference = `CWS${Date.now()}${randomBytes(4).toString('hex').toUpperCase()}`;
    this.payments.set(reference, {
      reference,
      requestId: params.requestId,
      merchantNo: params.merchantNo,
      orderNo: params.orderNo,
      orderCurrencyType: params.orderCurrencyType,
      orderCurrency: params.orderCurrency,
      orderAmount: params.orderAmount,
      notifyURL: params.notifyURL,
      redirectURL: params.redirectURL,
      payerIP: params.payerIP,
      payerEmail: params.payerEmail,
      orderDescription: params.orderDescription,
      remark: params.remark,
      status: 'unpaid',
      paidOrderAmount: '0',
    });
    sendJson(res, 200, {
      version: '2',
      requestId: params.requestId,
      merchantNo: params.merchantNo,
      orderNo: params.orderNo,
      reference,
      orderCurrency: params.orderCurrency,
      orderAmount: params.orderAmount,
      nextStep: 'redirect',
      nextStepContent: `${this.baseUrl}/cashier/${reference}`,
      status: 'created',
      respCode: 200,
      respMessage: 'success',
      remark: params.remark ?? '',
    });
  }

  private query(params: Record<string, string>, res: ServerResponse): void {
    // The official SDK's query: `gcid` only (provider-references.ts).
    const invalid = referenceProblems(COINPAL_REFERENCE['gateway/pay/query'], params, this.secretKey);
    if (invalid.length > 0) return sendJson(res, 200, { respCode: 400, respMessage: `param error: ${invalid.join(', ')}` });
    const reference = params.gcid;
    if (!this.payments.has(reference)) return sendJson(res, 200, { respCode: 404, respMessage: 'order does not exist' });
    sendJson(res, 200, { ...this.fields(reference), respCode: 200, respMessage: 'success' });
  }

  /** The cashier: GET shows it; POST `action=pay` pays in full and notifies, then redirects like CoinPal. */
  private async cashier(method: string, reference: string, res: ServerResponse): Promise<void> {
    const payment = this.payments.get(reference);
    if (!payment) return sendText(res, 404, '<p>Order not found</p>');
    if (method === 'GET') {
      return sendText(
        res,
        200,
        `<!doctype html><title>Fake CoinPal</title><h1>Pay ${escapeHtml(payment.orderAmount)} ${escapeHtml(payment.orderCurrency)}</h1>
<form method="post"><button name="action" value="pay" data-testid="coinpal-pay">Pay</button></form>`,
      );
    }
    this.setStatus(reference, 'paid');
    await this.deliver(payment.notifyURL, this.notification(reference)).catch(() => undefined);
    res.writeHead(303, { location: payment.redirectURL ?? '/' });
    res.end();
  }
}

export async function startFakeCoinPal(options: FakeCoinPalOptions = {}): Promise<FakeCoinPal> {
  const coinpal = new FakeCoinPal(options);
  await coinpal.start();
  return coinpal;
}
