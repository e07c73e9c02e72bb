/**
 * Korean methods 3 to 6 (KakaoPay, Samsung Pay, Korean credit card, Korean internet banking)
 * through Payssion (protocols.md section 3). `payment/create` answers a `redirect_url` for the buyer
 * and a `transaction_id`; Payssion then posts a notification signed with
 * `notify_sig = md5(api_key|pm_id|amount|currency|order_id|state|secret_key)`, which covers the
 * state, so a verified notification can be acted on. It does NOT cover `transaction_id`: the
 * report's reference and event id come from the signed `order_id` (our payment reference) and
 * state only (a refund's notification carries the refund's own `transaction_id`, which names the
 * refund in the ledger: unsigned, so a captured genuine refund notification replayed under a new
 * id would count that signed amount once more; the ledger never counts more back than was paid,
 * and staff see each refund by its id). `payment/details` answers the current state. `refunds` gives money back, signed
 * `api_sig = md5(api_key|transaction_id|amount|currency|secret_key)`; Payssion then notifies
 * `refunded` (or, when the buyer's bank takes the money back itself, `chargeback`).
 *
 * PAYSSION_API_BASE replaces `https://www.payssion.com/api/v1` (e.g. `http://127.0.0.1:port/api/v1`).
 */
import { createHash } from 'node:crypto';
import { ConflictError, UnavailableError, ValidationError, fail } from '../../../shared/errors.js';
import { CURRENCIES, type Money, toMajorUnits } from '../../../shared/money.js';
import {
  type CheckoutRequest,
  type CheckoutSession,
  type IncomingNotification,
  type PaymentMethodId,
  type PaymentProvider,
  type PaymentReport,
  type ProviderStatus,
  type RefundReceipt,
  type RefundRequest,
  SignatureError,
  statusByTable,
} from './provider.js';
import type { MoneyFact } from '../money-ledger.js';
import { checkRefundRequest, isObject, parseAmount, postForm, readFields, sameHex, text } from './wire.js';

export interface PayssionProviderOptions {
  /** PAYSSION_API_KEY */
  apiKey: string;
  /** PAYSSION_SECRET_KEY (only ever used inside signatures) */
  secretKey: string;
  /** PAYSSION_API_BASE; default https://www.payssion.com/api/v1 */
  apiBase?: string;
  fetch?: typeof fetch;
  /** Per request. Default 10 s. */
  timeoutMs?: number;
}

export const PAYSSION_DEFAULT_API_BASE = 'https://www.payssion.com/api/v1';

/** Our method ids → Payssion's `pm_id` (3.4). */
export const PAYSSION_PM_IDS: Readonly<Partial<Record<PaymentMethodId, string>>> = {
  3: 'kakaopay_kr',
  4: 'samsungpay_kr',
  5: 'creditcard_kr',
  6: 'ebanking_kr',
};

/** Payssion's signature scheme: lowercase hex MD5 of the values joined with `|` (a missing value is an empty string). */
export function payssionSig(parts: ReadonlyArray<string | undefined>): string {
  return createHash('md5')
    .update(parts.map((part) => part ?? '').join('|'), 'utf8')
    .digest('hex');
}

/** `api_sig` of payment/create: md5(api_key|pm_id|amount|currency|order_id|secret_key). */
export function payssionCreateSig(apiKey: string, pmId: string, amount: string, currency: string, orderId: string, secretKey: string): string {
  return payssionSig([apiKey, pmId, amount, currency, orderId, secretKey]);
}

/** `api_sig` of payment/details, the official SDK form: md5(api_key|transaction_id|order_id|secret_key), empty slots kept. */
export function payssionDetailsSig(apiKey: string, transactionId: string, orderId: string, secretKey: string): string {
  return payssionSig([apiKey, transactionId, orderId, secretKey]);
}

/** `notify_sig`: md5(api_key|pm_id|amount|currency|order_id|state|secret_key) over the values as posted. */
export function payssionNotifySig(apiKey: string, pmId: string, amount: string, currency: string, orderId: string, state: string, secretKey: string): string {
  return payssionSig([apiKey, pmId, amount, currency, orderId, state, secretKey]);
}

/** `api_sig` of refunds (3.3): md5(api_key|transaction_id|amount|currency|secret_key). */
export function payssionRefundSig(apiKey: string, transactionId: string, amount: string, currency: string, secretKey: string): string {
  return payssionSig([apiKey, transactionId, amount, currency, secretKey]);
}

/** EUR 1050 → "10.50"; KRW 15000 → "15000" (whole won). */
export function payssionAmount(value: Money): string {
  return toMajorUnits(value).toFixed(CURRENCIES[value.currency].minorDigits);
}

/**
 * Payssion's states (3.7) in our words. Only `completed` is money; `refunded` and `chargeback` are
 * money going back. A refund still on its way or one that failed says nothing new about the
 * payment (it stays paid), so it is `unknown`: recorded, and nothing changes.
 */
const PAYSSION_STATES: Readonly<Record<string, ProviderStatus | 'unknown'>> = {
  completed: 'paid',
  failed: 'failed',
  cancelled: 'failed',
  cancelled_by_user: 'failed',
  rejected_by_bank: 'failed',
  error: 'failed',
  expired: 'expired',
  refunded: 'refunded',
  chargeback: 'charged_back',
  refund_pending: 'unknown', // about a refund, not the payment: its ledger fact says what (payssionFacts)
  refund_failed: 'unknown',
};

/** Anything else is `pending`: pending, paid_partial, paid_more, awaiting_confirm, … */
export function payssionStatus(state: string | undefined): ProviderStatus | 'unknown' {
  return statusByTable(PAYSSION_STATES, state, 'pending');
}

function unavailable(
  cause?: unknown,
  code: 'payssion_unavailable' | 'payssion_misconfigured' | 'payssion_mismatch' = 'payssion_unavailable',
): UnavailableError {
  return new UnavailableError('This payment method is not available right now. Try again later.', code, cause);
}

/** result codes (3.2) that mean "our keys or setup are wrong" rather than "this request is wrong". */
const MISCONFIGURED = new Set(['401', '402', '403', '411', '441']);
const TRANSIENT = new Set(['500', '501', '502', '503']);

function refused(resultCode: string | undefined, description: string | undefined): Error {
  const message = (description ?? 'unknown error').slice(0, 200);
  if (resultCode !== undefined && TRANSIENT.has(resultCode)) return unavailable(new Error(`Payssion ${resultCode}: ${message}`));
  if (resultCode !== undefined && MISCONFIGURED.has(resultCode)) return unavailable(new Error(`Payssion ${resultCode}: ${message}`), 'payssion_misconfigured');
  if (resultCode === '413') return fail('payssion_repeated_order');
  return new ValidationError(`Payssion refused the payment: ${message}`, undefined, 'payssion_rejected');
}

/** A refund Payssion would not make: unreachable and misconfigured as for payments, any other refusal a conflict the order stays out of. */
function refusedRefund(resultCode: string | undefined, description: string | undefined): Error {
  if (resultCode !== undefined && (TRANSIENT.has(resultCode) || MISCONFIGURED.has(resultCode))) return refused(resultCode, description);
  const message = (description ?? 'unknown error').slice(0, 200);
  return new ConflictError(`Payssion refused the refund: ${message}`, 'payssion_refund_refused');
}

/**
 * The ledger's name of a Payssion refund Payssion named no id for: its amount. A refund has its own
 * transaction id (the refunds call answers it, and its `refunded` / `refund_pending` /
 * `refund_failed` notifications carry it as `transaction_id`), which is what names it; only a
 * notification without one falls back to this name.
 */
export function payssionRefundSubject(amount: Money): string {
  return `refund:${payssionAmount(amount)}`;
}

const REFUND_STATES = new Set(['refunded', 'refund_pending', 'refund_failed']);

/**
 * The money facts of a Payssion notification (refunds and chargebacks). A refund is named by its
 * own transaction id, so two partial refunds of the same amount are two refunds; the amount is
 * signed, the id is not (see the class comment on what that allows).
 */
function payssionFacts(state: string, amount: Money | undefined, refundId: string | undefined): MoneyFact[] {
  if (!amount) return [];
  const refund = (status: MoneyFact['status']): MoneyFact[] => [
    { kind: 'refund', subject: refundId ?? payssionRefundSubject(amount), status, amount: amount.amount, currency: amount.currency },
  ];
  switch (state) {
    case 'refunded':
      return refund('succeeded');
    case 'refund_pending':
      return refund('pending');
    case 'refund_failed':
      return refund('failed');
    case 'chargeback':
      return [{ kind: 'chargeback', subject: 'chargeback', status: 'succeeded', amount: amount.amount, currency: amount.currency }];
    default:
      return [];
  }
}

export class PayssionProvider implements PaymentProvider {
  readonly name = 'payssion' as const;
  /** The official sample answers 200 with an empty body. */
  readonly acknowledgement = { contentType: 'text/plain', body: '' };

  private readonly apiKey: string;
  private readonly secretKey: string;
  private readonly base: string;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;

  constructor(options: PayssionProviderOptions) {
    if (!options.apiKey || !options.secretKey) throw new TypeError('PayssionProvider needs an API key and a secret key');
    this.apiKey = options.apiKey;
    this.secretKey = options.secretKey;
    this.base = (options.apiBase ?? PAYSSION_DEFAULT_API_BASE).replace(/\/+$/, '');
    this.fetch = options.fetch ?? globalThis.fetch;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  async createCheckout(request: CheckoutRequest): Promise<CheckoutSession> {
    const pmId = PAYSSION_PM_IDS[request.method];
    if (!pmId) throw new ValidationError('Payssion does not serve this payment method.', { method: 'unsupported' });
    if (!Number.isSafeInteger(request.amount.amount) || request.amount.amount <= 0) throw new RangeError('A checkout needs a positive amount');
    const amount = payssionAmount(request.amount);
    const currency = request.amount.currency;
    const form: Record<string, string> = {
      api_key: this.apiKey,
      pm_id: pmId,
      amount,
      currency,
      order_id: request.reference,
      description: request.description,
      return_url: request.successUrl,
      notify_url: request.notifyUrl,
      payer_email: request.buyerEmail,
      api_sig: payssionCreateSig(this.apiKey, pmId, amount, currency, request.reference, this.secretKey),
    };
    const body = await this.post('/payment/create', form);
    const resultCode = text(body.result_code);
    if (resultCode !== '200') throw refused(resultCode, text(body.description));
    const transaction = isObject(body.transaction) ? body.transaction : {};
    const transactionId = text(transaction.transaction_id);
    const url = text(body.redirect_url);
    if (!transactionId || !url || !/^https?:\/\//i.test(url)) throw unavailable(new Error('Payssion answered without a transaction id or redirect URL'));
    return { providerReference: transactionId, url };
  }

  verifyNotification(notification: IncomingNotification): PaymentReport {
    const fields = readFields(notification, 'Payssion');
    const pmId = text(fields.pm_id);
    const amount = text(fields.amount);
    const currency = text(fields.currency);
    const state = text(fields.state);
    const orderId = text(fields.order_id);
    const trackId = text(fields.track_id);
    const sig = text(fields.notify_sig);
    if (
      !sig ||
      pmId === undefined ||
      amount === undefined ||
      currency === undefined ||
      state === undefined ||
      (orderId === undefined && trackId === undefined)
    ) {
      throw new SignatureError('Payssion notification without the signed fields');
    }
    // Legacy hosted-form integrations post track_id/sub_track_id instead of order_id (3.2, 3.5).
    const expected =
      orderId !== undefined
        ? payssionNotifySig(this.apiKey, pmId, amount, currency, orderId, state, this.secretKey)
        : payssionSig([this.apiKey, pmId, amount, currency, trackId, text(fields.sub_track_id), state, this.secretKey]);
    if (!sameHex(sig, expected)) throw new SignatureError('Payssion notification signature does not match');
    // transaction_id is not signed: it is only compared with the one we stored (by the service);
    // the payment is found, and the event known, by the signed order_id and state.
    const transactionId = text(fields.transaction_id) || undefined;
    const reference = orderId ?? trackId;
    const status = payssionStatus(state);
    const posted = parseAmount(amount, currency);
    // A refund's notification carries the refund's own transaction id (not the payment's): it names
    // the refund, and is not compared with the payment's.
    const refundId = REFUND_STATES.has(state) ? transactionId : undefined;
    const facts = payssionFacts(state, posted, refundId);
    return {
      // A refund's state repeats for every refund of the payment: its own id (else its signed amount) tells them apart.
      eventId: facts.length > 0 ? `${reference}:${state}:${amount}${refundId ? `:${refundId}` : ''}` : `${reference}:${state}`,
      eventType: `payssion.${state}`,
      reference,
      providerReference: refundId ? undefined : transactionId,
      status,
      amount: posted,
      // Payssion says only this event's amount, not how much has gone back in all.
      ...((status === 'refunded' || status === 'charged_back') && posted ? { moneyBack: { amount: posted } } : {}),
      ...(facts.length > 0 ? { facts } : {}),
      needsConfirmation: false, // the signature covers the state
    };
  }

  async fetchStatus(payment: { reference: string; providerReference: string | null; amount: Money }): Promise<PaymentReport> {
    const transactionId = payment.providerReference ?? '';
    const body = await this.post('/payment/details', {
      api_key: this.apiKey,
      transaction_id: transactionId,
      order_id: payment.reference,
      api_sig: payssionDetailsSig(this.apiKey, transactionId, payment.reference, this.secretKey),
    });
    const resultCode = text(body.result_code);
    if (resultCode === '412' || resultCode === '404') throw fail('payssion_payment_not_found');
    if (resultCode !== '200') throw refused(resultCode, text(body.description));
    const transaction = isObject(body.transaction) ? body.transaction : undefined;
    if (!transaction) throw unavailable(new Error('Payssion answered without a transaction'));
    const orderId = text(transaction.order_id);
    const foundId = text(transaction.transaction_id);
    if ((orderId !== undefined && orderId !== payment.reference) || (transactionId && foundId !== undefined && foundId !== transactionId)) {
      throw unavailable(new Error('Payssion answered about another payment'), 'payssion_mismatch');
    }
    const state = text(transaction.state);
    const status: ProviderStatus | 'unknown' = state === undefined ? 'unknown' : payssionStatus(state);
    const providerReference = foundId ?? (transactionId || undefined);
    return {
      eventId: `query:${providerReference ?? payment.reference}:${status}`,
      eventType: 'status_query',
      reference: orderId ?? payment.reference,
      providerReference,
      status,
      amount: parseAmount(transaction.amount, transaction.currency),
      needsConfirmation: false,
    };
  }

  /**
   * Asks Payssion to give (part of) a completed payment back. Payssion has no idempotency key: a
   * refund of ours is sent once per call, and the caller must not call again for the same refund
   * after a timeout without first learning what happened (the `refunded` notification, or staff
   * looking in Payssion's dashboard).
   */
  async refund(request: RefundRequest): Promise<RefundReceipt> {
    checkRefundRequest(request);
    const transactionId = request.providerReference;
    if (!transactionId) {
      throw new ConflictError('Payssion has not told us the transaction id of this order, so it cannot be refunded through Payssion.', 'refund_not_possible');
    }
    const amount = payssionAmount(request.amount);
    const currency = request.amount.currency;
    const body = await this.post('/refunds', {
      api_key: this.apiKey,
      transaction_id: transactionId,
      amount,
      currency,
      api_sig: payssionRefundSig(this.apiKey, transactionId, amount, currency, this.secretKey),
    });
    const resultCode = text(body.result_code);
    if (resultCode !== '200') throw refusedRefund(resultCode, text(body.description));
    const refund = isObject(body.refund) ? body.refund : {};
    const state = text(refund.state);
    return {
      providerRefundId: text(refund.transaction_id) || `${transactionId}:refund`,
      status: state === 'refunded' || state === 'completed' ? 'succeeded' : 'pending',
    };
  }

  private post(path: string, form: Record<string, string>): Promise<Record<string, unknown>> {
    return postForm(this.fetch, `${this.base}${path}`, form, {
      timeoutMs: this.timeoutMs,
      provider: 'Payssion',
      isUnavailableStatus: (status) => status >= 500,
      unavailable: (cause) => unavailable(cause),
    });
  }
}
