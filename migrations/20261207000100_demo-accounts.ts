// Demo mode seeds one platform account per platform so that a newcomer's purchase activates
// (issue 24). Such an account is marked here, so staff and the operator can tell it from a real
// one (and the dashboard and the docs can say so); real accounts are never demo.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('platform_accounts', (table) => {
    table.boolean('is_demo').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('platform_accounts', (table) => {
    table.dropColumn('is_demo');
  });
}
