// The money ledger (issue 25): every money event of an order, one row each, keyed by the
// provider's own ids, whatever order they arrive in. Access for each paid period is a pure
// function of a payment's rows (packages/core/src/modules/payments/money-ledger.ts).
//
// - money_events: the facts are never changed once written (kind, subject, status, amount); a
//   repeat of one is refused by the unique (provider, event_key). An event that arrives before its
//   payment is known or paid WAITS: `waiting_for` names the payment as the provider does (Stripe's
//   PaymentIntent, or our reference), `applied_at` is null. When the payment is paid, its waiting
//   rows get their payment and order and are applied in the same transaction; `effect` says what
//   each did (for staff). The partial index finds the waiting ones (admin dashboard).
// - installation: the shop's installation id (made at first use, with the identity of the database
//   it was made in, so a copied database makes its own): it prefixes every Stripe idempotency key,
//   so two shops (staging and production) sharing one Stripe account never collide.
// - payment_disputes is no longer written (disputes are ledger rows); it stays for its history.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('money_events', (t) => {
    t.bigIncrements('id');
    t.text('provider').notNullable();
    t.text('event_key').notNullable();
    t.text('event_type').notNullable();
    t.bigInteger('order_id').references('orders.id');
    t.bigInteger('payment_id').references('payments.id');
    t.text('waiting_for');
    t.text('kind').notNullable();
    t.text('subject').notNullable();
    t.text('status').notNullable();
    t.bigInteger('amount_minor').notNullable().defaultTo(0);
    t.specificType('currency', 'char(3)');
    t.timestamp('recorded_at', { useTz: true }).notNullable();
    t.timestamp('applied_at', { useTz: true });
    t.text('effect');
    t.unique(['provider', 'event_key'], { indexName: 'money_events_provider_event_key_unique' });
    t.check("kind in ('payment', 'refund', 'refund_total', 'dispute', 'chargeback')", [], 'money_events_kind_check');
    t.check('amount_minor >= 0', [], 'money_events_amount_check');
    t.check('payment_id is not null or waiting_for is not null', [], 'money_events_names_a_payment');
    t.index(['payment_id']);
    t.index(['order_id']);
    t.index(['recorded_at']);
  });
  await knex.raw('create index money_events_waiting on money_events (provider, waiting_for) where applied_at is null');
  // What the shop knew before the ledger, as ledger rows: paid payments, refunds made or under
  // way, and disputes, so every order's standing reads the same after this migration as before.
  await knex.raw(`
    insert into money_events (provider, event_key, event_type, order_id, payment_id, kind, subject, status, amount_minor, currency, recorded_at, applied_at, effect)
    select provider, 'backfill:payment:' || id, 'backfill', order_id, id, 'payment', coalesce(provider_payment_id, reference, id::text), 'paid',
           amount_minor, currency, coalesce(settled_at, updated_at), coalesce(settled_at, updated_at), 'paid'
      from payments where status in ('paid', 'refunded')`);
  await knex.raw(`
    insert into money_events (provider, event_key, event_type, order_id, payment_id, kind, subject, status, amount_minor, currency, recorded_at, applied_at, effect)
    select p.provider, 'backfill:refund:' || r.id, 'backfill', r.order_id, r.payment_id,
           case when r.source = 'chargeback' then 'chargeback' else 'refund' end,
           coalesce(r.provider_refund_id, 'refund:' || r.id), case when r.source = 'chargeback' then 'succeeded' else r.status end,
           r.amount_minor, r.currency, r.created_at, r.created_at, 'no_change'
      from refunds r join payments p on p.id = r.payment_id
     where r.status in ('pending', 'succeeded')`);
  await knex.raw(`
    insert into money_events (provider, event_key, event_type, order_id, payment_id, kind, subject, status, amount_minor, currency, recorded_at, applied_at, effect)
    select d.provider, 'backfill:dispute:' || d.id, 'backfill', p.order_id, d.payment_id, 'dispute', d.dispute_id,
           d.status, 0, p.currency, d.updated_at, d.updated_at, 'no_change'
      from payment_disputes d join payments p on p.id = d.payment_id`);

  await knex.schema.createTable('installation', (t) => {
    t.text('key').primary();
    t.text('value').notNullable();
    t.text('database');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('installation');
  await knex.schema.dropTable('money_events');
}
