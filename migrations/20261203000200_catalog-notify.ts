// Catalog changes are pushed to every process (issue 16): whenever the catalog version moves
// (a write to a catalog table through its trigger, or a bump by hand for a replaced logo), the
// transaction also sends NOTIFY subshare_catalog with the new version. PostgreSQL delivers it
// on commit, and never for a rolled-back change. Each process LISTENs (shared/database-events)
// and reloads at once; the once-a-second version check stays only for a process whose listening
// connection is down.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function catalog_notify_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify('subshare_catalog', new.version::text);
      return null;
    end
    $$`);
  await knex.raw(
    'create trigger catalog_state_notify after update of version on catalog_state for each row when (new.version is distinct from old.version) execute function catalog_notify_change()',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists catalog_state_notify on catalog_state');
  await knex.raw('drop function if exists catalog_notify_change()');
}
