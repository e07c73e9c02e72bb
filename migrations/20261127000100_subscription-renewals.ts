// Renewal: buying a platform again while a subscription of it is active extends that
// subscription on the same slot from its current end date. Each extension is recorded, one per
// (order item, unit): the unique index is what makes a repeated activation extend only once.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('subscription_renewals', (t) => {
    t.bigIncrements('id');
    t.bigInteger('subscription_id').notNullable().references('subscriptions.id');
    t.bigInteger('order_item_id').notNullable().references('order_items.id');
    t.smallint('unit').notNullable().defaultTo(0);
    t.timestamp('previous_ends_at', { useTz: true }).notNullable();
    t.timestamp('ends_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.unique(['order_item_id', 'unit'], { indexName: 'subscription_renewals_one_per_order_item_unit' });
    t.index(['subscription_id']);
    t.check('ends_at > previous_ends_at', [], 'subscription_renewals_period_check');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('subscription_renewals');
}
