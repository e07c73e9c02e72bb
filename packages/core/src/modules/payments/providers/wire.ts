/**
 * Small pieces every form-based provider adapter needs: reading a notification's fields,
 * comparing signatures in constant time, parsing amounts, and one form POST with a timeout; and
 * what every adapter checks before it asks for a refund.
 */
import { timingSafeEqual } from 'node:crypto';
import { fromMajorUnits, isCurrencyCode, type CurrencyCode, type Money } from '../../../shared/money.js';
import { SignatureError, type IncomingNotification, type RefundRequest } from './provider.js';

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** Lowercase hex signatures compared in constant time (the received one case-insensitively). */
export function sameHex(received: string, expected: string): boolean {
  const a = Buffer.from(received.toLowerCase(), 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A decimal amount in major units ("10.5", "15000.00", 15000) as Money, or undefined when it is not one. */
export function parseAmount(value: unknown, currency: unknown): Money | undefined {
  const amount = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const code = typeof currency === 'string' ? currency.trim().toUpperCase() : '';
  if (!/^\d{1,15}(\.\d{1,18})?$/.test(amount) || !isCurrencyCode(code)) return undefined;
  try {
    return fromMajorUnits(Number(amount), code as CurrencyCode);
  } catch {
    return undefined;
  }
}

/**
 * A notification's fields: form-encoded by default, JSON when its content type says so (or,
 * with `sniffJson`, when the body looks like JSON: some CoinPal plugins post JSON as form).
 */
export function readFields(notification: IncomingNotification, provider: string, options: { sniffJson?: boolean } = {}): Record<string, unknown> {
  const raw = notification.rawBody.toString('utf8');
  const declaredJson = /json/i.test(notification.contentType);
  if (declaredJson || (options.sniffJson && /^\s*\{/.test(raw))) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (isObject(parsed)) return parsed;
    } catch {
      // reported below when JSON was declared; otherwise read it as a form
    }
    if (declaredJson) throw new SignatureError(`${provider} notification is not valid JSON`);
  }
  return Object.fromEntries(new URLSearchParams(raw));
}

/**
 * One form POST with a timeout, answering the JSON object. Network trouble, timeouts, statuses
 * the caller calls unavailable and answers that are not JSON objects go to `unavailable`.
 */
export async function postForm(
  fetchImpl: typeof fetch,
  url: string,
  form: Record<string, string>,
  options: { timeoutMs: number; provider: string; isUnavailableStatus: (status: number) => boolean; unavailable: (cause: unknown) => Error },
): Promise<Record<string, unknown>> {
  let status: number;
  let raw: string;
  try {
    const response = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8', accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    status = response.status;
    raw = await response.text();
  } catch (error) {
    throw options.unavailable(error);
  }
  if (options.isUnavailableStatus(status)) throw options.unavailable(new Error(`${options.provider} answered HTTP ${status}`));
  try {
    const body: unknown = JSON.parse(raw);
    if (isObject(body)) return body;
  } catch {
    // not JSON
  }
  throw options.unavailable(new Error(`${options.provider} answered HTTP ${status} without a JSON object`));
}

/**
 * What a refund request must be before any adapter sends it: a positive amount in the paid currency,
 * no more than was paid. The refund policy decided the amount already, so anything else is a bug
 * in the caller (like a checkout without a positive amount), not something to ask a provider.
 */
export function checkRefundRequest(request: RefundRequest): void {
  const { amount, paid } = request;
  if (!Number.isSafeInteger(amount.amount) || amount.amount <= 0) throw new RangeError('A refund needs a positive amount');
  if (amount.currency !== paid.currency) throw new RangeError(`A refund in ${amount.currency} of a payment in ${paid.currency}`);
  if (amount.amount > paid.amount) throw new RangeError('A refund cannot give back more than was paid');
}
