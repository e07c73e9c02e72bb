/**
 * Runs the knex migrations in the top-level `migrations/` folder. They are TypeScript files
 * written with erasable syntax only, so Node (>= 22.18) loads them directly, in production as
 * in tests, without a build step.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Knex } from 'knex';

// packages/core/{src,dist}/shared → the repository root
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../../migrations/', import.meta.url));

interface MigrationModule {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

class FolderMigrationSource implements Knex.MigrationSource<string> {
  constructor(private readonly dir: string) {}

  async getMigrations(): Promise<string[]> {
    return readdirSync(this.dir)
      .filter((file) => /^\d{14}_[\w-]+\.ts$/.test(file))
      .sort();
  }

  getMigrationName(file: string): string {
    return file;
  }

  async getMigration(file: string): Promise<MigrationModule> {
    return (await import(pathToFileURL(path.join(this.dir, file)).href)) as MigrationModule;
  }
}

function migrationConfig(dir: string): Knex.MigratorConfig {
  return { migrationSource: new FolderMigrationSource(dir), tableName: 'knex_migrations' };
}

/** Applies every pending migration; returns the names applied. */
export async function migrateLatest(knex: Knex, dir = MIGRATIONS_DIR): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest(migrationConfig(dir))) as [number, string[]];
  return applied;
}

export async function rollbackAll(knex: Knex, dir = MIGRATIONS_DIR): Promise<void> {
  await knex.migrate.rollback(migrationConfig(dir), true);
}

export async function pendingMigrations(knex: Knex, dir = MIGRATIONS_DIR): Promise<string[]> {
  const [, pending] = (await knex.migrate.list(migrationConfig(dir))) as [unknown[], Array<{ file: string } | string>];
  return pending.map((entry) => (typeof entry === 'string' ? entry : entry.file));
}
