// Catalog changes reach every process: any write to a catalog table bumps the one-row
// `catalog_state.version` (statement-level triggers, so a direct SQL fix counts too), and each
// process compares the version behind its in-memory catalog with it at most once a second.
// Writes to a platform's texts, options and prices also move `platforms.updated_at`, which the
// sitemap shows as the page's last modification.
import type { Knex } from 'knex';

const VERSIONED_TABLES = [
  'durations',
  'plan_types',
  'plan_type_texts',
  'platforms',
  'platform_texts',
  'platform_how_it_works',
  'platform_faq',
  'platform_durations',
  'platform_plan_types',
  'platform_prices',
];

const PLATFORM_CHILD_TABLES = ['platform_texts', 'platform_how_it_works', 'platform_faq', 'platform_durations', 'platform_plan_types', 'platform_prices'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('catalog_state', (t) => {
    t.smallint('id').primary().defaultTo(1);
    t.bigInteger('version').notNullable().defaultTo(1);
    t.timestamp('changed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check('id = 1', [], 'catalog_state_single_row_check');
  });
  await knex('catalog_state').insert({ id: 1 });

  await knex.raw(`
    create function catalog_bump_version() returns trigger language plpgsql as $$
    begin
      update catalog_state set version = version + 1, changed_at = now() where id = 1;
      return null;
    end
    $$`);
  for (const table of VERSIONED_TABLES) {
    await knex.raw(`create trigger ?? after insert or update or delete or truncate on ?? for each statement execute function catalog_bump_version()`, [
      `${table}_catalog_version`,
      table,
    ]);
  }

  // An explicit updated_at wins; any other update of a platform row stamps it.
  await knex.raw(`
    create function platforms_stamp_updated_at() returns trigger language plpgsql as $$
    begin
      if new.updated_at is not distinct from old.updated_at then
        new.updated_at := now();
      end if;
      return new;
    end
    $$`);
  await knex.raw('create trigger platforms_updated_at before update on platforms for each row execute function platforms_stamp_updated_at()');

  // Once per platform and transaction (now() is the transaction's start), however many rows change.
  await knex.raw(`
    create function catalog_touch_platform() returns trigger language plpgsql as $$
    declare
      changed integer;
    begin
      if tg_op = 'DELETE' then
        changed := old.platform_id;
      else
        changed := new.platform_id;
      end if;
      update platforms set updated_at = now() where id = changed and updated_at < now();
      return null;
    end
    $$`);
  for (const table of PLATFORM_CHILD_TABLES) {
    await knex.raw(`create trigger ?? after insert or update or delete on ?? for each row execute function catalog_touch_platform()`, [
      `${table}_touch_platform`,
      table,
    ]);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of PLATFORM_CHILD_TABLES) await knex.raw('drop trigger if exists ?? on ??', [`${table}_touch_platform`, table]);
  await knex.raw('drop trigger if exists platforms_updated_at on platforms');
  for (const table of VERSIONED_TABLES) await knex.raw('drop trigger if exists ?? on ??', [`${table}_catalog_version`, table]);
  await knex.raw('drop function if exists catalog_touch_platform()');
  await knex.raw('drop function if exists platforms_stamp_updated_at()');
  await knex.raw('drop function if exists catalog_bump_version()');
  await knex.schema.dropTable('catalog_state');
}
