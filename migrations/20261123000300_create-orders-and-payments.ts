// Orders (what a buyer pays for), their items, the payments made against them, and every
// provider notification received, stored once per provider event id so that a duplicate
// delivery can never be applied twice.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('orders', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').notNullable().references('users.id');
    t.text('email').notNullable(); // the buyer's address when the order was made
    // 0 created, 1 awaiting payment, 2 completed, 3 payment failed, 4 expired unpaid, 5 refunded, 6 paid but not completed
    t.smallint('state').notNullable().defaultTo(0);
    t.specificType('currency', 'char(3)').notNullable();
    t.bigInteger('total_minor').notNullable();
    t.smallint('payment_method');
    t.smallint('language_id').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('paid_at', { useTz: true });
    t.timestamp('completed_at', { useTz: true });
    t.check('state between 0 and 6', [], 'orders_state_check');
    t.check("currency in ('EUR', 'KRW')", [], 'orders_currency_check');
    t.check('total_minor >= 0', [], 'orders_total_check');
    t.check('payment_method is null or payment_method between 1 and 6', [], 'orders_payment_method_check');
    t.check('language_id in (1, 2)', [], 'orders_language_check');
    t.check('(state not in (2, 5, 6)) or paid_at is not null', [], 'orders_paid_at_check');
    t.index(['user_id', 'created_at']);
    t.index(['state', 'created_at']);
  });

  await knex.schema.createTable('order_items', (t) => {
    t.bigIncrements('id');
    t.bigInteger('order_id').notNullable().references('orders.id').onDelete('CASCADE');
    t.integer('platform_id').notNullable().references('platforms.id');
    t.smallint('duration_id').notNullable().references('durations.id');
    t.smallint('plan_type_id').notNullable().references('plan_types.id');
    t.smallint('months').notNullable();
    t.smallint('quantity').notNullable().defaultTo(1);
    t.bigInteger('unit_price_minor').notNullable();
    t.specificType('currency', 'char(3)').notNullable();
    t.boolean('needs_invitation').notNullable().defaultTo(false);
    t.text('invitation_email');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check('months between 1 and 36', [], 'order_items_months_check');
    t.check('quantity between 1 and 10', [], 'order_items_quantity_check');
    t.check('unit_price_minor > 0', [], 'order_items_price_check');
    t.check("currency in ('EUR', 'KRW')", [], 'order_items_currency_check');
    t.index(['order_id']);
    t.index(['platform_id']);
  });

  await knex.schema.createTable('payments', (t) => {
    t.bigIncrements('id');
    t.bigInteger('order_id').notNullable().references('orders.id');
    t.text('provider').notNullable();
    t.smallint('method').notNullable();
    t.text('provider_reference'); // checkout session, order or transaction id at the provider
    t.bigInteger('amount_minor').notNullable();
    t.specificType('currency', 'char(3)').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.text('checkout_url');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('settled_at', { useTz: true });
    t.check("provider in ('stripe', 'coinpal', 'payssion', 'demo')", [], 'payments_provider_check');
    t.check('method between 1 and 6', [], 'payments_method_check');
    t.check("status in ('pending', 'paid', 'failed', 'expired', 'refunded')", [], 'payments_status_check');
    t.check('amount_minor >= 0', [], 'payments_amount_check');
    t.index(['order_id']);
    t.index(['status', 'created_at']);
  });
  await knex.raw('create unique index payments_provider_reference_unique on payments (provider, provider_reference) where provider_reference is not null');
  // An order is paid at most once: a second successful payment is a refund case for staff, never a second activation.
  await knex.raw("create unique index payments_one_paid_per_order on payments (order_id) where status = 'paid'");

  await knex.schema.createTable('payment_events', (t) => {
    t.bigIncrements('id');
    t.text('provider').notNullable();
    t.text('event_id').notNullable();
    t.text('event_type').notNullable();
    t.bigInteger('payment_id').references('payments.id');
    t.bigInteger('order_id').references('orders.id');
    t.jsonb('payload').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('processed_at', { useTz: true });
    t.text('outcome');
    t.unique(['provider', 'event_id'], { indexName: 'payment_events_provider_event_unique' });
    t.index(['order_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('payment_events');
  await knex.schema.dropTable('payments');
  await knex.schema.dropTable('order_items');
  await knex.schema.dropTable('orders');
}
