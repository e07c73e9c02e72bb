// An order item may be bought more than once (quantity up to 10): each unit is its own
// subscription (its own slot). The foundation allowed one subscription per order item; the
// guarantee becomes one per (order item, unit), still ignoring the rows that replacements make.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('subscriptions', (t) => {
    t.smallint('unit').notNullable().defaultTo(0);
    t.check('unit between 0 and 9', [], 'subscriptions_unit_check');
  });
  await knex.raw('drop index subscriptions_one_per_order_item');
  await knex.raw('create unique index subscriptions_one_per_order_item_unit on subscriptions (order_item_id, unit) where replaced_from_id is null');
  // Waiting orders are retried oldest payment first.
  await knex.raw('create index orders_waiting_paid_at on orders (paid_at) where state = 6');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index orders_waiting_paid_at');
  await knex.raw('drop index subscriptions_one_per_order_item_unit');
  await knex.raw('create unique index subscriptions_one_per_order_item on subscriptions (order_item_id) where replaced_from_id is null');
  await knex.schema.alterTable('subscriptions', (t) => {
    t.dropChecks(['subscriptions_unit_check']);
    t.dropColumn('unit');
  });
}
