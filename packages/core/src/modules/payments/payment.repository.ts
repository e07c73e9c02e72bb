import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { insertRowUnlessConflict, sqlRows, updateById } from '../../shared/database.js';
import { TOKENS } from '../../shared/tokens.js';
import { PaymentModel, type PaymentRow } from './models/payment.model.js';

export type { PaymentRow } from './models/payment.model.js';

@injectable()
export class PaymentRepository {
  constructor(@inject(TOKENS.Knex) private readonly knex: Knex) {}

  async create(
    payment: { order_id: number; provider: string; method: number; amount_minor: number; currency: string; created_at: Date; save_card?: boolean },
    trx: Knex.Transaction,
  ): Promise<PaymentRow> {
    // Our reference is `<order id>-<payment id>`: the id is drawn first, so that one statement
    // writes the row with its reference.
    const [row] = await sqlRows<PaymentRow>(
      trx,
      `with drawn as (select nextval(pg_get_serial_sequence('payments', 'id')) as id)
       insert into payments (id, order_id, provider, method, amount_minor, currency, created_at, updated_at, status, reference, save_card)
       select drawn.id, $1::int, $2, $3, $4, $5, $6, $6, 'pending', concat($1::int, '-', drawn.id), $7 from drawn
       returning *`,
      [payment.order_id, payment.provider, payment.method, payment.amount_minor, payment.currency, payment.created_at, payment.save_card ?? false],
    );
    return row!;
  }

  /** The part of a pending payment paid from credit; `covered`: all of it, so its provider is `credit` (paid without one). */
  async takeCredit(id: number, creditMinor: number, covered: boolean, trx: Knex.Transaction): Promise<PaymentRow> {
    const [row] = await trx('payments')
      .where({ id, status: 'pending' })
      .update({ credit_minor: creditMinor, ...(covered ? { provider: 'credit' } : {}), updated_at: new Date() })
      .returning('*');
    if (!row) throw new Error(`payment ${id} is not pending: no credit can be taken for it`);
    return row as PaymentRow;
  }

  /** Each order's credit applied: its paid payment's `credit_minor`, else its open one's (orders without either are left out). */
  async creditOfOrders(orderIds: number[]): Promise<Map<number, number>> {
    if (orderIds.length === 0) return new Map();
    const rows = await sqlRows<{ order_id: number; credit_minor: string }>(
      this.knex,
      `select distinct on (order_id) order_id, credit_minor from payments
        where order_id = any($1::bigint[]) and status in ('paid', 'refunded', 'pending')
        order by order_id, (status <> 'pending') desc, id desc`,
      [orderIds],
    );
    return new Map(rows.map((row) => [Number(row.order_id), Number(row.credit_minor)]));
  }

  /** Paid payments settled in [from, to) that were paid partly or wholly from credit: the dashboard's revenue leaves that part out. */
  async paidWithCreditIn(from: Date, to: Date): Promise<Array<{ order_id: number; credit_minor: number; currency: string; settled_at: Date }>> {
    const rows: Array<{ order_id: number; credit_minor: string; currency: string; settled_at: Date }> = await this.knex('payments')
      .select('order_id', 'credit_minor', 'currency', 'settled_at')
      .whereIn('status', ['paid', 'refunded'])
      .where('credit_minor', '>', 0)
      .where('settled_at', '>=', from)
      .where('settled_at', '<', to);
    return rows.map((row) => ({ ...row, order_id: Number(row.order_id), credit_minor: Number(row.credit_minor) }));
  }

  async attachCheckout(id: number, providerReference: string, checkoutUrl: string): Promise<void> {
    await updateById(this.knex, 'payments', id, { provider_reference: providerReference, checkout_url: checkoutUrl, updated_at: new Date() });
  }

  /** An off-session charge's PaymentIntent: both the provider's id for the attempt and of its money (reconciliation asks by it). */
  async attachOffSessionCharge(id: number, paymentIntentId: string): Promise<void> {
    await PaymentModel.query(this.knex).findById(id).whereNull('provider_reference').patch({ provider_reference: paymentIntentId, updated_at: new Date() });
  }

  /** The provider's id of the money, learnt after the fact (a payment older than the column). */
  async rememberProviderPaymentId(id: number, providerPaymentId: string): Promise<void> {
    await PaymentModel.query(this.knex).findById(id).whereNull('provider_payment_id').patch({ provider_payment_id: providerPaymentId, updated_at: new Date() });
  }

  /** A checkout closed at the provider: its payment, if still pending, will not be paid (a notification applied meanwhile wins). */
  async expireIfPending(id: number, at: Date): Promise<void> {
    await PaymentModel.query(this.knex).findById(id).where({ status: 'pending' }).patch({ status: 'expired', updated_at: at });
  }

  async markAbandoned(id: number, at: Date): Promise<void> {
    await PaymentModel.query(this.knex).findById(id).where({ status: 'pending' }).patch({ status: 'failed', updated_at: at });
  }

  /**
   * The payment with our reference, locked when inside a transaction. Only by our reference: a
   * provider's id is not covered by every signature, so it never decides which payment a
   * message is about (the caller compares it with the stored one).
   */
  async findByReference(provider: string, reference: string | undefined, trx?: Knex.Transaction): Promise<PaymentRow | undefined> {
    if (!reference) return undefined;
    const [row] = await sqlRows<PaymentRow>(
      trx ?? this.knex,
      `select * from payments where provider = $1 and reference = $2 limit 1${trx ? ' for update' : ''}`,
      [provider, reference],
    );
    return row;
  }

  /** The payment with the provider's id of its money (Stripe charge and dispute events name it so), locked when inside a transaction. */
  async findByProviderPaymentId(provider: string, providerPaymentId: string | undefined, trx?: Knex.Transaction): Promise<PaymentRow | undefined> {
    if (!providerPaymentId) return undefined;
    const query = PaymentModel.query(trx ?? this.knex).findOne({ provider, provider_payment_id: providerPaymentId });
    return trx ? query.forUpdate() : query;
  }

  async findById(id: number, trx?: Knex.Transaction): Promise<PaymentRow | undefined> {
    const query = PaymentModel.query(trx ?? this.knex).findById(id);
    return trx ? query.forUpdate() : query;
  }

  /** The earliest paid payment (paid or refunded since) of these orders, by when it was paid. */
  async firstPaidAmong(orderIds: number[]): Promise<PaymentRow | undefined> {
    return PaymentModel.query(this.knex)
      .whereIn('order_id', orderIds)
      .whereIn('status', ['paid', 'refunded'])
      .whereNotNull('settled_at')
      .orderBy([{ column: 'settled_at' }, { column: 'id' }])
      .first();
  }

  async cardFingerprintsAmong(orderIds: number[]): Promise<string[]> {
    const rows = await this.knex('payments')
      .distinct('card_fingerprint')
      .whereIn('order_id', orderIds)
      .whereIn('status', ['paid', 'refunded'])
      .whereNotNull('card_fingerprint');
    return rows.map((row: { card_fingerprint: string }) => row.card_fingerprint);
  }

  async findForOrder(orderId: number, trx?: Knex.Transaction): Promise<PaymentRow[]> {
    return PaymentModel.query(trx ?? this.knex)
      .where({ order_id: orderId })
      .orderBy('id', 'desc');
  }

  /** Which of these orders have a payment whose money arrived (paid, or refunded since). */
  async orderIdsWithMoney(orderIds: number[], trx?: Knex.Transaction): Promise<number[]> {
    if (orderIds.length === 0) return [];
    const ids = await (trx ?? this.knex)('payments')
      .whereIn('order_id', orderIds)
      .whereIn('status', ['paid', 'refunded'])
      .distinct()
      .pluck<Array<number | string>>('order_id');
    return ids.map(Number);
  }

  /**
   * The order's payments, newest first, each with whether it is a second payment of the order
   * (the shop refunds it: a `double_payment` refund), in one statement: every notification reads this.
   */
  async ofOrderWithSecond(orderId: number, trx?: Knex.Transaction): Promise<Array<{ payment: PaymentRow; second: boolean }>> {
    const db = trx ?? this.knex;
    const found: Array<PaymentRow & { second: boolean }> = await db('payments')
      .where({ order_id: orderId })
      .orderBy('id', 'desc')
      .select('payments.*', db.raw(`exists (select 1 from refunds where refunds.payment_id = payments.id and refunds.source = 'double_payment') as second`));
    return found.map(({ second, ...payment }) => ({ payment: payment as PaymentRow, second }));
  }

  async settle(id: number, status: PaymentRow['status'], at: Date, trx: Knex.Transaction, providerPaymentId?: string, cardFingerprint?: string): Promise<void> {
    await updateById(trx, 'payments', id, {
      status,
      updated_at: at,
      ...(status === 'paid' ? { settled_at: at } : {}),
      ...(providerPaymentId ? { provider_payment_id: providerPaymentId } : {}),
      ...(cardFingerprint ? { card_fingerprint: cardFingerprint } : {}),
    });
  }

  /** Records a provider event once; false when it was recorded before (a duplicate delivery). */
  async recordEvent(
    event: { provider: string; event_id: string; event_type: string; payload: unknown; received_at: Date },
    trx: Knex.Transaction,
  ): Promise<number | undefined> {
    const row = await insertRowUnlessConflict<{ id: number }>(
      trx,
      'payment_events',
      { ...event, payload: JSON.stringify(event.payload) },
      {
        conflictOn: ['provider', 'event_id'],
        returning: 'id',
      },
    );
    return row?.id;
  }

  async finishEvent(id: number, outcome: string, links: { payment_id?: number; order_id?: number }, at: Date, trx: Knex.Transaction): Promise<void> {
    await updateById(trx, 'payment_events', id, { outcome, processed_at: at, ...links });
  }

  /** Pending payments that have a provider reference and are older than `before`. */
  async pendingBefore(before: Date, limit: number): Promise<PaymentRow[]> {
    return PaymentModel.query(this.knex)
      .where({ status: 'pending' })
      .whereNotNull('provider_reference')
      .where('created_at', '<', before)
      .orderBy('id')
      .limit(limit);
  }
}
