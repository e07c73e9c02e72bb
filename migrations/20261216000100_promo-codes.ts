// Promotion codes (issue 37, items 1 and 2).
// - promo_codes: a code staff run. Stored upper-case (codes are case-insensitive), unique. A
//   percentage or fixed amounts per currency (EUR, KRW), never both. `redeemed` counts the live
//   redemptions; its check against `total_limit` is what holds the limit when many buyers apply
//   the code at once: the 11th increment of a 10-redemption code is refused by the database.
// - promo_redemptions: a code on an order. One live redemption per order (a partial unique index:
//   a released one, of an order that expired unpaid, stays as history).
// - orders.subtotal_minor (the catalog price, backfilled from total_minor), discount_minor and
//   discount_source ('code' or 'welcome'), promo_code (the code as applied, shown with the order
//   like its items' names; the redemption row is the record). total_minor stays what the order costs after its
//   discount, so every existing reader stays right.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('promo_codes', (t) => {
    t.bigIncrements('id').primary();
    t.text('code').notNullable().unique();
    t.integer('percent_off');
    t.integer('amount_eur_minor');
    t.integer('amount_krw_minor');
    t.timestamp('starts_at', { useTz: true });
    t.timestamp('ends_at', { useTz: true });
    t.integer('total_limit');
    t.integer('per_buyer_limit');
    t.boolean('first_order_only').notNullable().defaultTo(false);
    t.specificType('platform_ids', 'integer[]');
    t.specificType('duration_ids', 'integer[]');
    t.boolean('active').notNullable().defaultTo(true);
    t.integer('redeemed').notNullable().defaultTo(0);
    t.text('note');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.check("code = upper(code) and code ~ '^[A-Z0-9_-]{3,32}$'", [], 'promo_codes_code_check');
    t.check(
      '(percent_off is not null and percent_off between 1 and 99 and amount_eur_minor is null and amount_krw_minor is null) or ' +
        '(percent_off is null and (amount_eur_minor is not null or amount_krw_minor is not null))',
      [],
      'promo_codes_kind_check',
    );
    t.check('(amount_eur_minor is null or amount_eur_minor > 0) and (amount_krw_minor is null or amount_krw_minor > 0)', [], 'promo_codes_amount_check');
    t.check('starts_at is null or ends_at is null or starts_at < ends_at', [], 'promo_codes_window_check');
    t.check('(total_limit is null or total_limit > 0) and (per_buyer_limit is null or per_buyer_limit > 0)', [], 'promo_codes_limits_positive');
    t.check('redeemed >= 0', [], 'promo_codes_redeemed_check');
    // The total limit, held by the database under concurrency.
    t.check('total_limit is null or redeemed <= total_limit', [], 'promo_codes_total_limit');
  });

  await knex.schema.createTable('promo_redemptions', (t) => {
    t.bigIncrements('id').primary();
    t.bigInteger('promo_code_id').notNullable().references('id').inTable('promo_codes');
    t.bigInteger('order_id').notNullable().references('id').inTable('orders').onDelete('CASCADE');
    t.bigInteger('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('currency').notNullable();
    t.integer('discount_minor').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('released_at', { useTz: true });
    t.check("currency in ('EUR', 'KRW')", [], 'promo_redemptions_currency_check');
    t.check('discount_minor > 0', [], 'promo_redemptions_discount_check');
    t.index(['promo_code_id', 'user_id']);
  });
  // One code per order.
  await knex.raw('create unique index promo_redemptions_one_per_order on promo_redemptions (order_id) where released_at is null');

  await knex.schema.alterTable('orders', (t) => {
    t.integer('subtotal_minor');
    t.integer('discount_minor').notNullable().defaultTo(0);
    t.text('discount_source');
    t.text('promo_code');
  });
  await knex.raw('update orders set subtotal_minor = total_minor');
  await knex.raw('alter table orders alter column subtotal_minor set not null');
  await knex.raw("alter table orders add constraint orders_discount_source_check check (discount_source is null or discount_source in ('code', 'welcome'))");
  await knex.raw(
    "alter table orders add constraint orders_discount_check check (discount_minor >= 0 and total_minor = subtotal_minor - discount_minor and (discount_minor = 0) = (discount_source is null) and (coalesce(discount_source, '') = 'code') = (promo_code is not null))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table orders drop constraint orders_discount_check');
  await knex.raw('alter table orders drop constraint orders_discount_source_check');
  await knex.schema.alterTable('orders', (t) => {
    t.dropColumn('promo_code');
    t.dropColumn('discount_source');
    t.dropColumn('discount_minor');
    t.dropColumn('subtotal_minor');
  });
  await knex.schema.dropTable('promo_redemptions');
  await knex.schema.dropTable('promo_codes');
}
