import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { fail } from '../../shared/errors.js';
import { TOKENS } from '../../shared/tokens.js';

/** `double_payment`: the shop's own refund of an order's second successful payment (issue 34). */
export type RefundSource = 'staff' | 'provider' | 'chargeback' | 'double_payment';
export type RefundStatus = 'pending' | 'succeeded' | 'failed';

export interface RefundRow {
  id: number;
  order_id: number;
  payment_id: number;
  source: RefundSource;
  status: RefundStatus;
  amount_minor: number;
  fee_minor: number;
  currency: string;
  provider_refund_id: string | null;
  manual_reference: string | null;
  reason: string | null;
  override_window: boolean;
  actor_user_id: number | null;
  actor_label: string | null;
  error: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

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
>;

export type DisputeStatus = 'open' | 'won' | 'lost';

const ONE_PENDING_PER_PAYMENT = 'refunds_one_pending_per_payment';
const PG_UNIQUE_VIOLATION = '23505';

@injectable()
export class RefundRepository {
  constructor(@inject(TOKENS.Knex) private readonly knex: Knex) {}

  /** A new refund row; a second pending refund of one payment is a 409 `refund_in_progress` (two clicks, two staff). */
  async insert(refund: NewRefund, trx: Knex.Transaction): Promise<RefundRow> {
    try {
      const [row] = await trx.transaction((savepoint) =>
        savepoint('refunds')
          .insert({ ...refund, updated_at: refund.created_at })
          .returning('*'),
      );
      return normalize(row);
    } catch (error) {
      const { code, constraint } = ((error as { nativeError?: unknown }).nativeError ?? error) as { code?: string; constraint?: string };
      if (code === PG_UNIQUE_VIOLATION && constraint === ONE_PENDING_PER_PAYMENT) {
        throw fail('refund_in_progress', undefined, { cause: error });
      }
      throw error;
    }
  }

  async ofPayment(paymentId: number, trx: Knex.Transaction): Promise<RefundRow[]> {
    return (await trx('refunds').where({ payment_id: paymentId }).orderBy('id')).map(normalize);
  }

  async ofOrder(orderId: number, trx?: Knex.Transaction): Promise<RefundRow[]> {
    return (await (trx ?? this.knex)('refunds').where({ order_id: orderId }).orderBy('id')).map(normalize);
  }

  async findById(id: number, trx?: Knex.Transaction): Promise<RefundRow | undefined> {
    const row = await (trx ?? this.knex)('refunds').where({ id }).first();
    return row && normalize(row);
  }

  /** The provider confirmed it: the money has gone back. */
  async complete(id: number, providerRefundId: string | null, at: Date, trx: Knex.Transaction): Promise<RefundRow> {
    const [row] = await trx('refunds')
      .where({ id })
      .update({ status: 'succeeded', provider_refund_id: trx.raw('coalesce(provider_refund_id, ?)', [providerRefundId]), completed_at: at, updated_at: at })
      .returning('*');
    return normalize(row);
  }

  /** The provider's id of a refund it accepted as pending (its later events name it). */
  async rememberProviderId(id: number, providerRefundId: string, at: Date, trx: Knex.Transaction): Promise<void> {
    await trx('refunds').where({ id, status: 'pending' }).update({ provider_refund_id: providerRefundId, updated_at: at });
  }

  /** Why the last try of a pending refund got no answer (it stays pending). */
  async note(id: number, error: string, at: Date): Promise<void> {
    await this.knex('refunds')
      .where({ id, status: 'pending' })
      .update({ error: error.slice(0, 500), updated_at: at });
  }

  /** The provider refused, or the refund failed later: nothing went back (staff may try again). */
  async fail(id: number, error: string, at: Date, trx?: Knex.Transaction): Promise<void> {
    await (trx ?? this.knex)('refunds')
      .where({ id, status: 'pending' })
      .update({ status: 'failed', error: error.slice(0, 500), updated_at: at });
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
    return (await this.knex('refunds').where({ source: 'double_payment', status: 'pending' }).where('updated_at', '<', before).orderBy('id').limit(limit)).map(
      normalize,
    );
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
    const existing = await trx('payment_disputes').where({ provider: dispute.provider, dispute_id: dispute.disputeId }).forUpdate().first();
    if (!existing) {
      const inserted = await trx('payment_disputes')
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
    const before = existing.status as DisputeStatus;
    if (before !== 'open' || dispute.status === 'open') return { before, now: before };
    await trx('payment_disputes').where({ id: existing.id }).update({ status: dispute.status, closed_at: at, updated_at: at });
    return { before, now: dispute.status };
  }
}

function normalize(row: RefundRow): RefundRow {
  return {
    ...row,
    id: Number(row.id),
    order_id: Number(row.order_id),
    payment_id: Number(row.payment_id),
    amount_minor: Number(row.amount_minor),
    fee_minor: Number(row.fee_minor),
    actor_user_id: row.actor_user_id === null ? null : Number(row.actor_user_id),
  };
}
