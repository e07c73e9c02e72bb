/**
 * Saved cards for automatic renewal: the payments module's part of issue 28. A buyer who ticks
 * "Renew automatically" pays by card through a Checkout Session made on their Stripe Customer with
 * `setup_future_usage=off_session`; the card that paid is then charged without them at each end
 * date, through a PaymentIntent with `off_session` and `confirm`.
 *
 * This service only talks to the provider and to the payments tables. Which subscription renews,
 * when, and what a result means for the order is `flows/renewal.flow.ts`; a charge's verified
 * result goes through the same path as every provider report (`PaymentNotificationFlow`).
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { AppConfig } from '../../shared/config.js';
import type { Clock } from '../../shared/clock.js';
import { fail } from '../../shared/errors.js';
import { TOKENS } from '../../shared/tokens.js';
import { idempotencyKey } from './idempotency-keys.js';
import { installationIdReader } from './installation.js';
import { PaymentRepository } from './payment.repository.js';
import type { PaymentView, PaymentProviders, VerifiedReport } from './payments.service.js';
import type { OffSessionChargeResult, PaymentProvider, SavedCard, SavedCardCharging } from './providers/provider.js';
import { PAYMENT_PROVIDERS } from './tokens.js';

export type { SavedCard } from './providers/provider.js';

/** An off-session charge's result, with the verified report to apply through the normal payment path when there is one. */
export interface SavedCardChargeResult extends Omit<OffSessionChargeResult, 'report'> {
  verified?: VerifiedReport;
}

@injectable()
export class SavedCardsService {
  constructor(
    @inject(TOKENS.Config) private readonly config: AppConfig,
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(PaymentRepository) private readonly payments: PaymentRepository,
    @inject(PAYMENT_PROVIDERS) private readonly providers: PaymentProviders,
  ) {
    this.installationId = installationIdReader(knex);
  }

  /** Prefixes every key this service sends (idempotency-keys.ts). */
  private readonly installationId: () => Promise<string>;

  /**
   * Whether card payments (method 1) can save a card here: Stripe, or in demo mode the demo
   * provider serving the card method (its demo cards pay or decline at once: issue 34).
   */
  get available(): boolean {
    return this.cardProvider() !== undefined;
  }

  /**
   * Whether a buyer can save a card without paying (Stripe's setup-mode Checkout: the card-update
   * page, and turning renewal on after a payment without the opt-in). The demo has no such page:
   * its cards are saved only by paying with "Renew automatically" ticked.
   */
  get cardPages(): boolean {
    return this.cardProvider()?.name === 'stripe';
  }

  /** The buyer's Stripe Customer: made once (a race of two makes one, by the shared Idempotency-Key and the table's key). */
  async customerOf(buyer: { id: number; email: string }): Promise<string> {
    // The demo's customer is a name made from the buyer, never stored: a Stripe configured later makes real ones.
    if (this.cardProvider()?.name === 'demo') return this.charging().createCustomer({ userId: buyer.id, email: buyer.email, idempotencyKey: '' });
    const known = await this.knex('stripe_customers').where({ user_id: buyer.id }).first<{ customer_id: string } | undefined>();
    if (known) return known.customer_id;
    const cards = this.charging();
    const customerId = await cards.createCustomer({
      userId: buyer.id,
      email: buyer.email,
      idempotencyKey: idempotencyKey(await this.installationId(), 'customer', buyer.id),
    });
    await this.knex('stripe_customers').insert({ user_id: buyer.id, customer_id: customerId, created_at: this.clock.now() }).onConflict('user_id').ignore();
    const stored = await this.knex('stripe_customers').where({ user_id: buyer.id }).first<{ customer_id: string }>();
    return stored.customer_id;
  }

  /** The card a paid card payment saved (asked of Stripe by its PaymentIntent); undefined when it saved none or is not paid. */
  async cardOfPayment(paymentId: number): Promise<SavedCard | undefined> {
    const payment = await this.payments.findById(paymentId);
    if (!payment || payment.provider !== this.cardProvider()?.name || !payment.save_card || payment.status !== 'paid' || !payment.provider_payment_id)
      return undefined;
    return this.charging().cardOfPayment(payment.provider_payment_id);
  }

  /**
   * Charges the saved card for an opened payment (off-session, confirmed at once). The same
   * `attempt` key always sends the same request, so a worker killed mid-charge, a retried job or a
   * second worker get Stripe's first answer back, never a second charge.
   */
  async charge(
    payment: PaymentView,
    card: Pick<SavedCard, 'customerId' | 'paymentMethodId'>,
    description: string,
    attempt: string,
  ): Promise<SavedCardChargeResult> {
    const { report, ...result } = await this.charging().chargeOffSession({
      reference: payment.reference,
      orderId: payment.orderId,
      amount: payment.charged, // the rest of the amount was paid from credit
      description,
      card,
      idempotencyKey: idempotencyKey(await this.installationId(), 'renewal', attempt),
    });
    if (result.paymentIntentId) await this.payments.attachOffSessionCharge(payment.id, result.paymentIntentId);
    const verified: VerifiedReport | undefined = report && {
      provider: this.cardProvider()!.name,
      report: { ...report, reference: payment.reference },
      payload: JSON.stringify({ source: 'off-session-charge', report }),
    };
    return { ...result, ...(verified ? { verified } : {}) };
  }

  /**
   * A setup-mode Checkout where the buyer saves a card (a new one in dunning, a first one to turn
   * renewal on); one per `purpose` key. Stripe sends the buyer back to these paths of the shop.
   */
  async cardUpdatePage(
    customerId: string,
    currency: string,
    purpose: string,
    back: { success: string; cancel: string },
  ): Promise<{ sessionId: string; url: string }> {
    return this.charging().cardUpdateCheckout({
      customerId,
      currency,
      successUrl: `${this.config.publicUrl}${back.success}`,
      cancelUrl: `${this.config.publicUrl}${back.cancel}`,
      idempotencyKey: idempotencyKey(await this.installationId(), 'card-update', purpose),
    });
  }

  /** The card saved on a card-update page, once the buyer finished it. */
  async cardOfUpdate(sessionId: string): Promise<SavedCard | undefined> {
    return this.charging().cardOfUpdate(sessionId);
  }

  private cardProvider(): (PaymentProvider & { savedCards: SavedCardCharging }) | undefined {
    const provider = this.providers.forMethod(1);
    // Demo cards only in demo mode (`npm start` without DATABASE_URL), the newcomer's shop: a
    // production shop that allows demo payments (ALLOW_DEMO_PAYMENTS) saves no card without a real provider.
    if (provider.name === 'demo' && this.config.mode !== 'demo') return undefined;
    return provider.savedCards ? (provider as PaymentProvider & { savedCards: SavedCardCharging }) : undefined;
  }

  private charging(): SavedCardCharging {
    const provider = this.cardProvider();
    if (!provider) throw fail('autorenew_unavailable');
    return provider.savedCards;
  }
}
