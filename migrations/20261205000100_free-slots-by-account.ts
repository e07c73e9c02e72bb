// A free-slot read reads its accounts' subscriptions, not the whole shop's (issue 16). free_slots
// asked, for each slot, whether an active subscription of that account overlaps the period, and
// PostgreSQL planned that as one anti-join. Planned from statistics taken when the table was
// smaller, or even from fresh ones, its inner side was the exclusion constraint's index probed by
// the period alone: every active subscription of every platform overlapping the period, read on
// every claim with the platform's claim lock held. Claims slowed as the shop sold more (pgbench
// on bench/journey-order.sql: 199 orders a second on a new database, 116 after 4,000 orders).
// Now each account's held slots are read by the account, through the same index.
import type { Knex } from 'knex';
import { FREE_SLOTS_PROBED_BY_PERIOD } from './20261204000100_slot-claims.js';

/**
 * free_slots with each account's held slots read by the account (`held`: the slots of its active
 * subscriptions overlapping the period, null when none). A lateral aggregate is not turned into a
 * join, so PostgreSQL reads it account by account through an index on the account, whatever its
 * statistics say (the anti-join it replaces was planned from them, and with a table that grew
 * since its last analysis, it read the whole table by period). Same answer: a slot is free when
 * nothing is held on the account, or neither it, nor the whole account (slot 0), is held.
 */
const PROBED_BY_ACCOUNT = `
    create or replace function free_slots(account_ids bigint[], slot_counts int[], after_account bigint, after_slot int, from_at timestamptz, to_at timestamptz)
    returns table (platform_account_id bigint, slot int) language sql stable as $$
      select c.id, s.slot
        from unnest(account_ids, slot_counts) as c (id, slots_count)
       cross join lateral (
               select array_agg(x.slot) as slots
                 from subscriptions x
                where x.platform_account_id = c.id and x.status = 'active'
                  and tstzrange(x.starts_at, x.ends_at) && tstzrange(from_at, to_at)) as held
       cross join lateral generate_series(
               case when c.slots_count = 1 then 0 else 1 end,
               case when c.slots_count = 1 then 0 else c.slots_count end) as s (slot)
       where c.id >= after_account and (c.id, s.slot) > (after_account, after_slot)
         and (held.slots is null or not (s.slot = 0 or 0 = any(held.slots) or s.slot = any(held.slots)))
       order by c.id, s.slot
    $$`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(PROBED_BY_ACCOUNT);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(FREE_SLOTS_PROBED_BY_PERIOD);
}
