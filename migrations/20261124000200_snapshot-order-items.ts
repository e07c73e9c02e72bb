// An order item keeps what the buyer saw when they ordered (names in their language, logo,
// colour), so that later catalog edits never rewrite an order's history.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('order_items', (t) => {
    t.text('platform_name').notNullable().defaultTo('');
    t.text('type_name').notNullable().defaultTo('');
    t.text('duration_name').notNullable().defaultTo('');
    t.text('platform_logo_base').notNullable().defaultTo('');
    t.text('platform_color_one').notNullable().defaultTo('#000000');
    t.smallint('platform_category').notNullable().defaultTo(0);
  });
  await knex.schema.alterTable('payments', (t) => {
    // Our reference sent to the provider ("<order>-<payment>"), unique per attempt.
    t.text('reference');
    t.unique(['reference'], { indexName: 'payments_reference_unique' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    t.dropUnique(['reference'], 'payments_reference_unique');
    t.dropColumn('reference');
  });
  await knex.schema.alterTable('order_items', (t) => {
    for (const column of ['platform_name', 'type_name', 'duration_name', 'platform_logo_base', 'platform_color_one', 'platform_category']) t.dropColumn(column);
  });
}
