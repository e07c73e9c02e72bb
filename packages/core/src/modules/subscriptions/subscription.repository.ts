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

  /** Holding a slot at `now`: active and not past the end (the expiry job may not have run yet). */
  async activeOfUser(userId: number, now: Date, trx?: Knex.Transaction): Promise<SubscriptionModel[]> {
    return SubscriptionModel.query(trx ?? this.knex)
      .where({ user_id: userId, status: 'active' })
      .where('ends_at', '>', now)
      .orderBy('starts_at')
      .orderBy('id');
  }

  /** Per user, how many subscriptions hold a slot at `now` (as `activeOfUser` counts them); users with none are left out. */
  async activeCountsOfUsers(userIds: number[], now: Date): Promise<Map<number, number>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.knex('subscriptions')
      .where({ status: 'active' })
      .whereIn('user_id', userIds)
      .where('ends_at', '>', now)
      .groupBy('user_id')
      .select<Array<{ user_id: number; count: string | number }>>('user_id', this.knex.raw('count(*) as count'));
    return new Map(rows.map((row) => [row.user_id, Number(row.count)]));
  }

  /** A user's subscriptions in these statuses (all when empty), newest first. */
  async ofUser(userId: number, statuses: SubscriptionStatus[], trx?: Knex.Transaction): Promise<SubscriptionModel[]> {
    const query = SubscriptionModel.query(trx ?? this.knex).where({ user_id: userId });
    if (statuses.length > 0) query.whereIn('status', statuses);
    return query.orderBy('starts_at', 'desc').orderBy('id', 'desc');
  }

  /** The user's subscriptions holding a slot on these accounts until after `now`, soonest end first, locked. */
  async renewable(userId: number, accountIds: number[], now: Date, trx: Knex.Transaction): Promise<SubscriptionModel[]> {
    if (accountIds.length === 0) return [];
    return SubscriptionModel.query(trx)
      .where({ user_id: userId, status: 'active' })
      .whereIn('platform_account_id', accountIds)
      .where('ends_at', '>', now)
      .orderBy('ends_at')
      .orderBy('id')
      .forUpdate();
  }

  /** Moves the end date (renewal); the exclusion constraint checks the longer period. A new period gets its own reminder. */
  async extend(id: number, endsAt: Date, at: Date, trx: Knex.Transaction): Promise<SubscriptionModel> {
    return SubscriptionModel.query(trx).patchAndFetchById(id, { ends_at: endsAt, reminded_at: null, updated_at: at });
  }

  async recordRenewal(
    row: { subscription_id: number; order_item_id: number; unit: number; previous_ends_at: Date; ends_at: Date; created_at: Date },
    trx: Knex.Transaction,
  ) {
    await trx('subscription_renewals').insert(row);
  }

  /**
   * Active subscriptions whose end is at or before `now`, oldest end first, locked; rows another
   * worker holds are skipped (it is ending them), so two runs never end the same one twice.
   */
  async dueToEnd(now: Date, limit: number, trx: Knex.Transaction): Promise<SubscriptionModel[]> {
    return SubscriptionModel.query(trx)
      .where({ status: 'active' })
      .where('ends_at', '<=', now)
      .orderBy('ends_at')
      .orderBy('id')
      .limit(limit)
      .forUpdate()
      .skipLocked();
  }

  /** Ended at its end time (not at the moment the job noticed). */
  async markEnded(id: number, at: Date, trx: Knex.Transaction): Promise<void> {
    await trx('subscriptions')
      .where({ id, status: 'active' })
      .update({ status: 'ended', ended_at: trx.ref('ends_at'), updated_at: at });
  }

  /** Active subscriptions ending in (now, until] not yet reminded of this period, locked (skipping rows held elsewhere). */
  async dueForReminder(now: Date, until: Date, limit: number, trx: Knex.Transaction): Promise<SubscriptionModel[]> {
    return SubscriptionModel.query(trx)
      .where({ status: 'active' })
      .whereNull('reminded_at')
      .where('ends_at', '>', now)
      .where('ends_at', '<=', until)
      .orderBy('ends_at')
      .orderBy('id')
      .limit(limit)
      .forUpdate()
      .skipLocked();
  }

  async markReminded(id: number, at: Date, trx: Knex.Transaction): Promise<void> {
    await SubscriptionModel.query(trx).patch({ reminded_at: at, updated_at: at }).where({ id });
  }
}
