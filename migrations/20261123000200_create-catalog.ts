// The catalog: platforms with texts per language, duration and type options, prices per
// currency in integer minor units (EUR cents, KRW won), how-it-works points and FAQ.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // Durations are shared by all platforms; each platform enables the ones it sells.
  await knex.schema.createTable('durations', (t) => {
    t.smallint('id').primary();
    t.smallint('months').notNullable().unique();
    t.check('months between 1 and 36', [], 'durations_months_check');
  });

  // Plan types ("Standard", "Premium"...) are shared too, named per language.
  await knex.schema.createTable('plan_types', (t) => {
    t.smallint('id').primary();
    t.text('code').notNullable().unique();
  });
  await knex.schema.createTable('plan_type_texts', (t) => {
    t.smallint('plan_type_id').notNullable().references('plan_types.id').onDelete('CASCADE');
    t.smallint('language_id').notNullable();
    t.text('name').notNullable();
    t.primary(['plan_type_id', 'language_id']);
    t.check('language_id in (1, 2)', [], 'plan_type_texts_language_check');
  });

  await knex.schema.createTable('platforms', (t) => {
    t.increments('id');
    t.text('slug').notNullable().unique();
    // What kind of service: 0 video streaming (household guide), 1 music, 8 AI chat (login codes).
    t.smallint('category').notNullable();
    t.text('logo_base').notNullable();
    t.text('logo_carousel').notNullable();
    t.text('color_one').notNullable();
    t.text('color_two').notNullable();
    t.smallint('slots_count').notNullable();
    t.boolean('needs_invitation').notNullable().defaultTo(false);
    t.smallint('max_quantity').notNullable().defaultTo(1);
    t.boolean('is_enabled').notNullable().defaultTo(true);
    t.integer('sort_order').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check('category between 0 and 9', [], 'platforms_category_check');
    t.check('slots_count between 1 and 20', [], 'platforms_slots_count_check');
    t.check('max_quantity between 1 and 10', [], 'platforms_max_quantity_check');
    t.check("color_one ~ '^#[0-9a-fA-F]{6}$' and color_two ~ '^#[0-9a-fA-F]{6}$'", [], 'platforms_colors_check');
  });

  await knex.schema.createTable('platform_texts', (t) => {
    t.integer('platform_id').notNullable().references('platforms.id').onDelete('CASCADE');
    t.smallint('language_id').notNullable();
    t.text('name').notNullable();
    t.text('description').notNullable();
    t.primary(['platform_id', 'language_id']);
    t.check('language_id in (1, 2)', [], 'platform_texts_language_check');
  });

  await knex.schema.createTable('platform_how_it_works', (t) => {
    t.bigIncrements('id');
    t.integer('platform_id').notNullable().references('platforms.id').onDelete('CASCADE');
    t.smallint('language_id').notNullable();
    t.smallint('position').notNullable();
    t.text('text').notNullable();
    t.unique(['platform_id', 'language_id', 'position']);
    t.check('language_id in (1, 2)', [], 'platform_how_it_works_language_check');
  });

  await knex.schema.createTable('platform_faq', (t) => {
    t.bigIncrements('id');
    t.integer('platform_id').notNullable().references('platforms.id').onDelete('CASCADE');
    t.smallint('language_id').notNullable();
    t.smallint('position').notNullable();
    t.text('question').notNullable();
    t.text('answer').notNullable();
    t.unique(['platform_id', 'language_id', 'position']);
    t.check('language_id in (1, 2)', [], 'platform_faq_language_check');
  });

  await knex.schema.createTable('platform_durations', (t) => {
    t.integer('platform_id').notNullable().references('platforms.id').onDelete('CASCADE');
    t.smallint('duration_id').notNullable().references('durations.id');
    t.boolean('is_enabled').notNullable().defaultTo(true);
    t.primary(['platform_id', 'duration_id']);
  });

  await knex.schema.createTable('platform_plan_types', (t) => {
    t.integer('platform_id').notNullable().references('platforms.id').onDelete('CASCADE');
    t.smallint('plan_type_id').notNullable().references('plan_types.id');
    t.boolean('is_enabled').notNullable().defaultTo(true);
    t.smallint('position').notNullable().defaultTo(0);
    t.primary(['platform_id', 'plan_type_id']);
  });

  await knex.schema.createTable('platform_prices', (t) => {
    t.integer('platform_id').notNullable();
    t.smallint('duration_id').notNullable();
    t.smallint('plan_type_id').notNullable();
    t.specificType('currency', 'char(3)').notNullable();
    t.integer('price_minor').notNullable();
    t.integer('sale_price_minor').notNullable();
    t.primary(['platform_id', 'duration_id', 'plan_type_id', 'currency']);
    t.foreign(['platform_id', 'duration_id']).references(['platform_id', 'duration_id']).inTable('platform_durations').onDelete('CASCADE');
    t.foreign(['platform_id', 'plan_type_id']).references(['platform_id', 'plan_type_id']).inTable('platform_plan_types').onDelete('CASCADE');
    t.check("currency in ('EUR', 'KRW')", [], 'platform_prices_currency_check');
    t.check('price_minor > 0 and sale_price_minor > 0 and sale_price_minor <= price_minor', [], 'platform_prices_amount_check');
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'platform_prices',
    'platform_plan_types',
    'platform_durations',
    'platform_faq',
    'platform_how_it_works',
    'platform_texts',
    'platforms',
    'plan_type_texts',
    'plan_types',
    'durations',
  ]) {
    await knex.schema.dropTable(table);
  }
}
