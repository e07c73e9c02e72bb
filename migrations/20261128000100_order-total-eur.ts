// Admin totals are in EUR (spec section 9) while buyers pay in EUR or KRW, and the shop keeps no
// exchange rate. Every order therefore records, when it is made, what the same option sells for
// in EUR: the catalog's EUR sale price × quantity (the total itself for EUR orders). Existing
// orders are backfilled from their items and the catalog's EUR prices as they stand now; an
// option with no EUR price counts 0.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => {
    t.bigInteger('total_eur_minor');
  });
  await knex.raw(`
    update orders set total_eur_minor = case
      when orders.currency = 'EUR' then orders.total_minor
      else coalesce((
        select sum(order_items.quantity * platform_prices.sale_price_minor)
        from order_items
        join platform_prices
          on platform_prices.platform_id = order_items.platform_id
         and platform_prices.duration_id = order_items.duration_id
         and platform_prices.plan_type_id = order_items.plan_type_id
         and platform_prices.currency = 'EUR'
        where order_items.order_id = orders.id
      ), 0)
    end`);
  await knex.raw('alter table orders alter column total_eur_minor set not null');
  await knex.raw('alter table orders add constraint orders_total_eur_check check (total_eur_minor >= 0)');
  // The dashboard's revenue: paid orders by the day they were paid.
  await knex.raw('create index orders_paid_at on orders (paid_at) where paid_at is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index orders_paid_at');
  await knex.schema.alterTable('orders', (t) => {
    t.dropChecks(['orders_total_eur_check']);
    t.dropColumn('total_eur_minor');
  });
}
