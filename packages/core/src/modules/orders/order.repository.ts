import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { Model } from 'objection';
import { TOKENS } from '../../shared/tokens.js';
import { OrderItemModel, OrderModel } from './models/order.model.js';

export type NewOrderItem = Omit<OrderItemModel, 'id' | 'order_id' | 'subscription_id' | 'applied_at' | keyof Model>;

@injectable()
export class OrderRepository {
  constructor(@inject(TOKENS.Knex) private readonly knex: Knex) {}

  async create(
    order: { user_id: number; email: string; currency: string; total_minor: number; payment_method: number; language_id: number; created_at: Date },
    items: NewOrderItem[],
    trx: Knex.Transaction,
  ): Promise<OrderModel> {
    const created = await OrderModel.query(trx).insertAndFetch({ ...order, state: 0, updated_at: order.created_at });
    created.items = await Promise.all(items.map((item) => OrderItemModel.query(trx).insertAndFetch({ ...item, order_id: created.id })));
    return created;
  }

  async findWithItems(id: number, trx?: Knex.Transaction): Promise<OrderModel | undefined> {
    return OrderModel.query(trx ?? this.knex)
      .findById(id)
      .withGraphFetched('items')
      .modifyGraph('items', (builder) => builder.orderBy('id'));
  }

  /** The order holding this order item, with its items. */
  async findByItemId(itemId: number, trx?: Knex.Transaction): Promise<OrderModel | undefined> {
    const item = await (trx ?? this.knex)('order_items').where({ id: itemId }).first('order_id');
    return item ? this.findWithItems(item.order_id as number, trx) : undefined;
  }

  /** Locks the order row for the rest of the transaction (state changes are serialised per order). */
  async lock(id: number, trx: Knex.Transaction): Promise<OrderModel | undefined> {
    return OrderModel.query(trx).findById(id).forUpdate();
  }

  async update(id: number, patch: Partial<OrderModel>, trx: Knex.Transaction): Promise<void> {
    await OrderModel.query(trx).patch(patch).where({ id });
  }

  /** Activation: the item's subscription (a repeated call leaves the first one). */
  async attachSubscription(orderId: number, itemId: number, subscriptionId: number, at: Date, trx: Knex.Transaction): Promise<void> {
    await OrderItemModel.query(trx)
      .patch({ subscription_id: subscriptionId, applied_at: at })
      .where({ id: itemId, order_id: orderId })
      .whereNull('subscription_id');
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

  async ofUserInStates(userId: number, states: readonly number[]): Promise<OrderModel[]> {
    return OrderModel.query(this.knex)
      .where({ user_id: userId })
      .whereIn('state', [...states])
      .withGraphFetched('items')
      .modifyGraph('items', (builder) => builder.orderBy('id'))
      .orderBy('id', 'desc');
  }

  /** One page of the orders in a state, newest first, with their items; and how many there are in all. */
  async pageByState(state: number, offset: number, limit: number): Promise<{ rows: OrderModel[]; count: number }> {
    const [rows, total] = await Promise.all([
      OrderModel.query(this.knex)
        .where({ state })
        .withGraphFetched('items')
        .modifyGraph('items', (builder) => builder.orderBy('id'))
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .offset(offset)
        .limit(limit),
      this.knex('orders').where({ state }).count<Array<{ count: string | number }>>('id as count'),
    ]);
    return { rows, count: Number(total[0]?.count ?? 0) };
  }

  /** Orders still unpaid after `before`: candidates for expiry. */
  async unpaidCreatedBefore(before: Date, limit: number): Promise<number[]> {
    const rows = await this.knex('orders').whereIn('state', [0, 1, 3]).where('created_at', '<', before).orderBy('id').limit(limit).select('id');
    return rows.map((row: { id: number }) => row.id);
  }
}
