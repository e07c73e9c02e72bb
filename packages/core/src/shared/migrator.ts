/**
 * Runs the knex migrations of the top-level `migrations/` folder. They are written in TypeScript;
 * `npm run build` compiles them to `migrations/dist/*.js` (migrations/tsconfig.json). The built
 * server (this file as packages/core/dist/…/migrator.js) loads those, so no Node version has to
 * strip types at run time; the sources run under tsx (tests, `--conditions=source`) load the `.ts`
 * files. Either way a migration is recorded in knex_migrations by its source name
 * (`20261123000100_create-identity.ts`), so a database migrated by one is current for the other.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Knex } from 'knex';

/** A folder of migration files and the extension of the ones this process can load. */
export interface MigrationFolder {
  dir: string;
  extension: '.ts' | '.js';
}

const SOURCE_DIR = fileURLToPath(new URL('../../../../migrations/', import.meta.url)); // packages/core/{src,dist}/shared → root
const COMPILED = import.meta.url.endsWith('.js');

/** The migrations this process runs: compiled ones for compiled code, sources under tsx. */
export const MIGRATIONS: MigrationFolder = COMPILED ? { dir: path.join(SOURCE_DIR, 'dist'), extension: '.js' } : { dir: SOURCE_DIR, extension: '.ts' };
export const MIGRATIONS_DIR = MIGRATIONS.dir;

const NAME = /^\d{14}_[\w-]+$/;

interface MigrationModule {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

class FolderMigrationSource implements Knex.MigrationSource<string> {
  constructor(private readonly folder: MigrationFolder) {}

  async getMigrations(): Promise<string[]> {
    return migrationFiles(this.folder);
  }

  /** The name knex stores: always the source file's (`.ts`), whichever file is loaded. */
  getMigrationName(file: string): string {
    return `${path.basename(file, this.folder.extension)}.ts`;
  }

  async getMigration(file: string): Promise<MigrationModule> {
    return (await import(pathToFileURL(path.join(this.folder.dir, file)).href)) as MigrationModule;
  }
}

function migrationFiles(folder: MigrationFolder): string[] {
  let files: string[];
  try {
    files = readdirSync(folder.dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && folder.extension === '.js')
      throw new Error(`The compiled migrations are missing (${folder.dir}): run \`npm run build\`.`, { cause: error });
    throw error;
  }
  return files.filter((file) => file.endsWith(folder.extension) && NAME.test(path.basename(file, folder.extension))).sort();
}

/** The names (as knex_migrations stores them) of the migrations in a folder, in order. */
export function migrationNames(folder: MigrationFolder | string = MIGRATIONS): string[] {
  const resolved = asFolder(folder);
  const source = new FolderMigrationSource(resolved);
  return migrationFiles(resolved).map((file) => source.getMigrationName(file));
}

/** A bare directory holds migrations of the kind this process loads. */
function asFolder(folder: MigrationFolder | string): MigrationFolder {
  return typeof folder === 'string' ? { dir: folder, extension: MIGRATIONS.extension } : folder;
}

function migrationConfig(folder: MigrationFolder | string): Knex.MigratorConfig {
  return { migrationSource: new FolderMigrationSource(asFolder(folder)), tableName: 'knex_migrations' };
}

/** Applies every pending migration; returns the names applied. */
export async function migrateLatest(knex: Knex, folder: MigrationFolder | string = MIGRATIONS): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest(migrationConfig(folder))) as [number, string[]];
  return applied;
}

export async function rollbackAll(knex: Knex, folder: MigrationFolder | string = MIGRATIONS): Promise<void> {
  await knex.migrate.rollback(migrationConfig(folder), true);
}

export async function pendingMigrations(knex: Knex, folder: MigrationFolder | string = MIGRATIONS): Promise<string[]> {
  const [, pending] = (await knex.migrate.list(migrationConfig(folder))) as [unknown[], Array<{ file: string } | string>];
  const source = new FolderMigrationSource(asFolder(folder));
  return pending.map((entry) => source.getMigrationName(typeof entry === 'string' ? entry : entry.file));
}
