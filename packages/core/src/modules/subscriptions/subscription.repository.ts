import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { TOKENS } from '../../shared/tokens.js';
import { SubscriptionModel, type SubscriptionStatus } from './models/subscription.model.js';

export type NewSubscription = Pick<
  SubscriptionModel,
  'user_id' | 'order_item_id' | 'unit' | 'platform_account_id' | 'slot' | 'starts_at' | 'ends_at' | 'replaced_from_id' | 'created_at' | 'updated_at'
>;

export interface OccupiedSlot {
  platform_account_id: number;
  slot: number;
}

@injectable()
export class SubscriptionRepository {
  constructor(@inject(TOKENS.Knex) private readonly knex: Knex) {}

  /** Slots of these accounts held by an active subscription at some moment of [from, to). */
  async occupied(accountIds: number[], from: Date, to: Date, trx?: Knex.Transaction): Promise<OccupiedSlot[]> {
    if (accountIds.length === 0) return [];
    return (trx ?? this.knex)('subscriptions')
      .where({ status: 'active' })
      .whereIn('platform_account_id', accountIds)
      .whereRaw('tstzrange(starts_at, ends_at) && tstzrange(?::timestamptz, ?::timestamptz)', [from, to])
      .distinct('platform_account_id', 'slot');
  }

  /** Inserts as is: the caller runs it in a savepoint and reads the constraint violations. */
  async insert(row: NewSubscription, trx: Knex.Transaction): Promise<SubscriptionModel> {
    return SubscriptionModel.query(trx).insertAndFetch({ ...row, status: 'active' });
  }

  async findById(id: number, trx?: Knex.Transaction): Promise<SubscriptionModel | undefined> {
    return SubscriptionModel.query(trx ?? this.knex).findById(id);
  }

  async lock(id: number, trx: Knex.Transaction): Promise<SubscriptionModel | undefined> {
    return SubscriptionModel.query(trx).findById(id).forUpdate();
  }

  async markReplaced(id: number, at: Date, trx: Knex.Transaction): Promise<void> {
    await SubscriptionModel.query(trx).patch({ status: 'replaced', ended_at: at, updated_at: at }).where({ id });
  }

  async activeOfUser(userId: number, trx?: Knex.Transaction): Promise<SubscriptionModel[]> {
    return SubscriptionModel.query(trx ?? this.knex)
      .where({ user_id: userId, status: 'active' })
      .orderBy('starts_at')
      .orderBy('id');
  }

  /** A user's subscriptions in these statuses (all when empty), newest first. */
  async ofUser(userId: number, statuses: SubscriptionStatus[], trx?: Knex.Transaction): Promise<SubscriptionModel[]> {
    const query = SubscriptionModel.query(trx ?? this.knex).where({ user_id: userId });
    if (statuses.length > 0) query.whereIn('status', statuses);
    return query.orderBy('starts_at', 'desc').orderBy('id', 'desc');
  }
}
