/**
 * What the payment adapter tests hand an adapter, and how they expect a refusal: one place for
 * both adapter test files (payment-providers*.test.ts).
 */
import { expect } from 'chai';
import type { DomainError } from '../../packages/core/src/shared/errors.js';
import { money } from '../../packages/core/src/shared/money.js';
import type { CheckoutRequest, IncomingNotification } from '../../packages/core/src/modules/payments/providers/provider.js';

type ErrorClass = abstract new (...args: never[]) => Error;

/** Awaits a promise that must fail with `type` (and `code`); answers the error. */
export async function rejected(promise: Promise<unknown>, type: ErrorClass, code?: string): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(type);
    if (code) expect((error as DomainError).code).to.equal(code);
    return error as Error;
  }
  return expect.fail(`expected a ${type.name}${code ? ` (${code})` : ''}`);
}

/** What the HTTP layer hands an adapter: the exact bytes and the headers. */
export function incoming(delivery: { body: string; headers: Record<string, string> }): IncomingNotification {
  return { rawBody: Buffer.from(delivery.body, 'utf8'), contentType: delivery.headers['content-type'] ?? '', headers: { ...delivery.headers } };
}

let sequence = 0;

/** A checkout request for a fresh order and reference (a card payment of ₩15,000 unless told otherwise). */
export function checkoutRequest(overrides: Partial<CheckoutRequest> = {}): CheckoutRequest {
  sequence += 1;
  const orderId = 4200 + sequence;
  return {
    reference: `${orderId}-${sequence}`,
    orderId,
    method: 1,
    amount: money(15000, 'KRW'),
    description: 'Netflix Premium 1 month',
    buyerEmail: 'buyer@example.com',
    buyerIp: '203.0.113.7',
    languageId: 2,
    successUrl: `http://shop.test/paymentresult/${orderId}/1?session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `http://shop.test/paymentresult/${orderId}/0`,
    notifyUrl: 'http://shop.test/api/webhook/stripe',
    ...overrides,
  };
}
