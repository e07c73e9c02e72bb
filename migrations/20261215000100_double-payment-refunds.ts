// One order, one payment (issue 34, item 3): a second successful payment of an order is refunded
// through its provider at once. That refund is a row of its own kind, `double_payment`, made by
// the shop (no staff actor), at most one per payment: a replayed notification of the second
// payment cannot make a second one (the unique index refuses it).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table refunds drop constraint refunds_source_check');
  await knex.raw("alter table refunds add constraint refunds_source_check check (source in ('staff', 'provider', 'chargeback', 'double_payment'))");
  await knex.raw("create unique index refunds_one_double_payment_per_payment on refunds (payment_id) where source = 'double_payment'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index refunds_one_double_payment_per_payment');
  await knex.raw("delete from refunds where source = 'double_payment'");
  await knex.raw('alter table refunds drop constraint refunds_source_check');
  await knex.raw("alter table refunds add constraint refunds_source_check check (source in ('staff', 'provider', 'chargeback'))");
}
