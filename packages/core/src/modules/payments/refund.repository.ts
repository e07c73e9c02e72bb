import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { raw } from 'objection';
import { fail } from '../../shared/errors.js';
import { TOKENS } from '../../shared/tokens.js';
import { PaymentDisputeModel, RefundModel, type DisputeStatus, type RefundRow, type RefundStatus } from './models/payment.model.js';

export type { RefundRow, RefundSource, RefundStatus, DisputeStatus } from './models/payment.model.js';

export type NewRefund = Pick<
  RefundRow,
  | 'order_id'
  | 'payment_id'
  | 'source'
  | 'status'
  | 'amount_minor'
  | 'fee_minor'
  | 'currency'
  | 'provider_refund_id'
  | 'manual_reference'
  | 'reason'
  | 'override_window'
  | 'actor_user_id'
  | 'actor_label'
  | 'created_at'
  | 'completed_at'
> &
  Partial<Pick<RefundRow, 'credit_minor'>>;

const ONE_PENDING_PER_PAYMENT = 'refunds_one_pending_per_payment';
const PG_UNIQUE_VIOLATION = '23505';

@injectable()
export class RefundRepository {
  constructor(@inject(TOKENS.Knex) private readonly knex: Knex) {}

  /** A new refund row; a second pending refund of one payment is a 409 `refund_in_progress` (two clicks, two staff). */
  async insert(refund: NewRefund, trx: Knex.Transaction): Promise<RefundRow> {
    try {
      return await trx.transaction(
        async (savepoint) =>
          await RefundModel.query(savepoint)
            .insert({ ...refund, updated_at: refund.created_at })
            .returning('*'),
      );
    } catch (error) {
      const { code, constraint } = ((error as { nativeError?: unknown }).nativeError ?? error) as { code?: string; constraint?: string };
      if (code === PG_UNIQUE_VIOLATION && constraint === ONE_PENDING_PER_PAYMENT) {
        throw fail('refund_in_progress', undefined, { cause: error });
      }
      throw error;
    }
  }

  /** The payment's refunds, in or outside a transaction. */
  async ofPaymentAnyway(paymentId: number, trx?: Knex.Transaction): Promise<RefundRow[]> {
    return RefundModel.query(trx ?? this.knex)
      .where({ payment_id: paymentId })
      .orderBy('id');
  }

  async ofPayment(paymentId: number, trx: Knex.Transaction): Promise<RefundRow[]> {
    return RefundModel.query(trx).where({ payment_id: paymentId }).orderBy('id');
  }

  async ofOrder(orderId: number, trx?: Knex.Transaction): Promise<RefundRow[]> {
    return RefundModel.query(trx ?? this.knex)
      .where({ order_id: orderId })
      .orderBy('id');
  }

  /** The order's refunds, oldest first, each with the payment it gave back (not locked). */
  async ofOrderWithPayments(orderId: number, trx?: Knex.Transaction): Promise<RefundModel[]> {
    return RefundModel.query(trx ?? this.knex)
      .where({ order_id: orderId })
      .orderBy('id')
      .withGraphFetched('payment');
  }

  async findById(id: number, trx?: Knex.Transaction): Promise<RefundRow | undefined> {
    return RefundModel.query(trx ?? this.knex).findById(id);
  }

  /** The provider confirmed it: the money has gone back. */
  async complete(id: number, providerRefundId: string | null, at: Date, trx: Knex.Transaction): Promise<RefundRow> {
    const [row] = await RefundModel.query(trx)
      .patch({ status: 'succeeded', provider_refund_id: raw('coalesce(provider_refund_id, ?)', [providerRefundId]), completed_at: at, updated_at: at })
      .where({ id })
      .returning('*');
    return row!;
  }

  /** The provider's id of a refund it accepted as pending (its later events name it). */
  async rememberProviderId(id: number, providerRefundId: string, at: Date, trx: Knex.Transaction): Promise<void> {
    await RefundModel.query(trx).patch({ provider_refund_id: providerRefundId, updated_at: at }).where({ id, status: 'pending' });
  }

  /** Why the last try of a pending refund got no answer (it stays pending). */
  async note(id: number, error: string, at: Date): Promise<void> {
    await RefundModel.query(this.knex)
      .patch({ error: error.slice(0, 500), updated_at: at })
      .where({ id, status: 'pending' });
  }

  /** The provider refused, or the refund failed later: nothing went back (staff may try again). */
  async fail(id: number, error: string, at: Date, trx?: Knex.Transaction): Promise<void> {
    await RefundModel.query(trx ?? this.knex)
      .patch({ status: 'failed', error: error.slice(0, 500), updated_at: at })
      .where({ id, status: 'pending' });
  }

  /** Succeeded refunds per day of completion (UTC) in [from, to): the orders and amounts, for the dashboard. */
  async succeededBetween(from: Date, to: Date): Promise<Array<{ order_id: number; amount_minor: number; currency: string; completed_at: Date }>> {
    const rows = await this.knex('refunds')
      .where({ status: 'succeeded' })
      .where('completed_at', '>=', from)
      .where('completed_at', '<', to)
      .select('order_id', 'amount_minor', 'currency', 'completed_at');
    return rows.map((row: { order_id: string | number; amount_minor: string | number; currency: string; completed_at: Date }) => ({
      order_id: Number(row.order_id),
      amount_minor: Number(row.amount_minor),
      currency: row.currency,
      completed_at: row.completed_at,
    }));
  }

  /** The shop's refunds of second payments (issue 34) by status and currency: how many, and how much, for the dashboard. */
  async doublePaymentTotals(): Promise<Array<{ status: RefundStatus; currency: string; count: number; amount_minor: number }>> {
    const rows = await this.knex('refunds')
      .where({ source: 'double_payment' })
      .groupBy('status', 'currency')
      .select<Array<{ status: RefundStatus; currency: string; count: string | number; total: string | number }>>(
        'status',
        'currency',
        this.knex.raw('count(*) as count'),
        this.knex.raw('sum(amount_minor) as total'),
      );
    return rows.map((row) => ({ status: row.status, currency: row.currency, count: Number(row.count), amount_minor: Number(row.total) }));
  }

  /** Refunds of second payments still pending, last tried before `before`: the ones to send again. */
  async pendingDoublePayments(before: Date, limit: number): Promise<RefundRow[]> {
    return RefundModel.query(this.knex).where({ source: 'double_payment', status: 'pending' }).where('updated_at', '<', before).orderBy('id').limit(limit);
  }

  /** The refunded amount (succeeded) of each order, in the order's currency minor units. */
  async refundedByOrder(orderIds: number[]): Promise<Map<number, number>> {
    if (orderIds.length === 0) return new Map();
    const rows = await this.knex('refunds')
      .where({ status: 'succeeded' })
      .whereIn('order_id', orderIds)
      .groupBy('order_id')
      .select<Array<{ order_id: string | number; total: string | number }>>('order_id', this.knex.raw('sum(amount_minor) as total'));
    return new Map(rows.map((row) => [Number(row.order_id), Number(row.total)]));
  }

  /**
   * Records what a dispute event says, once per dispute whichever event comes first: answers the
   * status it had before (undefined when this event opened the record) and the one it has now.
   * A closed dispute never reopens, and "won" and "lost" are final.
   */
  async recordDispute(
    dispute: { provider: string; disputeId: string; paymentId: number; status: DisputeStatus },
    at: Date,
    trx: Knex.Transaction,
  ): Promise<{ before?: DisputeStatus; now: DisputeStatus }> {
    const existing = await PaymentDisputeModel.query(trx).findOne({ provider: dispute.provider, dispute_id: dispute.disputeId }).forUpdate();
    if (!existing) {
      // knex's builder: objection answers the object it was given, also when the conflict inserted nothing.
      const inserted = await trx(PaymentDisputeModel.tableName)
        .insert({
          provider: dispute.provider,
          dispute_id: dispute.disputeId,
          payment_id: dispute.paymentId,
          status: dispute.status,
          opened_at: dispute.status === 'open' ? at : null,
          closed_at: dispute.status === 'open' ? null : at,
          updated_at: at,
        })
        .onConflict(['provider', 'dispute_id'])
        .ignore()
        .returning('id');
      // A concurrent copy inserted it first (the payment lock makes this rare): read it again.
      if (inserted.length === 0) return this.recordDispute(dispute, at, trx);
      return { now: dispute.status };
    }
    const before = existing.status;
    if (before !== 'open' || dispute.status === 'open') return { before, now: before };
    await PaymentDisputeModel.query(trx).findById(existing.id).patch({ status: dispute.status, closed_at: at, updated_at: at });
    return { before, now: dispute.status };
  }
}
