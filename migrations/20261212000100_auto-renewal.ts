// Automatic renewal (issue 28): a buyer opts in at card payment, is reminded 3 days before every
// charge, the worker charges the saved card off-session at the end date, and a failed charge is
// retried after 1 and 3 days while the slot is held for the buyer.
//
// - stripe_customers: the Stripe Customer of a buyer (one per buyer), which the saved cards belong to.
// - payments.save_card: the buyer ticked "Renew automatically" for this card payment (Checkout with
//   `customer` and `setup_future_usage=off_session`).
// - auto_renewals: per (order item, unit) — the key a subscription keeps through renewals and
//   replacements — whether it renews by itself, and the saved card it is charged to.
// - renewal_charges: one row per (subscription, period end): the reminder of that period and
//   every charge attempt for it. The unique key is what stops two workers, a retried job or a
//   worker killed mid-charge from charging one period twice (with Stripe's Idempotency-Key, made
//   from the same subscription, period and attempt).
// - subscriptions.held_until: during dunning the slot stays held past the end (access does not):
//   the exclusion constraint and free_slots count the period up to greatest(ends_at, held_until).
// - order_items.renews_subscription_id: a renewal order names the subscription it extends, so
//   that activation extends that one (not another subscription of the same platform).
import type { Knex } from 'knex';

const FREE_SLOTS_HELD = `
    create or replace function free_slots(account_ids bigint[], slot_counts int[], after_account bigint, after_slot int, from_at timestamptz, to_at timestamptz)
    returns table (platform_account_id bigint, slot int) language sql stable as $$
      select c.id, s.slot
        from unnest(account_ids, slot_counts) as c (id, slots_count)
       cross join lateral (
               select array_agg(x.slot) as slots
                 from subscriptions x
                where x.platform_account_id = c.id and x.status = 'active'
                  and tstzrange(x.starts_at, greatest(x.ends_at, x.held_until)) && tstzrange(from_at, to_at)) as held
       cross join lateral generate_series(
               case when c.slots_count = 1 then 0 else 1 end,
               case when c.slots_count = 1 then 0 else c.slots_count end) as s (slot)
       where c.id >= after_account and (c.id, s.slot) > (after_account, after_slot)
         and (held.slots is null or not (s.slot = 0 or 0 = any(held.slots) or s.slot = any(held.slots)))
       order by c.id, s.slot
    $$`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('stripe_customers', (t) => {
    t.bigInteger('user_id').primary().references('users.id');
    t.text('customer_id').notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable();
  });
  await knex.schema.alterTable('payments', (t) => {
    t.boolean('save_card').notNullable().defaultTo(false);
  });
  await knex.schema.alterTable('order_items', (t) => {
    t.bigInteger('renews_subscription_id').references('subscriptions.id');
  });

  await knex.schema.createTable('auto_renewals', (t) => {
    t.bigInteger('order_item_id').notNullable().references('order_items.id');
    t.smallint('unit').notNullable().defaultTo(0);
    t.bigInteger('user_id').notNullable().references('users.id');
    t.boolean('enabled').notNullable();
    // The card payment that saved the card; its PaymentIntent names the customer and the card.
    t.bigInteger('source_payment_id').references('payments.id');
    t.text('customer_id');
    t.text('payment_method_id');
    t.text('card_brand');
    t.text('card_last4');
    // A setup-mode Checkout Session the buyer was sent to for a new card (dunning), read before the next try.
    t.text('card_update_session_id');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.primary(['order_item_id', 'unit']);
    t.index(['user_id']);
    t.check("card_last4 is null or card_last4 ~ '^[0-9]{4}$'", [], 'auto_renewals_last4_check');
  });

  await knex.schema.createTable('renewal_charges', (t) => {
    t.bigIncrements('id');
    t.bigInteger('subscription_id').notNullable().references('subscriptions.id');
    // The end date this charge renews from: the period it is about.
    t.timestamp('period_end', { useTz: true }).notNullable();
    // auto: the saved card is charged; manual: the buyer got a link to pay the renewal order.
    t.text('kind').notNullable();
    t.text('status').notNullable();
    t.bigInteger('amount_minor').notNullable();
    t.specificType('currency', 'char(3)').notNullable();
    t.text('card_last4');
    t.bigInteger('order_id').references('orders.id');
    t.bigInteger('payment_id').references('payments.id');
    t.smallint('attempts').notNullable().defaultTo(0);
    t.smallint('failures').notNullable().defaultTo(0);
    t.text('payment_intent_id');
    t.text('decline_code');
    t.timestamp('next_attempt_at', { useTz: true });
    t.timestamp('reminded_at', { useTz: true }).notNullable();
    t.text('reminder_key').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['subscription_id', 'period_end'], { indexName: 'renewal_charges_one_per_period' });
    t.index(['status', 'next_attempt_at']);
    t.check("kind in ('auto', 'manual')", [], 'renewal_charges_kind_check');
    t.check(
      "status in ('scheduled', 'charging', 'retrying', 'requires_action', 'succeeded', 'failed', 'cancelled', 'manual')",
      [],
      'renewal_charges_status_check',
    );
  });

  await knex.schema.alterTable('subscriptions', (t) => {
    t.timestamp('held_until', { useTz: true });
  });
  await knex.raw('alter table subscriptions drop constraint subscriptions_no_shared_slot');
  await knex.raw(`
    alter table subscriptions add constraint subscriptions_no_shared_slot
      exclude using gist (
        platform_account_id with =,
        slot_range with &&,
        tstzrange(starts_at, greatest(ends_at, held_until)) with &&
      ) where (status = 'active')`);
  await knex.raw(FREE_SLOTS_HELD);
}

export async function down(knex: Knex): Promise<void> {
  const { up: previousFreeSlots } = await import('./20261205000100_free-slots-by-account.js');
  await previousFreeSlots(knex);
  await knex.raw('alter table subscriptions drop constraint subscriptions_no_shared_slot');
  await knex.raw(`
    alter table subscriptions add constraint subscriptions_no_shared_slot
      exclude using gist (
        platform_account_id with =,
        slot_range with &&,
        tstzrange(starts_at, ends_at) with &&
      ) where (status = 'active')`);
  await knex.schema.alterTable('subscriptions', (t) => t.dropColumn('held_until'));
  await knex.schema.dropTable('renewal_charges');
  await knex.schema.dropTable('auto_renewals');
  await knex.schema.alterTable('order_items', (t) => t.dropColumn('renews_subscription_id'));
  await knex.schema.alterTable('payments', (t) => t.dropColumn('save_card'));
  await knex.schema.dropTable('stripe_customers');
}
