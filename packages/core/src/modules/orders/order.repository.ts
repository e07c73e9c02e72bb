import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { Model } from 'objection';
import { columnsOf, sqlRows, updateById } from '../../shared/database.js';
import { TOKENS } from '../../shared/tokens.js';
import { ORDER_STATE } from './order-states.js';
import { OrderItemModel, OrderModel, type OrderItemRow, type OrderRow } from './models/order.model.js';

export type NewOrderItem = Omit<OrderItemModel, 'id' | 'order_id' | 'subscription_id' | 'applied_at' | 'order' | keyof Model>;

/** Which orders a staff list reads: those in one state, or every order. */
export interface OrderFilter {
  state?: number;
}

/** Staff lists show the newest order first; the id breaks ties between orders made in the same instant. */
const NEWEST_FIRST = [
  { column: 'created_at', order: 'desc' as const },
  { column: 'id', order: 'desc' as const },
];

function filtered<Q extends Knex.QueryBuilder | ReturnType<typeof OrderModel.query>>(query: Q, filter: OrderFilter): Q {
  if (filter.state !== undefined) query.where('state', filter.state);
  return query;
}

/** An order item as json_agg writes it: the same fields, its one timestamp as text. */
type JsonItem = Omit<OrderItemRow, 'applied_at'> & { applied_at: string | null };

/** `items`: the order's items (rows `i` of `source`) in id order, as JSON: one statement reads or writes an order with its items. */
const itemsAsJson = (source: string) => `coalesce((select json_agg(i order by i.id) from ${source}), '[]') as items`;
const ORDER_WITH_ITEMS = `select o.*, ${itemsAsJson('order_items i where i.order_id = o.id')} from orders o`;

function withParsedItems(order: OrderRow & { items: JsonItem[] }): OrderRow {
  return { ...order, items: order.items.map((item) => ({ ...item, applied_at: item.applied_at === null ? null : new Date(item.applied_at) })) };
}

@injectable()
export class OrderRepository {
  constructor(@inject(TOKENS.Knex) private readonly knex: Knex) {}

  /** A new order with its items, in one statement (no transaction needed: it is one). */
  async create(
    order: {
      user_id: number;
      email: string;
      currency: string;
      total_minor: number;
      subtotal_minor: number;
      total_eur_minor: number;
      payment_method: number;
      language_id: number;
      created_at: Date;
    },
    items: NewOrderItem[],
    trx?: Knex.Transaction,
  ): Promise<OrderRow> {
    const { names, values, placeholders } = columnsOf({ ...order, state: 0, updated_at: order.created_at });
    const itemColumns = [...new Set(items.flatMap((item) => Object.keys(item)))].map((name) => `"${name}"`);
    const [created] = await sqlRows<OrderRow & { items: JsonItem[] }>(
      trx ?? this.knex,
      `with o as (insert into orders (${names.join(', ')}) values (${placeholders.join(', ')}) returning *),
            i as (insert into order_items (${itemColumns.join(', ')}, order_id)
                  select ${itemColumns.map((name) => `r.${name}`).join(', ')}, o.id
                    from o, jsonb_populate_recordset(null::order_items, $${values.length + 1}::jsonb) with ordinality as r
                   order by r.ordinality
                  returning *)
       select o.*, ${itemsAsJson('i')} from o`,
      [...values, JSON.stringify(items)],
    );
    return withParsedItems(created!);
  }

  /**
   * The buyer's newest order still in state 0 (created, never sent to a provider), made since
   * `since`, with one item of exactly this choice, price and language: what a reload of the
   * payment page reuses instead of making another order.
   */
  async openUnpaidOf(
    userId: number,
    choice: {
      platform_id: number;
      duration_id: number;
      plan_type_id: number;
      quantity: number;
      unit_price_minor: number;
      currency: string;
      language_id: number;
    },
    since: Date,
    trx: Knex.Transaction,
  ): Promise<OrderRow | undefined> {
    const [order] = await sqlRows<OrderRow & { items: JsonItem[] }>(
      trx,
      `${ORDER_WITH_ITEMS}
        where o.user_id = $1 and o.state = ${ORDER_STATE.created} and o.created_at >= $2 and o.currency = $3 and o.language_id = $4
          and (select count(*) from order_items i where i.order_id = o.id) = 1
          and exists (select 1 from order_items i
                       where i.order_id = o.id and i.platform_id = $5 and i.duration_id = $6 and i.plan_type_id = $7
                         and i.quantity = $8 and i.unit_price_minor = $9 and i.currency = $3
                         and i.renews_subscription_id is null)
        order by o.id desc
        limit 1`,
      [
        userId,
        since,
        choice.currency,
        choice.language_id,
        choice.platform_id,
        choice.duration_id,
        choice.plan_type_id,
        choice.quantity,
        choice.unit_price_minor,
      ],
    );
    return order && withParsedItems(order);
  }

  /** The order with its items in id order, in one statement; read on every checkout, so on the lean path. */
  async findWithItems(id: number, trx?: Knex.Transaction): Promise<OrderRow | undefined> {
    const [order] = await sqlRows<OrderRow & { items: JsonItem[] }>(trx ?? this.knex, `${ORDER_WITH_ITEMS} where o.id = $1`, [id]);
    return order && withParsedItems(order);
  }

  async findManyWithItems(ids: number[], trx?: Knex.Transaction): Promise<OrderModel[]> {
    return OrderModel.query(trx ?? this.knex)
      .findByIds(ids)
      .withGraphFetched('items')
      .modifyGraph('items', (builder) => builder.orderBy('id'));
  }

  /** The order holding this order item, with its items. */
  async findByItemId(itemId: number, trx?: Knex.Transaction): Promise<OrderRow | undefined> {
    const item = await OrderItemModel.query(trx ?? this.knex)
      .findById(itemId)
      .withGraphFetched('order.items')
      .modifyGraph('order.items', (builder) => builder.orderBy('id'));
    return item?.order;
  }

  /** Locks the order row for the rest of the transaction (state changes are serialised per order). */
  async lock(id: number, trx: Knex.Transaction): Promise<OrderRow | undefined> {
    const [order] = await sqlRows<OrderRow>(trx, 'select * from orders where id = $1 for update', [id]);
    return order;
  }

  /** `lock`, and the order's items with it (one statement). */
  async lockWithItems(id: number, trx: Knex.Transaction): Promise<OrderRow | undefined> {
    const [order] = await sqlRows<OrderRow & { items: JsonItem[] }>(trx, `${ORDER_WITH_ITEMS} where o.id = $1 for update of o`, [id]);
    return order && withParsedItems(order);
  }

  async update(id: number, patch: Partial<OrderRow>, trx: Knex.Transaction): Promise<void> {
    await updateById(trx, 'orders', id, patch);
  }

  /** `update` while the order is in one of `states`: whether it was (checked and changed in one statement). */
  async updateIfIn(id: number, states: readonly number[], patch: Partial<OrderRow>, trx: Knex.Transaction): Promise<boolean> {
    return (await updateById(trx, 'orders', id, patch, { column: 'state', in: states })) > 0;
  }

  /**
   * Activation's last write: the order moves to `patch.state` if it is in one of `states`, and
   * then (in the same statement) each item points at its subscription (an item that has one keeps
   * it). Whether the order moved.
   */
  async completeIfIn(
    id: number,
    states: readonly number[],
    patch: { state: number; completed_at: Date; updated_at: Date },
    items: Array<{ itemId: number; subscriptionId: number }>,
    trx: Knex.Transaction,
  ): Promise<boolean> {
    const rows = await sqlRows<{ id: number }>(
      trx,
      `with moved as (
         update orders set state = $3, completed_at = $4, updated_at = $4 where id = $1 and state = any($2) returning id
       ), linked as (
         update order_items set subscription_id = item.subscription_id, applied_at = $4
           from moved, unnest($5::bigint[], $6::bigint[]) as item (id, subscription_id)
          where order_items.id = item.id and order_items.order_id = moved.id and order_items.subscription_id is null
       )
       select id from moved`,
      [id, states, patch.state, patch.completed_at, items.map((item) => item.itemId), items.map((item) => item.subscriptionId)],
    );
    return rows.length > 0;
  }

  /** The invitation e-mail goes on every item of the order that needs one and has none yet. */
  async setInvitationEmail(orderId: number, email: string, trx: Knex.Transaction): Promise<void> {
    await OrderItemModel.query(trx).patch({ invitation_email: email }).where({ order_id: orderId, needs_invitation: true }).whereNull('invitation_email');
  }

  /** Orders in state 6, oldest payment first (optionally those with an item of one platform). */
  async waitingIds(platformId: number | undefined, limit: number): Promise<number[]> {
    const rows = await this.knex('orders')
      .where('state', 6)
      .modify((query) => {
        if (platformId !== undefined)
          query.whereExists((sub) => sub.select(1).from('order_items').whereRaw('order_items.order_id = orders.id').where({ platform_id: platformId }));
      })
      .orderBy([{ column: 'paid_at' }, { column: 'id' }])
      .limit(limit)
      .select('id');
    return rows.map((row: { id: number }) => row.id);
  }

  /**
   * A user's orders in these states with their items, newest first; items in id order. Read on
   * every panel view (polled while an order waits), so through the lean path (`sqlRows`): the
   * two statements objection's graph fetch would run.
   */
  async ofUserInStates(userId: number, states: readonly number[]): Promise<OrderRow[]> {
    const orders = await sqlRows<OrderRow>(this.knex, 'select * from orders where user_id = $1 and state = any($2) order by id desc', [userId, states]);
    if (orders.length === 0) return orders;
    const items = await sqlRows<OrderItemRow>(this.knex, 'select * from order_items where order_id = any($1) order by id', [orders.map((order) => order.id)]);
    const byOrder = new Map(orders.map((order) => [order.id, order]));
    for (const order of orders) order.items = [];
    for (const item of items) byOrder.get(item.order_id)?.items?.push(item);
    return orders;
  }

  /** One page of the orders (in one state, or all of them), newest first, with their items; and how many there are in all. */
  async page(filter: OrderFilter, offset: number, limit: number): Promise<{ rows: OrderModel[]; count: number }> {
    const [rows, count] = await Promise.all([
      OrderModel.query(this.knex)
        .modify((query) => filtered(query, filter))
        .withGraphFetched('items')
        .modifyGraph('items', (builder) => builder.orderBy('id'))
        .orderBy(NEWEST_FIRST)
        .offset(offset)
        .limit(limit),
      this.count(filter),
    ]);
    return { rows, count };
  }

  async count(filter: OrderFilter): Promise<number> {
    const [row] = await this.knex('orders')
      .modify((query) => filtered(query, filter))
      .count<Array<{ count: string | number }>>('id as count');
    return Number(row?.count ?? 0);
  }

  /**
   * The next `limit` orders after order `afterId` in newest-first order (created_at, then id), with
   * their items: a long list read in batches by key, so each batch costs the same however far in.
   */
  async batchAfter(filter: OrderFilter, afterId: number | undefined, limit: number): Promise<OrderModel[]> {
    return OrderModel.query(this.knex)
      .modify((query) => filtered(query, filter))
      .modify((query) => {
        // The stored timestamp itself (microseconds), not a JavaScript copy of it (milliseconds).
        if (afterId !== undefined) query.whereRaw('(orders.created_at, orders.id) < (select o.created_at, o.id from orders o where o.id = ?)', [afterId]);
      })
      .withGraphFetched('items')
      .modifyGraph('items', (builder) => builder.orderBy('id'))
      .orderBy(NEWEST_FIRST)
      .limit(limit);
  }

  /**
   * EUR totals of the orders paid in [from, to) and now in one of `states`, per UTC day of payment ('YYYY-MM-DD').
   * `total_eur_minor` is what the options sold for in EUR, before any discount (issue 37): each
   * order counts its share of it, total / subtotal, rounded half up to the cent, so a discount
   * lowers the EUR revenue as it lowered the order's total.
   */
  async eurTotalsByPaidDay(from: Date, to: Date, states: readonly number[]): Promise<Map<string, number>> {
    const rows = await this.knex('orders')
      .whereIn('state', [...states])
      .where('paid_at', '>=', from)
      .where('paid_at', '<', to)
      .groupByRaw('1')
      .select<Array<{ day: string; total: number }>>(
        this.knex.raw(`to_char(paid_at at time zone 'UTC', 'YYYY-MM-DD') as day`),
        this.knex.raw('sum(round(total_eur_minor::numeric * total_minor / greatest(subtotal_minor, 1)))::bigint as total'),
      );
    return new Map(rows.map((row) => [row.day, Number(row.total)]));
  }

  /** How many orders are in each state (states without orders are left out). */
  async countByState(): Promise<Map<number, number>> {
    const rows = await this.knex('orders')
      .groupBy('state')
      .select<Array<{ state: number; count: string | number }>>('state', this.knex.raw('count(*) as count'));
    return new Map(rows.map((row) => [row.state, Number(row.count)]));
  }

  /** Paid orders with a discount of this source: how many, and the discount per currency (the dashboard's welcome line). */
  async discountTotals(source: string, states: readonly number[]): Promise<Array<{ currency: string; count: number; discount: number }>> {
    const rows = await this.knex('orders')
      .where('discount_source', source)
      .whereIn('state', [...states])
      .groupBy('currency')
      .orderBy('currency')
      .select<Array<{ currency: string; count: string | number; discount: string | number }>>(
        'currency',
        this.knex.raw('count(*) as count'),
        this.knex.raw('coalesce(sum(discount_minor), 0) as discount'),
      );
    return rows.map((row) => ({ currency: row.currency, count: Number(row.count), discount: Number(row.discount) }));
  }

  /** Orders waiting in state 6 that were paid before `before`, oldest payment first. */
  async waitingPaidBefore(before: Date, limit: number): Promise<Array<{ id: number; paid_at: Date }>> {
    return this.knex('orders')
      .where('state', 6)
      .where('paid_at', '<', before)
      .orderBy([{ column: 'paid_at' }, { column: 'id' }])
      .limit(limit)
      .select('id', 'paid_at');
  }

  /** Metrics: how many orders wait in state 6 since before `before`. */
  async countWaitingPaidBefore(before: Date, trx?: Knex.Transaction): Promise<number> {
    const row = await (trx ?? this.knex)('orders').where('state', 6).where('paid_at', '<', before).first<{ n: number }>(this.knex.raw('count(*)::int as n'));
    return row?.n ?? 0;
  }

  /** Metrics: payment-to-completion times (seconds) of the orders completed since `since`: count, quantiles, max. */
  async completionLatencies(since: Date, trx?: Knex.Transaction): Promise<number[]> {
    const result = await (trx ?? this.knex).raw<{ rows: Array<{ seconds: number }> }>(
      `select extract(epoch from completed_at - paid_at)::float8 as seconds
         from orders where completed_at >= ? and paid_at is not null order by completed_at`,
      [since],
    );
    return result.rows.map((row) => Number(row.seconds));
  }

  /** Orders still unpaid after `before`: candidates for expiry. */
  async unpaidCreatedBefore(before: Date, limit: number): Promise<number[]> {
    const rows = await this.knex('orders').whereIn('state', [0, 1, 3]).where('created_at', '<', before).orderBy('id').limit(limit).select('id');
    return rows.map((row: { id: number }) => row.id);
  }

  /** The durations and types of a platform that order items name (any state). */
  async orderedOptions(platformId: number, trx?: Knex.Transaction): Promise<Array<{ duration_id: number; plan_type_id: number }>> {
    return (trx ?? this.knex)('order_items')
      .where({ platform_id: platformId })
      .distinct<Array<{ duration_id: number; plan_type_id: number }>>('duration_id', 'plan_type_id');
  }

  /** How many orders name each platform. */
  async orderCountsByPlatform(): Promise<Array<{ platform_id: number; count: string }>> {
    return this.knex('order_items')
      .groupBy('platform_id')
      .select<Array<{ platform_id: number; count: string }>>('platform_id', this.knex.raw('count(distinct order_id) as count'));
  }

  /** Sets the order's discount (none: null) and its total with it, in one statement (issue 37). */
  async setDiscount(
    orderId: number,
    discount: { minor: number; source: string; promoCode: string | null } | null,
    now: Date,
    trx: Knex.Transaction,
  ): Promise<void> {
    await trx('orders')
      .where({ id: orderId })
      .update({
        discount_minor: discount?.minor ?? 0,
        discount_source: discount?.source ?? null,
        promo_code: discount?.promoCode ?? null,
        total_minor: trx.raw('subtotal_minor - ?', [discount?.minor ?? 0]),
        updated_at: now,
      });
  }

  /** Whether the user has a paid order (paid, completed or refunded) other than `exceptOrderId`. */
  async hasPaidOrder(userId: number, exceptOrderId: number, states: readonly number[], trx?: Knex.Transaction): Promise<boolean> {
    const row = await (trx ?? this.knex)('orders')
      .where({ user_id: userId })
      .whereIn('state', [...states])
      .whereNot({ id: exceptOrderId })
      .first('id');
    return row !== undefined;
  }

  /** The user's orders other than `exceptOrderId` whose discount comes from `source`, by id. */
  async idsWithDiscountSource(userId: number, source: string, exceptOrderId: number, trx: Knex.Transaction): Promise<number[]> {
    return trx('orders').where({ user_id: userId, discount_source: source }).whereNot({ id: exceptOrderId }).orderBy('id').pluck('id');
  }

  /** Which of these orders are in `states`. */
  async idsInStates(orderIds: number[], states: readonly number[], trx?: Knex.Transaction): Promise<number[]> {
    if (orderIds.length === 0) return [];
    return (trx ?? this.knex)('orders')
      .whereIn('id', orderIds)
      .whereIn('state', [...states])
      .pluck('id');
  }
}
