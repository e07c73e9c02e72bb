// A platform whose every active account is broken goes off sale by itself (issue 33, item 6).
// - platforms.off_sale_since: when the last of its active accounts broke; null while it sells.
//   Set and cleared by the account-health flow in the transaction that changes an account's
//   health. A write to `platforms` moves the catalog version (catalog-version migration), so
//   every process's storefront copy shows the change at once.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('platforms', (t) => {
    t.timestamp('off_sale_since', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('platforms', (t) => {
    t.dropColumn('off_sale_since');
  });
}
