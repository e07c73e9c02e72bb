/**
 * The money ledger's rows (`money_events`). Staff's reads (an order's rows, the waiting ones,
 * money back by day) go through `MoneyEventModel` and the payment's `moneyEvents` relation. A
 * paid notification's statements (`ofPayment`, `ofPayments`, `insertOnce`,
 * `attachWaiting`, `markApplied`, `lockNames`) are knex's builder and `sqlRows` as they were
 * before the model: they run in every checkout (docs/data-access.md), and `insertUnlessConflict`
 * (a provider's refund or dispute) needs `on conflict … do nothing` answering whether a row went in, which objection does not say.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { sqlRows } from '../../shared/database.js';
import { TOKENS } from '../../shared/tokens.js';
import { MoneyEventModel, PaymentModel, type MoneyEventRow } from './models/payment.model.js';

export type NewMoneyEvent = Omit<MoneyEventRow, 'id' | 'waiting_for' | 'applied_at' | 'effect'> &
  Partial<Pick<MoneyEventRow, 'waiting_for' | 'applied_at' | 'effect'>>;

@injectable()
export class MoneyEventRepository {
  constructor(@inject(TOKENS.Knex) private readonly knex: Knex) {}

  /** The payment's rows, oldest first. */
  async ofPayment(paymentId: number, trx?: Knex.Transaction): Promise<MoneyEventRow[]> {
    return (await (trx ?? this.knex)<MoneyEventRow>('money_events').where({ payment_id: paymentId }).orderBy('id')).map(normalize);
  }

  /** The rows of these payments, oldest first. */
  async ofPayments(paymentIds: number[], trx?: Knex.Transaction): Promise<MoneyEventRow[]> {
    if (paymentIds.length === 0) return [];
    return (await (trx ?? this.knex)<MoneyEventRow>('money_events').whereIn('payment_id', paymentIds).orderBy('id')).map(normalize);
  }

  /** Records the event unless its provider's key is already there (a paid payment's row). */
  async insertOnce(row: NewMoneyEvent, trx: Knex.Transaction): Promise<void> {
    await trx('money_events').insert(row).onConflict(['provider', 'event_key']).ignore();
  }

  /** Records the event unless its provider's key is already there; answers whether it went in. */
  async insertUnlessConflict(row: NewMoneyEvent, trx: Knex.Transaction): Promise<boolean> {
    const [inserted] = await trx('money_events').insert(row).onConflict(['provider', 'event_key']).ignore().returning('id');
    return inserted !== undefined;
  }

  /** Gives the provider's waiting rows that name the payment (`names`) to it. */
  async attachWaiting(provider: string, names: string[], payment: { id: number; order_id: number }, trx: Knex.Transaction): Promise<void> {
    await trx('money_events')
      .where({ provider })
      .whereNull('payment_id')
      .whereIn('waiting_for', names)
      .update({ payment_id: payment.id, order_id: payment.order_id });
  }

  async markApplied(id: number, change: { applied_at: Date; effect: string; order_id: number }, trx: Knex.Transaction): Promise<void> {
    await trx('money_events').where({ id }).update(change);
  }

  /** Transaction-scoped advisory locks on these names, in a fixed order (no deadlock between two callers). */
  async lockNames(names: string[], trx: Knex.Transaction): Promise<void> {
    for (const name of [...new Set(names)].sort()) {
      await sqlRows(trx, 'select pg_advisory_xact_lock(hashtext($1))', [name]);
    }
  }

  /** The order's rows, oldest first (the admin order page). */
  async ofOrder(orderId: number): Promise<MoneyEventRow[]> {
    return (await MoneyEventModel.query(this.knex).where({ order_id: orderId }).orderBy('id')).map(normalize);
  }

  /** Rows still waiting for their payment, oldest first. */
  async waiting(limit: number): Promise<MoneyEventRow[]> {
    return (await MoneyEventModel.query(this.knex).whereNull('applied_at').orderBy('id').limit(limit)).map(normalize);
  }

  /**
   * The payments that money went back from (refund or chargeback rows applied in [from, to)),
   * each with all its applied rows in the order they were applied.
   */
  async paymentsWithMoneyBackIn(from: Date, to: Date): Promise<PaymentModel[]> {
    const touched = MoneyEventModel.query(this.knex)
      .select('payment_id')
      .whereNot({ kind: 'payment' })
      .whereNotNull('payment_id')
      .whereNotNull('applied_at')
      .where('applied_at', '>=', from)
      .where('applied_at', '<', to);
    const payments = await PaymentModel.query(this.knex)
      .whereIn('id', touched)
      .withGraphFetched('moneyEvents')
      .modifyGraph('moneyEvents', (builder) => builder.whereNotNull('applied_at').orderBy([{ column: 'applied_at' }, { column: 'id' }]));
    for (const payment of payments) payment.moneyEvents = payment.moneyEvents?.map((row) => Object.assign(row, normalize(row)));
    return payments;
  }

  /** Of these orders, those with a row other than a payment (money that may have gone back). */
  async ordersWithMoneyBack(orderIds: number[]): Promise<number[]> {
    if (orderIds.length === 0) return [];
    const rows = await MoneyEventModel.query(this.knex).whereIn('order_id', orderIds).whereNot({ kind: 'payment' }).distinct('order_id');
    return rows.map((row) => Number(row.order_id));
  }
}

/** Numbers as numbers whatever the column's type (`amount_minor` is a bigint). */
function normalize(row: MoneyEventRow): MoneyEventRow {
  return {
    ...row,
    id: Number(row.id),
    order_id: row.order_id === null ? null : Number(row.order_id),
    payment_id: row.payment_id === null ? null : Number(row.payment_id),
    amount_minor: Number(row.amount_minor),
  };
}
