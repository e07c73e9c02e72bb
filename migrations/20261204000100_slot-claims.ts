// Finding and taking a free slot (issue 16): the free-slot read becomes a function, and a claim's
// first try takes the platform's claim lock and the first free slot in one call.
//
// free_slots: the slots of these accounts that no active subscription holds at any moment of the
// period, in the global order (account id, then slot), after a given position: what the
// exclusion constraint subscriptions_no_shared_slot counts as overlap (slot 0 is the whole
// account; an account of one slot is offered whole). A plain SQL function, so PostgreSQL inlines
// it into the caller's query and a `limit` stops the probing early.
//
// claim_first_free_slot (free_slots' arguments after the lock's): takes the platform's claim lock (the advisory lock SubscriptionsService
// takes: class 0x5355, then the platform), then inserts the new subscription on the first free
// slot, doing nothing on a conflict. In PL/pgSQL each statement reads a fresh snapshot, so the
// read after the lock sees every claim committed while this one waited: one round trip where a
// claim sent two, inside the time the lock is held. Returns the row, or none.
import type { Knex } from 'knex';

/** free_slots as this migration makes it (20261205000100_free-slots-by-account's `down` restores it). */
export const FREE_SLOTS_PROBED_BY_PERIOD = `
    create or replace function free_slots(account_ids bigint[], slot_counts int[], after_account bigint, after_slot int, from_at timestamptz, to_at timestamptz)
    returns table (platform_account_id bigint, slot int) language sql stable as $$
      select c.id, s.slot
        from unnest(account_ids, slot_counts) as c (id, slots_count)
       cross join lateral generate_series(
               case when c.slots_count = 1 then 0 else 1 end,
               case when c.slots_count = 1 then 0 else c.slots_count end) as s (slot)
       where (c.id, s.slot) > (after_account, after_slot)
         and not exists (
               select 1 from subscriptions x
                where x.platform_account_id = c.id and x.status = 'active'
                  and (s.slot = 0 or x.slot = 0 or x.slot = s.slot)
                  and tstzrange(x.starts_at, x.ends_at) && tstzrange(from_at, to_at))
       order by c.id, s.slot
    $$`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(FREE_SLOTS_PROBED_BY_PERIOD);
  await knex.raw(`
    create function claim_first_free_slot(
      lock_class int, lock_platform bigint,
      account_ids bigint[], slot_counts int[], after_account bigint, after_slot int, new_starts_at timestamptz, new_ends_at timestamptz,
      new_user_id bigint, new_order_item_id bigint, new_unit int, new_replaced_from_id bigint, created timestamptz)
    returns setof subscriptions language plpgsql volatile as $$
    begin
      perform pg_advisory_xact_lock(lock_class, lock_platform::int);
      return query
        insert into subscriptions (user_id, order_item_id, unit, platform_account_id, slot, starts_at, ends_at, replaced_from_id, created_at, updated_at, status)
        select new_user_id, new_order_item_id, new_unit, free.platform_account_id, free.slot, new_starts_at, new_ends_at, new_replaced_from_id, created, created, 'active'
          from free_slots(account_ids, slot_counts, after_account, after_slot, new_starts_at, new_ends_at) free
         limit 1
        on conflict do nothing
        returning *;
    end
    $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    'drop function if exists claim_first_free_slot(int, bigint, bigint[], int[], bigint, int, timestamptz, timestamptz, bigint, bigint, int, bigint, timestamptz)',
  );
  await knex.raw('drop function if exists free_slots(bigint[], int[], bigint, int, timestamptz, timestamptz)');
}
