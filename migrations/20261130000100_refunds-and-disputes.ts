// Money going back: refunds (by staff through the provider, on the provider's side, or a
// chargeback by the buyer's bank) and disputes, and what they do to access.
//
// - payments.provider_payment_id: the provider's id of the money (Stripe's payment_intent), which
//   Stripe's charge and dispute events name instead of our reference.
// - refunds: one row per amount given back. At most one `pending` refund per payment (the partial
//   unique index): a double click or two staff at once get one refund, the other a 409. A
//   provider's id for a refund or dispute is stored once per payment, so a notification about a
//   refund we made ourselves does not count it twice.
// - payment_disputes: one row per provider dispute, whichever of its events arrives first, so a
//   late "opened" after "won" or "lost" changes nothing.
// - subscriptions: `refunded` is a status (its slot is free at once, the exclusion constraint
//   only covers `active`); `suspended_at` marks access withheld during a dispute (the slot stays
//   held, so a won dispute gives it back until the original end).
// - subscription_renewals.refunded_at: a refunded renewal's months were taken back.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    t.text('provider_payment_id');
  });
  await knex.raw('create unique index payments_provider_payment_id_unique on payments (provider, provider_payment_id) where provider_payment_id is not null');

  await knex.schema.createTable('refunds', (t) => {
    t.bigIncrements('id');
    t.bigInteger('order_id').notNullable().references('orders.id');
    t.bigInteger('payment_id').notNullable().references('payments.id');
    t.text('source').notNullable();
    t.text('status').notNullable();
    t.bigInteger('amount_minor').notNullable();
    t.bigInteger('fee_minor').notNullable().defaultTo(0);
    t.specificType('currency', 'char(3)').notNullable();
    t.text('provider_refund_id');
    t.text('manual_reference');
    t.text('reason');
    t.boolean('override_window').notNullable().defaultTo(false);
    t.bigInteger('actor_user_id').references('users.id');
    t.text('actor_label');
    t.text('error');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.timestamp('completed_at', { useTz: true });
    t.check("source in ('staff', 'provider', 'chargeback')", [], 'refunds_source_check');
    t.check("status in ('pending', 'succeeded', 'failed')", [], 'refunds_status_check');
    t.check('amount_minor > 0', [], 'refunds_amount_check');
    t.check('fee_minor >= 0', [], 'refunds_fee_check');
    t.check("currency in ('EUR', 'KRW')", [], 'refunds_currency_check');
    t.index(['order_id']);
    t.index(['payment_id']);
    t.index(['status', 'completed_at']);
  });
  await knex.raw("create unique index refunds_one_pending_per_payment on refunds (payment_id) where status = 'pending'");
  await knex.raw('create unique index refunds_provider_refund_id_unique on refunds (payment_id, provider_refund_id) where provider_refund_id is not null');

  await knex.schema.createTable('payment_disputes', (t) => {
    t.bigIncrements('id');
    t.text('provider').notNullable();
    t.text('dispute_id').notNullable();
    t.bigInteger('payment_id').notNullable().references('payments.id');
    t.text('status').notNullable();
    t.timestamp('opened_at', { useTz: true });
    t.timestamp('closed_at', { useTz: true });
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['provider', 'dispute_id']);
    t.check("status in ('open', 'won', 'lost')", [], 'payment_disputes_status_check');
    t.index(['payment_id']);
  });

  await knex.raw('alter table subscriptions drop constraint subscriptions_status_check');
  await knex.raw("alter table subscriptions add constraint subscriptions_status_check check (status in ('active', 'ended', 'replaced', 'refunded'))");
  await knex.schema.alterTable('subscriptions', (t) => {
    t.timestamp('suspended_at', { useTz: true });
  });
  await knex.schema.alterTable('subscription_renewals', (t) => {
    t.timestamp('refunded_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('subscription_renewals', (t) => {
    t.dropColumn('refunded_at');
  });
  await knex.schema.alterTable('subscriptions', (t) => {
    t.dropColumn('suspended_at');
  });
  await knex.raw("update subscriptions set status = 'ended' where status = 'refunded'");
  await knex.raw('alter table subscriptions drop constraint subscriptions_status_check');
  await knex.raw("alter table subscriptions add constraint subscriptions_status_check check (status in ('active', 'ended', 'replaced'))");
  await knex.schema.dropTable('payment_disputes');
  await knex.schema.dropTable('refunds');
  await knex.raw('drop index payments_provider_payment_id_unique');
  await knex.schema.alterTable('payments', (t) => {
    t.dropColumn('provider_payment_id');
  });
}
