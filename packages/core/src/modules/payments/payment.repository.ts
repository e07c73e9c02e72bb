import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { TOKENS } from '../../shared/tokens.js';

export interface PaymentRow {
  id: number;
  order_id: number;
  provider: string;
  method: number;
  reference: string | null;
  provider_reference: string | null;
  /** The provider's id of the money (Stripe's payment_intent), stored from the signed paid event. */
  provider_payment_id: string | null;
  amount_minor: number;
  currency: string;
  status: 'pending' | 'paid' | 'failed' | 'expired' | 'refunded';
  checkout_url: string | null;
  created_at: Date;
  settled_at: Date | null;
}

@injectable()
export class PaymentRepository {
  constructor(@inject(TOKENS.Knex) private readonly knex: Knex) {}

  async create(
    payment: { order_id: number; provider: string; method: number; amount_minor: number; currency: string; created_at: Date },
    trx: Knex.Transaction,
  ): Promise<PaymentRow> {
    const [row] = await trx('payments')
      .insert({ ...payment, status: 'pending', updated_at: payment.created_at })
      .returning('*');
    const reference = `${payment.order_id}-${row.id}`;
    await trx('payments').where({ id: row.id }).update({ reference });
    return { ...row, reference };
  }

  async attachCheckout(id: number, providerReference: string, checkoutUrl: string): Promise<void> {
    await this.knex('payments').where({ id }).update({ provider_reference: providerReference, checkout_url: checkoutUrl, updated_at: new Date() });
  }

  /** The provider's id of the money, learnt after the fact (a payment older than the column). */
  async rememberProviderPaymentId(id: number, providerPaymentId: string): Promise<void> {
    await this.knex('payments').where({ id }).whereNull('provider_payment_id').update({ provider_payment_id: providerPaymentId, updated_at: new Date() });
  }

  async markAbandoned(id: number, at: Date): Promise<void> {
    await this.knex('payments').where({ id, status: 'pending' }).update({ status: 'failed', updated_at: at });
  }

  /**
   * The payment with our reference, locked when inside a transaction. Only by our reference: a
   * provider's id is not covered by every signature, so it never decides which payment a
   * message is about (the caller compares it with the stored one).
   */
  async findByReference(provider: string, reference: string | undefined, trx?: Knex.Transaction): Promise<PaymentRow | undefined> {
    if (!reference) return undefined;
    const query = (trx ?? this.knex)('payments').where({ provider, reference });
    return (trx ? query.forUpdate() : query).first();
  }

  /** The payment with the provider's id of its money (Stripe charge and dispute events name it so), locked when inside a transaction. */
  async findByProviderPaymentId(provider: string, providerPaymentId: string | undefined, trx?: Knex.Transaction): Promise<PaymentRow | undefined> {
    if (!providerPaymentId) return undefined;
    const query = (trx ?? this.knex)('payments').where({ provider, provider_payment_id: providerPaymentId });
    return (trx ? query.forUpdate() : query).first();
  }

  async findById(id: number, trx?: Knex.Transaction): Promise<PaymentRow | undefined> {
    const query = (trx ?? this.knex)('payments').where({ id });
    return (trx ? query.forUpdate() : query).first();
  }

  async findForOrder(orderId: number, trx?: Knex.Transaction): Promise<PaymentRow[]> {
    return (trx ?? this.knex)('payments').where({ order_id: orderId }).orderBy('id', 'desc');
  }

  async settle(id: number, status: PaymentRow['status'], at: Date, trx: Knex.Transaction, providerPaymentId?: string): Promise<void> {
    await trx('payments')
      .where({ id })
      .update({
        status,
        updated_at: at,
        ...(status === 'paid' ? { settled_at: at } : {}),
        ...(providerPaymentId ? { provider_payment_id: providerPaymentId } : {}),
      });
  }

  /** Records a provider event once; false when it was recorded before (a duplicate delivery). */
  async recordEvent(
    event: { provider: string; event_id: string; event_type: string; payload: unknown; received_at: Date },
    trx: Knex.Transaction,
  ): Promise<number | undefined> {
    const rows = await trx('payment_events')
      .insert({ ...event, payload: JSON.stringify(event.payload) })
      .onConflict(['provider', 'event_id'])
      .ignore()
      .returning('id');
    return rows[0]?.id;
  }

  async finishEvent(id: number, outcome: string, links: { payment_id?: number; order_id?: number }, at: Date, trx: Knex.Transaction): Promise<void> {
    await trx('payment_events')
      .where({ id })
      .update({ outcome, processed_at: at, ...links });
  }

  /** Pending payments that have a provider reference and are older than `before`. */
  async pendingBefore(before: Date, limit: number): Promise<PaymentRow[]> {
    return this.knex('payments').where({ status: 'pending' }).whereNotNull('provider_reference').where('created_at', '<', before).orderBy('id').limit(limit);
  }
}
