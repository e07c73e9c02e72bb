/**
 * Taking money. A checkout is started with a provider; only a verified provider signal (a
 * notification with a valid signature, or the provider's answer when we ask it) marks a
 * payment paid. Every signal is stored once by its provider event id, inside the transaction
 * that applies it, so duplicates, retries and races apply it exactly once.
 *
 *   buyer ──createcheckoutsession──▶ payments ──createCheckout──▶ provider
 *   provider ──webhook──▶ verify signature ─(CoinPal: ask status)─▶ apply:
 *       lock the payment named by the signed reference ─▶ unsigned fields agree? ─▶
 *       insert payment_events (unique) ─▶ check amount ─▶ payment paid
 *       ─▶ orders.markPaid (state 6 + activation job, same transaction)
 *
 * A signature covers only some fields (Payssion's not the transaction_id, CoinPal's not the
 * status or its reference). So a message finds its payment only by what is signed (our
 * reference), is named (payment_events) only by what is signed, and anything else it says about
 * which payment it is must agree with what we stored, or it is refused and changes nothing.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import * as yup from 'yup';
import type { AppConfig } from '../../shared/config.js';
import type { Clock } from '../../shared/clock.js';
import { ConflictError, NotFoundError, UnavailableError, ValidationError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { TOKENS } from '../../shared/tokens.js';
import { validate } from '../../shared/validate.js';
import type { AuthenticatedUser, RequestContext } from '../identity/index.js';
import { ORDER_STATE, ORDERS, PAID_STATES, type OrdersService, type OrderView } from '../orders/index.js';
import { PaymentRepository, type PaymentRow } from './payment.repository.js';
import { readDemoToken, type DemoTokenData } from './providers/demo.js';
import { type createPaymentProviders } from './providers/index.js';
import { PAYMENT_PROVIDERS } from './tokens.js';

export type PaymentProviders = ReturnType<typeof createPaymentProviders>;
import {
  SignatureError,
  type IncomingNotification,
  type PaymentMethodId,
  type PaymentProvider,
  type PaymentReport,
  type ProviderName,
} from './providers/provider.js';

const orderIdSchema = yup.object({
  orderId: yup.number().typeError('orderId must be a number').integer().min(1, 'orderId is required').required('orderId is required'),
});
const payssionCheckoutSchema = orderIdSchema.shape({
  pmId: yup.number().typeError('pmId must be 3, 4, 5 or 6').oneOf([3, 4, 5, 6], 'pmId must be 3, 4, 5 or 6').required('pmId is required'),
});
// Payssion's return URL carries its order_id, which is our payment reference ("42-7"): accept it as the order id too.
const payssionCheckSchema = yup.object({
  orderId: yup
    .string()
    .trim()
    .required('orderId is required')
    .matches(/^\d{1,12}(-\d{1,12})?$/, 'orderId must be an order id'),
  transactionId: yup.string().trim().max(128),
});

/** Orders still unpaid after this are expired (Stripe's checkout sessions live 24 hours). */
const UNPAID_LIFETIME_MS = 24 * 3600_000;
/** Pending payments older than this are asked about, in case a notification was lost. */
const RECONCILE_AFTER_MS = 10 * 60_000;

export type ApplyOutcome =
  'duplicate' | 'unknown_payment' | 'paid' | 'paid_twice' | 'already_paid' | 'amount_mismatch' | 'failed' | 'expired' | 'refunded' | 'noted';

export interface NotificationAnswer {
  outcome: ApplyOutcome;
  contentType: string;
  body: string;
}

@injectable()
export class PaymentsService {
  private readonly logger: Logger;

  constructor(
    @inject(TOKENS.Config) private readonly config: AppConfig,
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) logger: Logger,
    @inject(PaymentRepository) private readonly payments: PaymentRepository,
    @inject(PAYMENT_PROVIDERS) private readonly providers: PaymentProviders,
    @inject(ORDERS.Service) private readonly orders: OrdersService,
  ) {
    this.logger = logger.child({ module: 'payments' });
  }

  /** The methods this installation can take (unconfigured ones are served by the demo provider only where allowed). */
  availableMethods(candidates: readonly number[]): number[] {
    return candidates.filter((method) => this.config.allowDemoPayments || !this.providers.isDemo(method as PaymentMethodId));
  }

  /** createcheckoutsession (1), createcheckoutsessioncoinpal (2), createcheckoutsessionpayssion (3–6): answers the provider page URL. */
  async startCheckout(buyer: AuthenticatedUser, input: unknown, method: PaymentMethodId | 'payssion', context: RequestContext): Promise<{ url: string }> {
    const chosen: PaymentMethodId = method === 'payssion' ? (validate(payssionCheckoutSchema, input).pmId as PaymentMethodId) : method;
    const { orderId } = validate(orderIdSchema, input);
    const order = await this.orders.getOrder(buyer, orderId);
    if (order.userId !== buyer.id) throw new NotFoundError('This order does not exist.', 'order_not_found');
    if (![ORDER_STATE.created, ORDER_STATE.awaitingPayment, ORDER_STATE.paymentFailed].includes(order.state as 0 | 1 | 3)) {
      throw new ConflictError('This order cannot be paid any more.', 'order_not_payable');
    }
    if (!this.availableMethods(order.paymentMethods).includes(chosen)) {
      throw new ValidationError('This payment method is not available for this order.', { pmId: 'not available' }, 'method_unavailable');
    }
    const provider = this.providers.forMethod(chosen);
    const now = this.clock.now();
    const payment = await this.knex.transaction(async (trx) => {
      const created = await this.payments.create(
        { order_id: order.id, provider: provider.name, method: chosen, amount_minor: order.total.amount, currency: order.total.currency, created_at: now },
        trx,
      );
      await this.orders.moveTo(order.id, ORDER_STATE.awaitingPayment, trx, { paymentMethod: chosen });
      return created;
    });

    const base = this.config.publicUrl;
    try {
      const session = await provider.createCheckout({
        reference: payment.reference!,
        orderId: order.id,
        method: chosen,
        amount: order.total,
        description: order.items.map((item) => `${item.platformName} ${item.typeName} ${item.durationName}`).join(', '),
        buyerEmail: buyer.email,
        buyerIp: context.ip,
        languageId: order.languageId,
        successUrl:
          provider.name === 'payssion'
            ? `${base}/payssionpaymentresult` // Payssion appends transaction_id and order_id (our reference)
            : `${base}/paymentresult/${order.id}/1${provider.name === 'stripe' ? '?session_id={CHECKOUT_SESSION_ID}' : ''}`,
        cancelUrl: `${base}/paymentresult/${order.id}/0`,
        notifyUrl: `${base}/api/webhook/${provider.name}`,
      });
      await this.payments.attachCheckout(payment.id, session.providerReference, session.url);
      return { url: session.url };
    } catch (error) {
      await this.payments.markAbandoned(payment.id, this.clock.now());
      this.logger.warn({ err: error, provider: provider.name, orderId: order.id }, 'could not start a checkout');
      throw error;
    }
  }

  /** A provider's notification: verified, confirmed where the signature does not cover the status, applied once. */
  async handleNotification(providerName: ProviderName, notification: IncomingNotification): Promise<NotificationAnswer> {
    const provider = this.providers.byName(providerName);
    if (!provider) throw new NotFoundError('This payment provider is not configured.', 'provider_disabled');
    let report: PaymentReport;
    try {
      report = provider.verifyNotification(notification);
    } catch (error) {
      if (error instanceof SignatureError) {
        this.logger.warn({ provider: providerName, reason: error.message }, 'refused a payment notification');
        throw new ValidationError('The notification could not be verified.', undefined, 'invalid_signature');
      }
      throw error;
    }
    if (provider.name === 'demo' && !this.demoServes(report.method)) {
      this.logger.warn({ method: report.method, reference: report.reference }, 'refused a demo payment: the demo provider no longer serves this method');
      throw new ConflictError('Demo payments are off: this checkout can no longer be paid.', 'demo_payments_off');
    }
    if (report.needsConfirmation) report = await this.confirm(provider, report);
    const outcome = await this.apply(provider.name, report, notification.rawBody.toString('utf8'));
    return { outcome, ...provider.acknowledgement };
  }

  /** What the demo checkout page shows for a token, or null when the token is not one or the demo no longer serves its method. */
  demoCheckout(token: string): DemoTokenData | null {
    const details = readDemoToken(token);
    return details && this.demoServes(details.method) ? details : null;
  }

  /**
   * A demo token was signed while the demo served its method; it may pay only while it still
   * does (demo payments allowed, and no real provider configured for the method since).
   */
  private demoServes(method: PaymentMethodId | undefined): boolean {
    return method !== undefined && this.config.allowDemoPayments && this.providers.isDemo(method);
  }

  /** checksessionpayssion: asks Payssion about the buyer's payment; true when the order is paid. */
  async checkPayssion(buyer: AuthenticatedUser, input: unknown): Promise<boolean> {
    const checked = validate(payssionCheckSchema, input);
    const orderId = Number(checked.orderId.split('-')[0]);
    const transactionId = checked.transactionId;
    const order = await this.orders.getOrder(buyer, orderId);
    const payment = (await this.payments.findForOrder(order.id)).find(
      (candidate) => candidate.provider === 'payssion' && (!transactionId || candidate.provider_reference === transactionId),
    );
    if (payment && payment.status === 'pending') await this.settleFromProvider(payment);
    return PAID_STATES.includes((await this.orders.getOrder(buyer, orderId)).state);
  }

  /** /api/payment/process: brings the order up to date with its provider (never marks paid by itself). */
  async processPayment(buyer: AuthenticatedUser, input: unknown): Promise<OrderView> {
    const { orderId } = validate(orderIdSchema, input);
    const order = await this.orders.getOrder(buyer, orderId);
    for (const payment of await this.payments.findForOrder(order.id)) {
      if (payment.status === 'pending' && payment.provider_reference) await this.settleFromProvider(payment).catch(() => undefined);
    }
    return this.orders.getOrder(buyer, orderId);
  }

  /** Job: asks providers about payments left pending (a lost notification must not lose a sale). */
  async reconcile(): Promise<{ checked: number }> {
    const stale = await this.payments.pendingBefore(new Date(this.clock.now().getTime() - RECONCILE_AFTER_MS), 100);
    for (const payment of stale) {
      await this.settleFromProvider(payment).catch((error: unknown) => this.logger.warn({ err: error, paymentId: payment.id }, 'reconciliation failed'));
    }
    return { checked: stale.length };
  }

  /** Job: orders unpaid for 24 hours expire (state 4), after one last question to the provider. */
  async expireUnpaid(): Promise<{ expired: number }> {
    const cutoff = new Date(this.clock.now().getTime() - UNPAID_LIFETIME_MS);
    let expired = 0;
    for (const orderId of await this.orders.unpaidCreatedBefore(cutoff)) {
      const payments = await this.payments.findForOrder(orderId);
      for (const payment of payments.filter((p) => p.status === 'pending' && p.provider_reference)) {
        await this.settleFromProvider(payment).catch(() => undefined);
      }
      const moved = await this.knex.transaction(async (trx) => {
        const done = await this.orders.moveTo(orderId, ORDER_STATE.expiredUnpaid, trx);
        if (done) {
          for (const payment of payments.filter((p) => p.status === 'pending')) await this.payments.settle(payment.id, 'expired', this.clock.now(), trx);
        }
        return done;
      });
      if (moved) expired += 1;
    }
    return { expired };
  }

  private async settleFromProvider(payment: PaymentRow): Promise<ApplyOutcome | undefined> {
    const provider = this.providers.byName(payment.provider as ProviderName);
    if (!provider || provider.name === 'demo') return undefined;
    const report = await provider.fetchStatus({
      reference: payment.reference ?? '',
      providerReference: payment.provider_reference,
      amount: { amount: Number(payment.amount_minor), currency: payment.currency as 'EUR' | 'KRW' },
    });
    if (report.reference !== undefined && report.reference !== payment.reference) {
      this.logger.warn({ provider: provider.name, paymentId: payment.id, reported: report.reference }, 'the provider answered about another payment: ignored');
      return undefined;
    }
    return this.apply(provider.name, { ...report, reference: payment.reference ?? undefined }, JSON.stringify({ source: 'status-query', report }));
  }

  /**
   * CoinPal's signature does not cover the status: believe only what its API says about the
   * payment the signed reference names, asked by the provider id we stored (never the posted one).
   */
  private async confirm(provider: PaymentProvider, report: PaymentReport): Promise<PaymentReport> {
    const payment = await this.payments.findByReference(provider.name, report.reference);
    if (!payment) return { ...report, status: 'unknown', needsConfirmation: false };
    this.bind(provider.name, payment, report);
    let confirmed: PaymentReport;
    try {
      confirmed = await provider.fetchStatus({
        reference: payment.reference ?? '',
        providerReference: payment.provider_reference,
        amount: { amount: Number(payment.amount_minor), currency: payment.currency as 'EUR' | 'KRW' },
      });
    } catch (error) {
      throw new UnavailableError('The payment provider could not confirm this payment; try again later.', 'provider_unavailable', error);
    }
    // The event is what the provider confirmed for this reference: a "paid" claim that CoinPal
    // denies must not use up the id of the real "paid" notification that follows, and unsigned
    // fields cannot make one confirmed status count twice.
    return {
      ...report,
      eventId: `${payment.reference}:${confirmed.status}`,
      providerReference: confirmed.providerReference ?? report.providerReference,
      status: confirmed.status,
      amount: confirmed.amount,
      needsConfirmation: false,
    };
  }

  /**
   * Refuses (400, nothing recorded) a message whose other fields name another payment than its
   * signed reference: a provider id that is not the stored one, another order, method, or a
   * signed order amount that is not the payment's.
   */
  private bind(providerName: ProviderName, payment: PaymentRow | undefined, report: PaymentReport): void {
    if (!payment) return;
    const differs: string[] = [];
    if (report.providerReference !== undefined && payment.provider_reference !== null && report.providerReference !== payment.provider_reference) {
      differs.push('provider reference');
    }
    if (report.orderId !== undefined && report.orderId !== payment.order_id) differs.push('order');
    if (report.method !== undefined && report.method !== payment.method) differs.push('method');
    const signed = report.signedOrderAmount;
    if (signed && (signed.amount !== Number(payment.amount_minor) || signed.currency !== payment.currency)) differs.push('amount');
    if (differs.length === 0) return;
    this.logger.warn(
      { provider: providerName, paymentId: payment.id, orderId: payment.order_id, eventType: report.eventType, differs },
      'refused a payment notification whose unsigned fields name another payment',
    );
    throw new ValidationError('The notification does not match the payment it names.', undefined, 'notification_mismatch');
  }

  /** Applies one verified report exactly once, to the payment its signed reference names. */
  private async apply(providerName: ProviderName, report: PaymentReport, payload: string): Promise<ApplyOutcome> {
    return this.knex.transaction(async (trx) => {
      const now = this.clock.now();
      // Locked first: copies of one event wait here, then find their event already recorded.
      const payment = await this.payments.findByReference(providerName, report.reference, trx);
      this.bind(providerName, payment, report);
      const eventRow = await this.payments.recordEvent(
        { provider: providerName, event_id: report.eventId, event_type: report.eventType, payload: { raw: payload }, received_at: now },
        trx,
      );
      if (eventRow === undefined) return 'duplicate';
      const finish = async (outcome: ApplyOutcome) => {
        await this.payments.finishEvent(eventRow, outcome, { payment_id: payment?.id, order_id: payment?.order_id }, now, trx);
        return outcome;
      };
      if (!payment) return finish('unknown_payment');

      switch (report.status) {
        case 'paid': {
          if (payment.status === 'paid') return finish('already_paid');
          const expected = { amount: Number(payment.amount_minor), currency: payment.currency };
          if (!report.amount || report.amount.amount !== expected.amount || report.amount.currency !== expected.currency) {
            this.logger.error(
              { paymentId: payment.id, expected, reported: report.amount },
              'paid amount does not match the order: not fulfilled, staff must look',
            );
            return finish('amount_mismatch');
          }
          await this.payments.settle(payment.id, 'paid', now, trx);
          const activated = await this.orders.markPaid(payment.order_id, payment.method, trx);
          if (!activated) this.logger.warn({ paymentId: payment.id, orderId: payment.order_id }, 'a second payment arrived for a paid order: refund it');
          return finish(activated ? 'paid' : 'paid_twice');
        }
        case 'failed':
          if (payment.status !== 'pending') return finish('noted');
          await this.payments.settle(payment.id, 'failed', now, trx);
          await this.orders.moveTo(payment.order_id, ORDER_STATE.paymentFailed, trx);
          return finish('failed');
        case 'expired':
          if (payment.status !== 'pending') return finish('noted');
          await this.payments.settle(payment.id, 'expired', now, trx);
          return finish('expired');
        case 'refunded':
          await this.payments.settle(payment.id, 'refunded', now, trx);
          await this.orders.moveTo(payment.order_id, ORDER_STATE.refunded, trx);
          return finish('refunded');
        default:
          return finish('noted');
      }
    });
  }
}
