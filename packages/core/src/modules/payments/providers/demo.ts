/**
 * The demo provider serves a payment method whose real provider has no keys, so that `npm start`
 * can sell end to end. It behaves like a hosted checkout of our own: createCheckout hands out a
 * signed, expiring token and the URL of the shop's demo checkout page (`/demo-checkout/:token`);
 * that page shows the payment (readDemoToken) with Pay and Cancel, and posts
 * `token=…&outcome=paid|cancelled` to the notify URL carried in the token. verifyNotification
 * accepts that post only with a genuine, unexpired token, so the demo goes through the same
 * verified-notification path as a real provider, and nobody can forge a payment for an amount or
 * order the shop did not sign.
 *
 * Token: a JWT of purpose `demo-checkout` (shared/signed-tokens.ts), signed with the given secret
 * (config.tokenSecret); its audience binds it to this purpose, so it is no other kind of token.
 *
 * A token proves only that the shop issued it. Whether the demo may still serve its method is
 * the payments service's rule (checked on every post and page view): a token stops paying the
 * moment demo payments are off or the method got a real provider, not when it expires.
 *
 * A refund of a demo payment moves no money, so it succeeds at once.
 *
 * Saved cards (issue 34: automatic renewal in the demo). A checkout with "Renew automatically"
 * signs the buyer's demo customer into its token; its page then lets the buyer choose a demo card,
 * one that pays (ending 4242) or one that declines (ending 0002), like Stripe's test cards. The
 * card is named in the paid payment's provider id (`demo_pi.<reference>.<customer>.<last4>`), so
 * the renewal pass learns it as it learns a Stripe card, and an off-session charge of it succeeds
 * or declines at once, with no state kept here. The demo has no card-update page: a dunning e-mail
 * links to the panel, and a card is saved only by paying with the box ticked.
 */
import { isPaymentMethodId } from '../../../wire/enums.js';
import { type Clock, SystemClock } from '../../../shared/clock.js';
import { type Money, isCurrencyCode, money, toMajorUnits } from '../../../shared/money.js';
import { formatMoney } from '../../../storefront/index.js';
import {
  type CheckoutRequest,
  type CheckoutSession,
  type IncomingNotification,
  type PaymentMethodId,
  type PaymentProvider,
  type PaymentReport,
  type OffSessionChargeRequest,
  type OffSessionChargeResult,
  type RefundReceipt,
  type RefundRequest,
  type SavedCard,
  type SavedCardCharging,
  SignatureError,
} from './provider.js';
import { fail } from '../../../shared/errors.js';
import { peekToken, readToken, signToken } from '../../../shared/signed-tokens.js';
import { checkRefundRequest } from './wire.js';

export interface DemoProviderOptions {
  /** The shop's external base URL (PUBLIC_URL): the demo checkout page lives under it. */
  publicUrl: string;
  /** Signing secret (config.tokenSecret); a purpose-bound key is derived from it. */
  secret: Buffer | string;
  /** How long a demo checkout can be paid. Default 24 h, like a Stripe Checkout Session. */
  ttlSeconds?: number;
  clock?: Clock;
}

export type DemoOutcome = 'paid' | 'cancelled';

/** The demo cards a buyer may save (their last four digits): one that pays at every renewal, one that is declined. */
export const DEMO_CARDS = { pays: '4242', declines: '0002' } as const;
export type DemoCard = (typeof DEMO_CARDS)[keyof typeof DEMO_CARDS];
const isDemoCard = (value: unknown): value is DemoCard => Object.values(DEMO_CARDS).includes(value as DemoCard);

/** What a demo checkout token says (all of it signed). */
export interface DemoTokenData {
  reference: string;
  orderId: number;
  method: PaymentMethodId;
  amount: Money;
  /** The amount for people, e.g. "€10.50" or "₩15,000". */
  amountLabel: string;
  description: string;
  expiresAt: Date;
  /** Where the demo page sends the browser after paying / cancelling, and where it posts the outcome. */
  successUrl: string;
  cancelUrl: string;
  notifyUrl: string;
  /** "Renew automatically": the buyer's demo customer, to whom the card chosen on the page is saved. */
  saveCardFor?: string;
}

/** The claims of a demo token, short because the token travels in a URL. */
interface TokenPayload {
  r: string;
  o: number;
  m: number;
  a: number;
  c: string;
  d: string;
  exp: number;
  s: string;
  x: string;
  n: string;
  k?: string;
}

function label(value: Money): string {
  return formatMoney(toMajorUnits(value), value.currency);
}

/** Signs a demo token (exported for tests and for the demo page's own tests). */
export function signDemoToken(data: Omit<DemoTokenData, 'amountLabel'>, secret: Buffer | string): Promise<string> {
  const claims: Omit<TokenPayload, 'exp'> = {
    r: data.reference,
    o: data.orderId,
    m: data.method,
    a: data.amount.amount,
    c: data.amount.currency,
    d: data.description,
    s: data.successUrl,
    x: data.cancelUrl,
    n: data.notifyUrl,
    ...(data.saveCardFor ? { k: data.saveCardFor } : {}),
  };
  return signToken(secret, 'demo-checkout', { ...claims }, data.expiresAt);
}

function decode(claims: Record<string, unknown> | undefined): DemoTokenData | null {
  if (!claims) return null;
  const payload = claims as Partial<TokenPayload>;
  const ok =
    typeof payload.r === 'string' &&
    Number.isSafeInteger(payload.o) &&
    isPaymentMethodId(payload.m) &&
    Number.isSafeInteger(payload.a) &&
    isCurrencyCode(payload.c) &&
    typeof payload.d === 'string' &&
    Number.isSafeInteger(payload.exp) &&
    typeof payload.s === 'string' &&
    typeof payload.x === 'string' &&
    typeof payload.n === 'string' &&
    (payload.k === undefined || typeof payload.k === 'string');
  if (!ok) return null;
  const p = payload as TokenPayload;
  const amount = money(p.a, p.c as Money['currency']);
  return {
    reference: p.r,
    orderId: p.o,
    method: p.m as PaymentMethodId,
    amount,
    amountLabel: label(amount),
    description: p.d,
    expiresAt: new Date(p.exp * 1000),
    successUrl: p.s,
    cancelUrl: p.x,
    notifyUrl: p.n,
    ...(p.k ? { saveCardFor: p.k } : {}),
  };
}

/**
 * Reads a demo token WITHOUT checking its signature or expiry: for showing the payment on the
 * demo page. Returns null when it is not a demo token. Only DemoProvider.verifyToken (and
 * verifyNotification) may be trusted.
 */
export function readDemoToken(token: string): DemoTokenData | null {
  return decode(peekToken('demo-checkout', token));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class DemoProvider implements PaymentProvider {
  readonly name = 'demo' as const;
  readonly acknowledgement = { contentType: 'application/json', body: '{"received":true}' };

  private readonly publicUrl: string;
  private readonly secret: Buffer | string;
  private readonly ttlSeconds: number;
  private readonly clock: Clock;

  constructor(options: DemoProviderOptions) {
    if (!options.secret || options.secret.length < 16) throw new TypeError('DemoProvider needs a signing secret of at least 16 bytes');
    this.publicUrl = options.publicUrl.replace(/\/+$/, '');
    this.secret = options.secret;
    this.ttlSeconds = options.ttlSeconds ?? 24 * 3600;
    this.clock = options.clock ?? new SystemClock();
  }

  async createCheckout(request: CheckoutRequest): Promise<CheckoutSession> {
    const token = await signDemoToken(
      {
        reference: request.reference,
        orderId: request.orderId,
        method: request.method,
        amount: request.amount,
        description: request.description.slice(0, 200),
        expiresAt: new Date(this.clock.now().getTime() + this.ttlSeconds * 1000),
        successUrl: request.successUrl,
        cancelUrl: request.cancelUrl,
        notifyUrl: request.notifyUrl,
        ...(request.saveCardFor ? { saveCardFor: request.saveCardFor.customerId } : {}),
      },
      this.secret,
    );
    return { providerReference: `demo-${request.reference}`, url: `${this.publicUrl}/demo-checkout/${encodeURIComponent(token)}` };
  }

  /** The token's data when it is genuine and not expired; SignatureError otherwise. */
  async verifyToken(token: string): Promise<DemoTokenData> {
    const data = decode(await readToken(this.secret, 'demo-checkout', token, this.clock.now()));
    if (!data) throw new SignatureError('Not a genuine, unexpired demo checkout token');
    return data;
  }

  async verifyNotification(notification: IncomingNotification): Promise<PaymentReport> {
    const raw = notification.rawBody.toString('utf8');
    let fields: Record<string, unknown>;
    if (/json/i.test(notification.contentType)) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        throw new SignatureError('Demo notification is not valid JSON');
      }
      if (!isObject(parsed)) throw new SignatureError('Demo notification is not an object');
      fields = parsed;
    } else {
      fields = Object.fromEntries(new URLSearchParams(raw));
    }
    const outcome = fields.outcome;
    if (outcome !== 'paid' && outcome !== 'cancelled') throw new SignatureError('Demo notification without a valid outcome');
    const data = await this.verifyToken(typeof fields.token === 'string' ? fields.token : '');
    // "Renew automatically": the demo card the buyer chose on the page (the one that pays by default) is saved.
    if (fields.card !== undefined && !isDemoCard(fields.card)) throw new SignatureError('Demo notification with an unknown demo card');
    const card = isDemoCard(fields.card) ? fields.card : DEMO_CARDS.pays;
    return {
      eventId: `demo:${data.reference}:${outcome}`,
      eventType: `demo.${outcome}`,
      reference: data.reference,
      providerReference: `demo-${data.reference}`,
      ...(data.saveCardFor && outcome === 'paid' ? { providerPaymentId: ['demo_pi', data.reference, data.saveCardFor, card].join('.') } : {}),
      orderId: data.orderId,
      method: data.method,
      status: outcome === 'paid' ? 'paid' : 'failed',
      amount: data.amount,
      needsConfirmation: false,
    };
  }

  async fetchStatus(payment: { reference: string; providerReference: string | null; amount: Money }): Promise<PaymentReport> {
    // The demo keeps no state of its own: only the page's post says anything.
    return {
      eventId: `query:demo-${payment.reference}:pending`,
      eventType: 'status_query',
      reference: payment.reference,
      providerReference: payment.providerReference ?? `demo-${payment.reference}`,
      status: 'pending',
      needsConfirmation: false,
    };
  }

  async refund(request: RefundRequest): Promise<RefundReceipt> {
    checkRefundRequest(request);
    return { providerRefundId: `demo-refund-${request.refundId}`, status: 'succeeded' };
  }

  readonly savedCards: SavedCardCharging = {
    createCustomer: async (buyer) => `demo_cus_${buyer.userId}`,
    cardOfPayment: async (providerPaymentId) => demoCardOf(providerPaymentId),
    chargeOffSession: async (request) => this.chargeOffSession(request),
    // No card-update page in the demo (callers link to the panel instead).
    cardUpdateCheckout: async () => {
      throw fail('autorenew_unavailable');
    },
    cardOfUpdate: async () => undefined,
  };

  /** A demo card pays or declines at once; the report goes through the normal payment path. */
  private chargeOffSession(request: OffSessionChargeRequest): OffSessionChargeResult {
    const paymentIntentId = `demo_charge.${request.reference}`;
    const declines = request.card.paymentMethodId === demoPaymentMethod(DEMO_CARDS.declines);
    const report: PaymentReport = {
      eventId: `demo-charge:${request.reference}:${declines ? 'failed' : 'paid'}`,
      eventType: 'demo.charge',
      reference: request.reference,
      providerReference: paymentIntentId,
      orderId: request.orderId,
      status: declines ? 'failed' : 'paid',
      amount: request.amount,
      needsConfirmation: false,
    };
    return declines ? { status: 'declined', paymentIntentId, declineCode: 'card_declined', report } : { status: 'succeeded', paymentIntentId, report };
  }
}

const demoPaymentMethod = (card: DemoCard) => `demo_pm_${card}`;

/** The demo card a paid "Renew automatically" checkout saved, read from its provider id. */
function demoCardOf(providerPaymentId: string): SavedCard | undefined {
  const [prefix, , customerId, last4, extra] = providerPaymentId.split('.');
  if (prefix !== 'demo_pi' || !customerId || !isDemoCard(last4) || extra !== undefined) return undefined;
  return { customerId, paymentMethodId: demoPaymentMethod(last4), brand: 'demo', last4 };
}
