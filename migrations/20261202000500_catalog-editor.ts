// The catalog editor (issue 15):
// - platforms.version: moved by every save through the editor; an update names the version it
//   was read at, so two admins editing one platform do not overwrite each other silently.
// - platform_durations / platform_plan_types name_en, name_ko: the option's name on this
//   platform. Durations and types are shared rows (orders point at them); null keeps the shared
//   name (a duration's from its months, a type's from plan_type_texts).
// - media_uploads: logos uploaded by staff, keyed by the SHA-256 of their bytes, in the database
//   so that every HTTP process can serve them (/media/uploads/<sha256>.<ext>).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('platforms', (t) => {
    t.integer('version').notNullable().defaultTo(1);
  });
  for (const table of ['platform_durations', 'platform_plan_types']) {
    await knex.schema.alterTable(table, (t) => {
      t.text('name_en');
      t.text('name_ko');
    });
  }
  await knex.schema.createTable('media_uploads', (t) => {
    t.specificType('sha256', 'char(64)').primary();
    t.text('content_type').notNullable();
    t.binary('body').notNullable();
    t.integer('size').notNullable();
    t.bigInteger('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check("content_type in ('image/svg+xml', 'image/png', 'image/webp')", [], 'media_uploads_content_type_check');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('media_uploads');
  for (const table of ['platform_durations', 'platform_plan_types']) {
    await knex.schema.alterTable(table, (t) => {
      t.dropColumn('name_en');
      t.dropColumn('name_ko');
    });
  }
  await knex.schema.alterTable('platforms', (t) => {
    t.dropColumn('version');
  });
}
