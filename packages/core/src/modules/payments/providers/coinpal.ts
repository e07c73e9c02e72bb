/**
 * Crypto payments (method 2) through CoinPal (protocols.md section 2). We post a signed form to
 * `/gateway/pay/checkout` and send the buyer to `nextStepContent`; CoinPal later posts a
 * notification to our notify URL.
 *
 * CoinPal's `sign` = sha256(secretKey + requestId + merchantNo + orderNo + orderAmount + orderCurrency)
 * does NOT cover `status`, CoinPal's `reference` or the paid amounts, so a notification only
 * tells us "something happened to the payment with this orderNo (our reference), whose amount
 * is orderAmount": every report from it has `needsConfirmation: true`, and the service finds the
 * payment by orderNo, checks the signed amount, and asks `/gateway/pay/query` (fetchStatus)
 * about the reference it stored before it moves money.
 *
 * COINPAL_API_BASE replaces `https://pay.coinpal.io`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { type Clock, SystemClock } from '../../../shared/clock.js';
import { type UnavailableError, ValidationError, fail } from '../../../shared/errors.js';
import { CURRENCIES, type Money, toMajorUnits } from '../../../shared/money.js';
import {
  type CheckoutRequest,
  type CheckoutSession,
  type IncomingNotification,
  type PaymentProvider,
  type PaymentReport,
  type ProviderStatus,
  SignatureError,
  notAtProvider,
  statusByTable,
} from './provider.js';
import { parseAmount, postForm, readFields, sameHex, text } from './wire.js';

export interface CoinPalProviderOptions {
  /** COINPAL_MERCHANT_NO */
  merchantNo: string;
  /** COINPAL_SECRET_KEY (the SDK's `apiKey`) */
  secretKey: string;
  /** COINPAL_API_BASE; default https://pay.coinpal.io */
  apiBase?: string;
  fetch?: typeof fetch;
  /** Per request. Default 10 s. */
  timeoutMs?: number;
  clock?: Clock;
}

export const COINPAL_DEFAULT_API_BASE = 'https://pay.coinpal.io';

/** The fields CoinPal's sign covers, exactly as sent or received. */
export interface CoinPalSignedFields {
  requestId: string;
  merchantNo: string;
  orderNo: string;
  orderAmount: string;
  orderCurrency: string;
}

/** protocols.md 2.3: lowercase hex SHA-256 of the plain concatenation, no separators. */
export function coinpalSign(secretKey: string, fields: CoinPalSignedFields): string {
  return createHash('sha256')
    .update(secretKey + fields.requestId + fields.merchantNo + fields.orderNo + fields.orderAmount + fields.orderCurrency, 'utf8')
    .digest('hex');
}

/** EUR 1050 → "10.50"; KRW 10000 → "10000". The string is signed, so it is made one way only. */
export function coinpalAmount(value: Money): string {
  return toMajorUnits(value).toFixed(CURRENCIES[value.currency].minorDigits);
}

/** CoinPal's statuses (2.7) in our words. Only `paid` is money. */
const COINPAL_STATUSES: Readonly<Record<string, ProviderStatus>> = {
  paid: 'paid',
  failed: 'failed',
  cancelled: 'failed',
  expired: 'expired',
  refunded: 'refunded',
  // The money was taken back from us: access ends as after a Stripe chargeback (issue 34).
  // Not in CoinPal's public material (protocols.md 2.7); confirmed, like every status, by the query API.
  chargeback: 'charged_back',
};

/** Anything else is `pending`: created, unpaid, pending, partial_paid, *_confirming, refunding, anything new. */
export function coinpalStatus(status: string | undefined): ProviderStatus {
  return statusByTable(COINPAL_STATUSES, status, 'pending');
}

function unavailable(cause?: unknown): UnavailableError {
  return fail('coinpal_unavailable', undefined, { cause: cause });
}

export class CoinPalProvider implements PaymentProvider {
  readonly name = 'coinpal' as const;
  readonly acknowledgement = { contentType: 'text/plain', body: 'success' };

  private readonly merchantNo: string;
  private readonly secretKey: string;
  private readonly base: string;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;
  private readonly clock: Clock;

  constructor(options: CoinPalProviderOptions) {
    if (!options.merchantNo || !options.secretKey) throw new TypeError('CoinPalProvider needs a merchant number and a secret key');
    this.merchantNo = options.merchantNo;
    this.secretKey = options.secretKey;
    this.base = (options.apiBase ?? COINPAL_DEFAULT_API_BASE).replace(/\/+$/, '');
    this.fetch = options.fetch ?? globalThis.fetch;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.clock = options.clock ?? new SystemClock();
  }

  async createCheckout(request: CheckoutRequest): Promise<CheckoutSession> {
    if (!Number.isSafeInteger(request.amount.amount) || request.amount.amount <= 0) throw new RangeError('A checkout needs a positive amount');
    const signed: CoinPalSignedFields = {
      requestId: `${request.reference}-${this.clock.now().getTime()}-${randomBytes(3).toString('hex')}`, // unique per request; orderNo stays one per attempt
      merchantNo: this.merchantNo,
      orderNo: request.reference,
      orderAmount: coinpalAmount(request.amount),
      orderCurrency: request.amount.currency,
    };
    const form: Record<string, string> = {
      version: '2',
      requestId: signed.requestId,
      merchantNo: signed.merchantNo,
      orderNo: signed.orderNo,
      orderCurrencyType: 'fiat',
      orderCurrency: signed.orderCurrency,
      orderAmount: signed.orderAmount,
      notifyURL: request.notifyUrl,
      redirectURL: request.successUrl,
      payerIP: request.buyerIp,
      payerEmail: request.buyerEmail,
      orderDescription: request.description,
      sign: coinpalSign(this.secretKey, signed),
    };
    const body = await this.post('/gateway/pay/checkout', form);
    const respCode = text(body.respCode);
    const next = text(body.nextStepContent);
    const reference = text(body.reference);
    if (respCode !== '200' || body.REQ_ERROR !== undefined || !next || !reference) {
      const message = text(body.respMessage) ?? text(body.REQ_ERROR) ?? 'unknown error';
      throw new ValidationError(`CoinPal refused the payment: ${message.slice(0, 200)}`, undefined, 'coinpal_rejected');
    }
    if (!/^https?:\/\//i.test(next)) throw unavailable();
    return { providerReference: reference, url: next };
  }

  verifyNotification(notification: IncomingNotification): PaymentReport {
    const fields = readFields(notification, 'CoinPal', { sniffJson: true });
    const signed = {
      requestId: text(fields.requestId),
      merchantNo: text(fields.merchantNo),
      orderNo: text(fields.orderNo),
      orderAmount: text(fields.orderAmount),
      orderCurrency: text(fields.orderCurrency),
    };
    const sign = text(fields.sign);
    if (!sign || Object.values(signed).some((value) => value === undefined)) throw new SignatureError('CoinPal notification without the signed fields');
    if (!sameHex(sign, coinpalSign(this.secretKey, signed as CoinPalSignedFields))) throw new SignatureError('CoinPal notification signature does not match');
    if (signed.merchantNo !== this.merchantNo) throw new SignatureError('CoinPal notification for another merchant');
    // Neither status nor reference is signed: the payment is found by the signed orderNo (our
    // reference), its reference only compared, and the event named by what CoinPal confirms.
    const rawStatus = text(fields.status) ?? 'unknown';
    const providerReference = text(fields.reference) || undefined;
    const orderAmount = parseAmount(signed.orderAmount, signed.orderCurrency);
    if (!orderAmount) throw new SignatureError('CoinPal notification signed for an amount or currency we never ask for');
    return {
      eventId: `${signed.orderNo}:${rawStatus}`,
      eventType: `coinpal.${rawStatus}`,
      reference: signed.orderNo,
      providerReference,
      status: coinpalStatus(rawStatus),
      amount: orderAmount,
      signedOrderAmount: orderAmount,
      needsConfirmation: true, // the sign does not cover status: ask CoinPal before acting
    };
  }

  async fetchStatus(payment: { reference: string; providerReference: string | null; amount: Money }): Promise<PaymentReport> {
    if (!payment.providerReference) return notAtProvider(payment.reference);
    // As the official SDK asks (https://github.com/coinpal-io/SDK_PHP src/Payment.php, protocols.md 2.8): `gcid` only, unsigned.
    const body = await this.post('/gateway/pay/query', { gcid: payment.providerReference });
    const respCode = text(body.respCode);
    if (respCode !== undefined && respCode !== '200') {
      if (respCode === '404') throw fail('coinpal_payment_not_found');
      throw unavailable();
    }
    const orderNo = text(body.orderNo);
    const reference = text(body.reference) ?? payment.providerReference;
    if ((orderNo !== undefined && orderNo !== payment.reference) || reference !== payment.providerReference) {
      throw fail('coinpal_mismatch');
    }
    const rawStatus = text(body.status);
    const status: ProviderStatus | 'unknown' = rawStatus === undefined ? 'unknown' : coinpalStatus(rawStatus);
    const currency = text(body.orderCurrency) ?? payment.amount.currency;
    // What was paid, in the order's currency; the order amount when CoinPal does not say (`paid` means paid in full).
    const amount = parseAmount(body.paidOrderAmount, currency) ?? parseAmount(body.orderAmount, currency);
    return {
      eventId: `query:${reference}:${status}`,
      eventType: 'status_query',
      reference: orderNo ?? payment.reference,
      providerReference: reference,
      status,
      amount,
      needsConfirmation: false,
    };
  }

  private post(path: string, form: Record<string, string>): Promise<Record<string, unknown>> {
    return postForm(this.fetch, `${this.base}${path}`, form, {
      timeoutMs: this.timeoutMs,
      provider: 'CoinPal',
      isUnavailableStatus: (status) => status !== 200,
      unavailable: (cause) => unavailable(cause),
    });
  }
}
