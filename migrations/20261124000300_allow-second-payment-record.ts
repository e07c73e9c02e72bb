// A buyer can pay one order twice (two tabs, two methods). Both payments must be recorded as
// paid so staff can refund one; activation still happens once, guarded by the order's state.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists payments_one_paid_per_order');
  await knex.raw("create index payments_paid_by_order on payments (order_id) where status = 'paid'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists payments_paid_by_order');
  await knex.raw("create unique index payments_one_paid_per_order on payments (order_id) where status = 'paid'");
}
