// Spending credit (issue 37, items 4 and 5): a payment may be paid partly or wholly from the
// buyer's credit (credit_entries, migration 20261216000050).
// - payments.credit_minor: the part of the payment's amount paid from credit. `amount_minor` stays
//   the payment's whole amount (the order's total), so the money ledger's standing, the refund
//   policy's fee and "the whole refund" read as before; the provider is asked only for
//   amount − credit. A payment wholly covered by credit has provider 'credit': no provider is
//   asked, it is paid in the transaction that opens it.
// - refunds.credit_minor: the part of a refund given back as credit (before any money: a refund
//   gives back credit first, up to what the payment took from credit); the provider is asked only
//   for amount − credit.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    t.bigInteger('credit_minor').notNullable().defaultTo(0);
    t.check('credit_minor >= 0 and credit_minor <= amount_minor', [], 'payments_credit_check');
  });
  await knex.schema.alterTable('refunds', (t) => {
    t.bigInteger('credit_minor').notNullable().defaultTo(0);
    t.check('credit_minor >= 0 and credit_minor <= amount_minor', [], 'refunds_credit_check');
  });
  await knex.raw('alter table payments drop constraint payments_provider_check');
  await knex.raw("alter table payments add constraint payments_provider_check check (provider in ('stripe', 'coinpal', 'payssion', 'demo', 'credit'))");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("delete from payments where provider = 'credit'");
  await knex.raw('alter table payments drop constraint payments_provider_check');
  await knex.raw("alter table payments add constraint payments_provider_check check (provider in ('stripe', 'coinpal', 'payssion', 'demo'))");
  await knex.schema.alterTable('refunds', (t) => t.dropColumn('credit_minor'));
  await knex.schema.alterTable('payments', (t) => t.dropColumn('credit_minor'));
}
