import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { ref } from 'objection';
import { insertRowUnlessConflict, sqlRows } from '../../shared/database.js';
import { TOKENS } from '../../shared/tokens.js';
import { SubscriptionModel, SubscriptionRenewalModel, type SubscriptionRow, type SubscriptionStatus } from './models/subscription.model.js';

export type NewSubscription = Pick<
  SubscriptionModel,
  'user_id' | 'order_item_id' | 'unit' | 'platform_account_id' | 'slot' | 'starts_at' | 'ends_at' | 'replaced_from_id' | 'created_at' | 'updated_at'
>;

/** A slot of an account: held (`occupied`) or free (`freeSlots`). */
export interface AccountSlot {
  platform_account_id: number;
  slot: number;
}

/** An account and its number of slots, as the free-slot reads take them. */
type AccountSlotsCount = { id: number; slotsCount: number };
/** A place in the global order of slots (account id, then slot). */
type SlotPosition = { accountId: number; slot: number };

/**
 * The free-slot read without its limit ($1 account ids, $2 their slot counts, $3 and $4 the
 * position after which to look, $5 and $6 the period): the database's `free_slots` (migration
 * 20261204000100_slot-claims, read by account since 20261205000100_free-slots-by-account), which
 * PostgreSQL inlines into the caller's query.
 */
const FREE_SLOTS = 'select platform_account_id, slot from free_slots($1::bigint[], $2::int[], $3, $4, $5::timestamptz, $6::timestamptz)';

function freeSlotsBindings(accounts: AccountSlotsCount[], from: Date, to: Date, after: SlotPosition | undefined): unknown[] {
  return [accounts.map((account) => account.id), accounts.map((account) => account.slotsCount), after?.accountId ?? 0, after?.slot ?? -1, from, to];
}

@injectable()
export class SubscriptionRepository {
  constructor(@inject(TOKENS.Knex) private readonly knex: Knex) {}

  /** Slots of these accounts held by an active subscription at some moment of [from, to). */
  async occupied(accountIds: number[], from: Date, to: Date, trx?: Knex.Transaction): Promise<AccountSlot[]> {
    if (accountIds.length === 0) return [];
    return (trx ?? this.knex)('subscriptions')
      .where({ status: 'active' })
      .whereIn('platform_account_id', accountIds)
      .whereRaw('tstzrange(starts_at, greatest(ends_at, held_until)) && tstzrange(?::timestamptz, ?::timestamptz)', [from, to])
      .distinct('platform_account_id', 'slot');
  }

  /**
   * The first `limit` slots of these accounts that no active subscription holds at any moment of
   * [from, to), in the global order (account id, then slot), after `after` when given. An
   * account of one slot is offered whole (slot 0), free only when nothing holds any of it; slot
   * 0 held blocks every slot of its account: the exclusion constraint's own notion of overlap.
   * PostgreSQL probes the constraint's index slot by slot until it has `limit` free ones; only
   * those reach the process, not every subscription of the platform.
   */
  async freeSlots(
    accounts: AccountSlotsCount[],
    from: Date,
    to: Date,
    { after, limit }: { after?: SlotPosition; limit: number },
    trx?: Knex.Transaction,
  ): Promise<AccountSlot[]> {
    if (accounts.length === 0) return [];
    return sqlRows<AccountSlot>(trx ?? this.knex, `${FREE_SLOTS} limit $7`, [...freeSlotsBindings(accounts, from, to, after), limit]);
  }

  /**
   * Inserts as is, or does nothing when the row would break the exclusion constraint (its slot
   * is taken for part of the period) or a unique index: the stored row, or undefined.
   */
  async insertUnlessConflict(row: NewSubscription, trx: Knex.Transaction): Promise<SubscriptionRow | undefined> {
    return insertRowUnlessConflict<SubscriptionRow>(trx, 'subscriptions', { ...row, status: 'active' }, { returning: '*' });
  }

  /**
   * Takes the platform's claim lock (`lockClass`, `platformId`), then the first free slot, in one
   * call (the database's `claim_first_free_slot`): the row, or undefined when no slot is free or
   * the insert met a conflict (then the caller tries candidates one by one, under the lock).
   */
  async claimFirstFreeSlot(
    lock: { lockClass: number; platformId: number },
    row: Omit<NewSubscription, 'platform_account_id' | 'slot'>,
    accounts: AccountSlotsCount[],
    after: SlotPosition | undefined,
    trx: Knex.Transaction,
  ): Promise<SubscriptionRow | undefined> {
    const [stored] = await sqlRows<SubscriptionRow>(
      trx,
      'select * from claim_first_free_slot($1, $2, $3::bigint[], $4::int[], $5, $6, $7::timestamptz, $8::timestamptz, $9, $10, $11, $12, $13::timestamptz)',
      [
        lock.lockClass,
        lock.platformId,
        ...freeSlotsBindings(accounts, row.starts_at, row.ends_at, after),
        row.user_id,
        row.order_item_id,
        row.unit,
        row.replaced_from_id,
        row.created_at,
      ],
    );
    return stored;
  }

  /** Whether the order item unit has its (first, not a replacement) subscription. */
  async unitHasSubscription(orderItemId: number, unit: number, trx: Knex.Transaction): Promise<boolean> {
    const rows = await sqlRows(trx, 'select 1 from subscriptions where order_item_id = $1 and unit = $2 and replaced_from_id is null', [orderItemId, unit]);
    return rows.length > 0;
  }

  async findById(id: number, trx?: Knex.Transaction): Promise<SubscriptionModel | undefined> {
    return SubscriptionModel.query(trx ?? this.knex).findById(id);
  }

  async byIds(ids: number[], trx?: Knex.Transaction): Promise<SubscriptionModel[]> {
    if (ids.length === 0) return [];
    return SubscriptionModel.query(trx ?? this.knex).whereIn('id', ids);
  }

  /** Active subscriptions whose period ends in [from, to), soonest first (staff: upcoming renewals). */
  async endingBetween(from: Date, to: Date, limit: number): Promise<SubscriptionModel[]> {
    return SubscriptionModel.query(this.knex)
      .where({ status: 'active' })
      .where('ends_at', '>=', from)
      .where('ends_at', '<', to)
      .orderBy('ends_at')
      .orderBy('id')
      .limit(limit);
  }

  async lock(id: number, trx: Knex.Transaction): Promise<SubscriptionModel | undefined> {
    return SubscriptionModel.query(trx).findById(id).forUpdate();
  }

  /** The account's subscriptions that hold a slot now (suspended ones too), oldest first; locked when in a transaction. */
  async activeOnAccount(accountId: number, now: Date, trx?: Knex.Transaction): Promise<SubscriptionModel[]> {
    const query = SubscriptionModel.query(trx ?? this.knex)
      .where({ platform_account_id: accountId, status: 'active' })
      .andWhere('ends_at', '>', now)
      .orderBy('id');
    return trx ? query.forUpdate() : query;
  }

  async markReplaced(id: number, at: Date, trx: Knex.Transaction): Promise<void> {
    await SubscriptionModel.query(trx).patch({ status: 'replaced', ended_at: at, updated_at: at }).where({ id });
  }

  /** The replacement takes over "reminded of this period" from the subscription it replaced. */
  async carryReminder(fromId: number, toId: number, at: Date, trx: Knex.Transaction): Promise<void> {
    await sqlRows(trx, 'update subscriptions set reminded_at = (select reminded_at from subscriptions where id = $1), updated_at = $3 where id = $2', [
      fromId,
      toId,
      at,
    ]);
  }

  /** The last subscription of this one's replacement chain (itself when nothing replaced it): the one that holds the buyer's slot. */
  async latestOf(id: number, trx?: Knex.Transaction): Promise<number | undefined> {
    const [row] = await sqlRows<{ id: string }>(
      trx ?? this.knex,
      `with recursive chain(id, depth) as (
         select id, 0 from subscriptions where id = $1
         union all
         select s.id, chain.depth + 1 from chain join subscriptions s on s.replaced_from_id = chain.id
       )
       select id from chain order by depth desc limit 1`,
      [id],
    );
    return row ? Number(row.id) : undefined;
  }

  /** The first subscription of each one's replacement chain (itself when it replaced none): its id and start. */
  async origins(ids: number[], trx?: Knex.Transaction): Promise<Array<{ id: number; origin_id: number; starts_at: Date }>> {
    if (ids.length === 0) return [];
    const rows = await sqlRows<{ id: string; origin_id: string; starts_at: Date }>(
      trx ?? this.knex,
      `with recursive chain(id, origin_id, replaced_from_id) as (
         select id, id, replaced_from_id from subscriptions where id = any($1::bigint[])
         union all
         select chain.id, s.id, s.replaced_from_id from chain join subscriptions s on s.id = chain.replaced_from_id
       )
       select chain.id, chain.origin_id, s.starts_at from chain join subscriptions s on s.id = chain.origin_id where chain.replaced_from_id is null`,
      [ids],
    );
    return rows.map((row) => ({ id: Number(row.id), origin_id: Number(row.origin_id), starts_at: row.starts_at }));
  }

  /**
   * Holding a slot at `now` with access: active, not past the end (the expiry job may not have
   * run yet), not suspended by a dispute. Read on every panel view, so through the lean path.
   */
  async activeOfUser(userId: number, now: Date, trx?: Knex.Transaction): Promise<SubscriptionRow[]> {
    return sqlRows<SubscriptionRow>(
      trx ?? this.knex,
      `select * from subscriptions where user_id = $1 and status = 'active' and suspended_at is null and ends_at > $2 order by starts_at, id`,
      [userId, now],
    );
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
  async renewable(userId: number, accountIds: number[], now: Date, trx: Knex.Transaction): Promise<SubscriptionRow[]> {
    if (accountIds.length === 0) return [];
    return sqlRows<SubscriptionRow>(
      trx,
      `select * from subscriptions
        where user_id = $1 and status = 'active' and suspended_at is null and platform_account_id = any($2)
          and greatest(ends_at, held_until) > $3
        order by ends_at, id for update`,
      [userId, accountIds, now],
    );
  }

  /** Moves the end date (renewal); the exclusion constraint checks the longer period. A new period gets its own reminder. */
  async extend(id: number, endsAt: Date, at: Date, trx: Knex.Transaction): Promise<SubscriptionModel> {
    return SubscriptionModel.query(trx).patchAndFetchById(id, { ends_at: endsAt, reminded_at: null, held_until: null, updated_at: at });
  }

  /** Holds the slot past the end (dunning) until `until`, or lets it go (null); access still ends at `ends_at`. */
  async hold(id: number, until: Date | null, at: Date, trx: Knex.Transaction): Promise<void> {
    await SubscriptionModel.query(trx).patch({ held_until: until, updated_at: at }).where({ id, status: 'active' });
  }

  async recordRenewal(
    row: { subscription_id: number; order_item_id: number; unit: number; previous_ends_at: Date; ends_at: Date; created_at: Date },
    trx: Knex.Transaction,
  ) {
    await SubscriptionRenewalModel.query(trx).insert(row);
  }

  /**
   * The active subscriptions whose access these order items paid for, locked: the ones the items
   * created (after a replacement, the replacing one), and the ones they renewed (with each
   * renewal not yet taken back).
   */
  async paidForBy(
    orderItemIds: number[],
    trx: Knex.Transaction,
  ): Promise<{ created: SubscriptionModel[]; renewed: Array<{ renewalId: number; length: number; subscription: SubscriptionModel }> }> {
    if (orderItemIds.length === 0) return { created: [], renewed: [] };
    const created = await SubscriptionModel.query(trx).where({ status: 'active' }).whereIn('order_item_id', orderItemIds).orderBy('id').forUpdate();
    const renewals = await SubscriptionRenewalModel.query(trx).whereIn('order_item_id', orderItemIds).whereNull('refunded_at').orderBy('id');
    const renewed: Array<{ renewalId: number; length: number; subscription: SubscriptionModel }> = [];
    for (const renewal of renewals) {
      // The renewed subscription may have been replaced since: the active one of its order item carries the period now.
      const subscription = await SubscriptionModel.query(trx)
        .where({ status: 'active' })
        .whereIn('order_item_id', trx('subscriptions').select('order_item_id').where({ id: renewal.subscription_id }))
        .forUpdate()
        .first();
      if (subscription) renewed.push({ renewalId: Number(renewal.id), length: renewal.ends_at.getTime() - renewal.previous_ends_at.getTime(), subscription });
    }
    return { created, renewed };
  }

  /** The months of renewals not taken back, in ms, for the subscriptions of one order item. */
  async renewedLength(orderItemId: number, trx: Knex.Transaction): Promise<number> {
    const rows = await SubscriptionRenewalModel.query(trx)
      .joinRelated('subscription')
      .where('subscription.order_item_id', orderItemId)
      .whereNull('subscription_renewals.refunded_at')
      .select('subscription_renewals.previous_ends_at', 'subscription_renewals.ends_at');
    return rows.reduce((sum, row) => sum + (row.ends_at.getTime() - row.previous_ends_at.getTime()), 0);
  }

  /** The order items whose renewals of this subscription (or of the one it replaced) still count. */
  async renewalItems(subscriptionId: number, trx: Knex.Transaction): Promise<number[]> {
    const rows = await SubscriptionRenewalModel.query(trx)
      .joinRelated('subscription')
      .whereIn('subscription.order_item_id', SubscriptionModel.query(trx).select('order_item_id').where({ id: subscriptionId }))
      .whereNull('subscription_renewals.refunded_at')
      .select('subscription_renewals.order_item_id');
    return rows.map((row) => Number(row.order_item_id));
  }

  async markRenewalRefunded(renewalId: number, at: Date, trx: Knex.Transaction): Promise<void> {
    await SubscriptionRenewalModel.query(trx).findById(renewalId).patch({ refunded_at: at });
  }

  /** Ended now because its money went back: the slot is free at once. */
  async markRefunded(id: number, at: Date, trx: Knex.Transaction): Promise<void> {
    await SubscriptionModel.query(trx).patch({ status: 'refunded', ended_at: at, updated_at: at }).where({ id, status: 'active' });
  }

  /** A shorter period (a renewal taken back); the new end gets its own reminder. */
  async shorten(id: number, endsAt: Date, at: Date, trx: Knex.Transaction): Promise<void> {
    await SubscriptionModel.query(trx).patch({ ends_at: endsAt, reminded_at: null, updated_at: at }).where({ id });
  }

  /** Suspends (`at`) or lifts the suspension (null) of those not already so; answers the ids changed. */
  async setSuspended(ids: number[], at: Date | null, now: Date, trx: Knex.Transaction): Promise<number[]> {
    if (ids.length === 0) return [];
    const query = SubscriptionModel.query(trx).patch({ suspended_at: at, updated_at: now }).whereIn('id', ids);
    const changed = await (at === null ? query.whereNotNull('suspended_at') : query.whereNull('suspended_at')).returning('id');
    return (changed as unknown as Array<{ id: number }>).map((row) => Number(row.id));
  }

  /**
   * Active subscriptions whose end is at or before `now`, oldest end first, locked; rows another
   * worker holds are skipped (it is ending them), so two runs never end the same one twice.
   */
  async dueToEnd(now: Date, limit: number, trx: Knex.Transaction): Promise<SubscriptionModel[]> {
    return (
      SubscriptionModel.query(trx)
        .where({ status: 'active' })
        .where('ends_at', '<=', now)
        // A slot held for a renewal charge still being retried ends when the hold does.
        .where((held) => held.whereNull('held_until').orWhere('held_until', '<=', now))
        .orderBy('ends_at')
        .orderBy('id')
        .limit(limit)
        .forUpdate()
        .skipLocked()
    );
  }

  /** Ended at its end time (not at the moment the job noticed). */
  async markEnded(id: number, at: Date, trx: Knex.Transaction): Promise<void> {
    await SubscriptionModel.query(trx)
      .findById(id)
      .where({ status: 'active' })
      .patch({ status: 'ended', ended_at: ref('ends_at'), updated_at: at });
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

  /** Takes a platform's slot-claim advisory lock until the transaction ends (the same lock `claimFirstFreeSlot` takes). */
  async lockPlatformClaims(lock: { lockClass: number; platformId: number }, trx: Knex.Transaction): Promise<void> {
    await sqlRows(trx, 'select pg_advisory_xact_lock($1, $2)', [lock.lockClass, lock.platformId]);
  }
}
