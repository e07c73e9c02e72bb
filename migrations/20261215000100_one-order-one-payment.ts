// One order, one payment (issue 34, item 3).
// - checkout_claims: the one checkout of an order being opened now. A checkout claims its order in
//   a statement of its own, asks the provider with no transaction open (no pooled connection is
//   held across a provider's answer), records the session, and gives the claim up; another
//   checkout of the order waits for the claim and then reuses that session. `expires_at` (the
//   database's clock) ends a claim whose process died: the holder moves it on before each
//   provider call.
// - A second successful payment of an order is refunded through its provider at once. That refund
//   is a row of its own kind, `double_payment`, made by the shop (no staff actor), at most one per
//   payment: a replayed notification of the second payment cannot make a second one (the unique
//   index refuses it).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('checkout_claims', (t) => {
    t.bigInteger('order_id').primary().references('id').inTable('orders').onDelete('CASCADE');
    t.uuid('token').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
  });
  await knex.raw('alter table refunds drop constraint refunds_source_check');
  await knex.raw("alter table refunds add constraint refunds_source_check check (source in ('staff', 'provider', 'chargeback', 'double_payment'))");
  await knex.raw("create unique index refunds_one_double_payment_per_payment on refunds (payment_id) where source = 'double_payment'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index refunds_one_double_payment_per_payment');
  await knex.raw("delete from refunds where source = 'double_payment'");
  await knex.raw('alter table refunds drop constraint refunds_source_check');
  await knex.raw("alter table refunds add constraint refunds_source_check check (source in ('staff', 'provider', 'chargeback'))");
  await knex.schema.dropTable('checkout_claims');
}
