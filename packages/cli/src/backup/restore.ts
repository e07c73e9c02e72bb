/**
 * Loads a backup into an empty database at the backup's migration level, in one transaction:
 * nothing is changed unless everything is.
 *
 * Constraints and triggers stay on, so every check, foreign key, the slot exclusion constraint
 * and the slot trigger hold for the restored rows. Tables go in foreign-key order read from the
 * catalog; tables that reference each other (order_items ⇄ subscriptions) or themselves
 * (subscriptions.replaced_from_id) are staged in temporary tables and inserted in one statement,
 * as PostgreSQL checks foreign keys at the end of a statement.
 *
 * Triggers that keep derived data (the catalog version, platforms.updated_at) fire while rows
 * go in and change what was just restored. So the restore then reads every table back and
 * compares it with the file's checksums; tables that differ get their rows set back to the
 * backup's values by primary key (repeated until nothing changes), and the restore fails rather
 * than commit anything that does not match the file. Last, every sequence is set past both its
 * column's highest value and its value at backup time (so ids of deleted rows are not reused).
 */
import type { Knex } from '@subshare/core';
import {
  appliedMigrations,
  inTransaction,
  loadOrder,
  qualified,
  quote,
  readSequences,
  readTables,
  SEEDED_TABLES,
  tableRows,
  withConnection,
  type Sql,
  type Table,
} from './database.js';
import { readBackup, readHeader, RowDigest, type BackupHeader } from './format.js';

export interface RestoreOptions {
  file: string;
  /** The configured CREDENTIALS_KEY's id. */
  credentialsKeyId: string;
  ignoreCredentialsKey: boolean;
  /** The migrations this subshare knows (for a helpful refusal). */
  knownMigrations: string[];
  /** How messages name the database: `database "shop" on db.example:5432`. */
  target: string;
}

export interface RestorePreview {
  header: BackupHeader;
  tables: number;
  rows: number;
  target: string;
}

export interface RestoreSummary {
  header: BackupHeader;
  tables: number;
  rows: number;
  sequences: number;
  /** Tables whose rows triggers changed during the load and that were set back. */
  repaired: string[];
  target: string;
  ms: number;
}

/** The database is not one a backup may be restored into (or the key does not fit): nothing was changed. */
export class RestoreRefusedError extends Error {}

const LOCK_TIMEOUT = '10s';
const REPAIR_ROUNDS = 3;
const REPAIR_PASSES = 10;

function list(names: string[], max = 6): string {
  if (names.length <= max) return names.join(', ');
  return `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && new Set([...a, ...b]).size === a.length;

async function checkKey(header: BackupHeader, options: RestoreOptions): Promise<void> {
  if (header.credentialsKeyId === options.credentialsKeyId || options.ignoreCredentialsKey) return;
  throw new RestoreRefusedError(
    `Refusing to restore: the backup's account and mailbox passwords are encrypted with key ${header.credentialsKeyId}, but CREDENTIALS_KEY here ` +
      `is key ${options.credentialsKeyId}; set CREDENTIALS_KEY to the key the backup was made with (or pass --ignore-credentials-key and re-enter those passwords).`,
  );
}

async function checkMigrations(sql: Sql, header: BackupHeader, options: RestoreOptions): Promise<void> {
  const applied = (await appliedMigrations(sql)) ?? [];
  if (sameSet(applied, header.migrations)) return;
  const last = header.migrations.at(-1) ?? 'none';
  const atLatest = sameSet(header.migrations, options.knownMigrations);
  if (applied.length === 0) {
    throw new RestoreRefusedError(
      `Refusing to restore: the database has no migrations applied; ${atLatest ? 'run `subshare migrate` on it first' : `migrate it to exactly the backup's level (${last}) first`}.`,
    );
  }
  const backupOnly = header.migrations.filter((name) => !applied.includes(name));
  const databaseOnly = applied.filter((name) => !header.migrations.includes(name));
  const unknown = backupOnly.filter((name) => !options.knownMigrations.includes(name));
  const hint =
    unknown.length > 0
      ? 'this subshare is older than the one that made the backup: upgrade it first'
      : databaseOnly.length === 0 && atLatest
        ? 'run `subshare migrate` on it first'
        : `restore into a database migrated to exactly the backup's level (${last})`;
  const parts = [backupOnly.length ? `only in the backup: ${list(backupOnly)}` : '', databaseOnly.length ? `only in the database: ${list(databaseOnly)}` : '']
    .filter(Boolean)
    .join('; ');
  throw new RestoreRefusedError(`Refusing to restore: the database's migrations differ from the backup's (${parts}); ${hint}.`);
}

/** The database's tables with their columns in the backup's order; refuses when they do not match. */
async function checkTables(sql: Sql, header: BackupHeader): Promise<Map<string, Table>> {
  const catalog = await readTables(sql);
  const problems: string[] = [];
  const aligned = new Map<string, Table>();
  for (const table of header.tables) {
    const ours = catalog.get(table.name);
    if (!ours) {
      problems.push(`no table ${table.name}`);
      continue;
    }
    const columns = new Map(ours.columns.map((column) => [column.name, column]));
    const same = table.columns.length === ours.columns.length && table.columns.every((column) => columns.get(column.name)?.type === column.type);
    if (!same) problems.push(`the columns of ${table.name} differ`);
    else aligned.set(table.name, { ...ours, columns: table.columns.map((column) => columns.get(column.name)!) });
  }
  const inBackup = new Set(header.tables.map((table) => table.name));
  for (const name of catalog.keys()) if (!inBackup.has(name)) problems.push(`${name} is not in the backup`);
  if (problems.length > 0) {
    throw new RestoreRefusedError(`Refusing to restore: the database's tables do not match the backup's although the migrations do (${list(problems)}).`);
  }
  return aligned;
}

async function checkEmpty(sql: Sql, tables: Map<string, Table>): Promise<void> {
  const filled: string[] = [];
  for (const name of tables.keys()) {
    if (SEEDED_TABLES.has(name)) continue;
    const [[exists]] = await sql.rows(`select exists (select 1 from ${qualified(name)})`);
    if (exists) filled.push(name);
  }
  if (filled.length > 0) {
    throw new RestoreRefusedError(
      `Refusing to restore: the database is not empty (rows in ${list(filled)}); restore only into a freshly migrated database, nothing was changed.`,
    );
  }
}

async function check(sql: Sql, header: BackupHeader, options: RestoreOptions): Promise<Map<string, Table>> {
  await checkKey(header, options);
  await checkMigrations(sql, header, options);
  const tables = await checkTables(sql, header);
  await checkEmpty(sql, tables);
  return tables;
}

/** Without --yes: checks the file from end to end and the database, writes nothing. */
export async function previewRestore(knex: Knex, options: RestoreOptions): Promise<RestorePreview> {
  const header = await readHeader(options.file);
  await withConnection(knex, (sql) => inTransaction(sql, 'read only', () => check(sql, header, options)));
  let tables = 0;
  let rows = 0;
  for await (const event of readBackup(options.file)) {
    if (event.kind === 'end') ({ tables, rows } = event);
  }
  return { header, tables, rows, target: options.target };
}

function insertSql(target: string, table: Table): string {
  const names = table.columns.map((column) => quote(column.name)).join(', ');
  const values = table.columns.map((column, i) => `(r ->> ${i})::${column.castType}`).join(', ');
  return `insert into ${target} (${names}) overriding system value select ${values} from jsonb_array_elements($1::jsonb) as r`;
}

/** A temporary table with the table's stored columns and none of its rules, dropped at commit. */
async function createStage(sql: Sql, table: Table, name: string): Promise<string> {
  await sql.run(`create temporary table ${quote(name)} (${table.columns.map((column) => `${quote(column.name)} ${column.type}`).join(', ')}) on commit drop`);
  return `pg_temp.${quote(name)}`;
}

interface ComponentState {
  tables: string[];
  cyclic: boolean;
  received: Set<string>;
  staged: Map<string, string>;
  done: boolean;
}

/** Streams the file into the tables; returns each table's count and digest as the file gives them. */
async function load(sql: Sql, file: string, tables: Map<string, Table>): Promise<Map<string, { rows: number; digest: string }>> {
  const components: ComponentState[] = loadOrder(tables).map((component) => ({ ...component, received: new Set(), staged: new Map(), done: false }));
  const componentOf = new Map(components.flatMap((component) => component.tables.map((name) => [name, component] as const)));
  const ready = (component: ComponentState) =>
    component.tables.every((name) => tables.get(name)!.references.every((parent) => component.tables.includes(parent) || componentOf.get(parent)!.done));

  const flush = async () => {
    for (let progress = true; progress;) {
      progress = false;
      for (const component of components) {
        if (component.done || component.received.size < component.tables.length || !ready(component)) continue;
        if (component.staged.size > 0) {
          // One statement: foreign keys between these tables are checked once all their rows are in.
          const inserts = [...component.staged].map(([name, stage]) => {
            const columns = tables
              .get(name)!
              .columns.map((column) => quote(column.name))
              .join(', ');
            return `insert into ${qualified(name)} (${columns}) overriding system value select ${columns} from ${stage}`;
          });
          await sql.run(inserts.length === 1 ? inserts[0] : `with ${inserts.map((insert, i) => `s${i} as (${insert})`).join(', ')} select 1`);
          for (const stage of component.staged.values()) await sql.run(`drop table ${stage}`);
        }
        component.done = true;
        progress = true;
      }
    }
  };

  const digests = new Map<string, { rows: number; digest: string }>();
  let insert = '';
  for await (const event of readBackup(file)) {
    if (event.kind === 'table') {
      const table = tables.get(event.table.name)!;
      const component = componentOf.get(table.name)!;
      let target = qualified(table.name);
      if (component.cyclic || !ready(component)) {
        target = await createStage(sql, table, `subshare_restore_${digests.size}`);
        component.staged.set(table.name, target);
      }
      insert = insertSql(target, table);
    } else if (event.kind === 'rows') {
      if (event.rows.length > 0) await sql.run(insert, [JSON.stringify(event.rows)]);
    } else if (event.kind === 'table-end') {
      digests.set(event.table.name, { rows: event.rows, digest: event.digest });
      componentOf.get(event.table.name)!.received.add(event.table.name);
      await flush();
    }
  }
  const waiting = components.filter((component) => !component.done).flatMap((component) => component.tables);
  if (waiting.length > 0) throw new Error(`tables that could not be ordered by their foreign keys: ${list(waiting)}`);
  return digests;
}

async function digestOf(sql: Sql, table: Table): Promise<{ rows: number; digest: string }> {
  const digest = new RowDigest();
  for await (const batch of tableRows(sql, table)) for (const row of batch) digest.add(row);
  return { rows: digest.count, digest: digest.value };
}

async function differing(sql: Sql, tables: Map<string, Table>, expected: Map<string, { rows: number; digest: string }>): Promise<string[]> {
  const names: string[] = [];
  for (const table of tables.values()) {
    const actual = await digestOf(sql, table);
    const wanted = expected.get(table.name)!;
    if (actual.rows !== wanted.rows || actual.digest !== wanted.digest) names.push(table.name);
  }
  return names;
}

/** Sets rows back to the backup's values (`stage` holds them); returns how many differed. */
async function setBack(sql: Sql, table: Table, stage: string): Promise<number> {
  const key = table.primaryKey;
  const others = table.columns.filter((column) => !key.includes(column.name)).map((column) => quote(column.name));
  if (others.length === 0) return 0;
  const join = key.map((column) => `x.${quote(column)} = e.${quote(column)}`).join(' and ');
  const changed = `(${others.map((column) => `x.${column}::text`).join(', ')}) is distinct from (${others.map((column) => `e.${column}::text`).join(', ')})`;
  const [[count]] = (await sql.rows(`select count(*)::int from ${qualified(table.name)} x join ${stage} e on ${join} where ${changed}`)) as number[][];
  // No UPDATE without a difference: even an update of no rows fires statement triggers.
  if (count > 0)
    await sql.run(
      `update ${qualified(table.name)} x set ${others.map((column) => `${column} = e.${column}`).join(', ')} from ${stage} e where ${join} and ${changed}`,
    );
  return count;
}

/** Undoes what triggers changed during the load; throws if the tables still differ from the file. */
async function repair(sql: Sql, file: string, tables: Map<string, Table>, expected: Map<string, { rows: number; digest: string }>): Promise<string[]> {
  const stages = new Map<string, string>();
  let wrong = await differing(sql, tables, expected);
  for (let round = 0; wrong.length > 0 && round < REPAIR_ROUNDS; round++) {
    const noKey = wrong.filter((name) => tables.get(name)!.primaryKey.length === 0);
    if (noKey.length > 0) throw new Error(`after loading, ${list(noKey)} differ from the backup and have no primary key to set them back by`);
    const toStage = new Set(wrong.filter((name) => !stages.has(name)));
    if (toStage.size > 0) {
      let insert = '';
      for await (const event of readBackup(file)) {
        if (event.kind === 'table' && toStage.has(event.table.name)) {
          const stage = await createStage(sql, tables.get(event.table.name)!, `subshare_expected_${stages.size}`);
          stages.set(event.table.name, stage);
          insert = insertSql(stage, tables.get(event.table.name)!);
        } else if (event.kind === 'table') insert = '';
        else if (event.kind === 'rows' && insert && event.rows.length > 0) await sql.run(insert, [JSON.stringify(event.rows)]);
      }
    }
    for (let pass = 0; pass < REPAIR_PASSES; pass++) {
      let changed = 0;
      for (const [name, stage] of stages) changed += await setBack(sql, tables.get(name)!, stage);
      if (changed === 0) break;
    }
    wrong = await differing(sql, tables, expected);
  }
  if (wrong.length > 0) throw new Error(`after loading, ${list(wrong)} still differ from the backup (rows added, removed or changed by triggers)`);
  return [...stages.keys()];
}

/** Every sequence past its column's highest value and its own value at backup time. */
async function setSequences(sql: Sql, header: BackupHeader, tables: Map<string, Table>): Promise<number> {
  const atBackup = new Map(header.sequences.map((sequence) => [sequence.name, sequence.lastValue]));
  let count = 0;
  for (const sequence of await readSequences(sql)) {
    const saved = atBackup.get(sequence.name);
    let value = saved ? BigInt(saved) : undefined;
    if (sequence.table && sequence.column && tables.has(sequence.table)) {
      const [[max]] = (await sql.rows(`select max(${quote(sequence.column)})::text from ${qualified(sequence.table)}`)) as Array<Array<string | null>>;
      if (max !== null && /^-?\d+$/.test(max) && (value === undefined || BigInt(max) > value)) value = BigInt(max);
    }
    if (value === undefined || value < BigInt(sequence.minValue)) continue;
    await sql.rows('select setval($1::regclass, $2::bigint, true)', [`public.${quote(sequence.name)}`, value.toString()]);
    count += 1;
  }
  return count;
}

function failure(error: unknown): Error {
  if (error instanceof RestoreRefusedError) return error;
  const pg = error as { code?: string; table?: string; message?: string };
  if (pg.code === '55P03') {
    return new Error('Restore failed, nothing was changed: another process is using the database; stop subshare (serve, worker, start) and try again.');
  }
  const where = pg.table ? ` (table ${pg.table})` : '';
  return new Error(`Restore failed, nothing was changed: ${pg.message ?? String(error)}${where}`.replace(/\.?$/, '.'));
}

export async function restoreBackup(knex: Knex, options: RestoreOptions): Promise<RestoreSummary> {
  const started = Date.now();
  const header = await readHeader(options.file);
  try {
    return await withConnection(knex, (sql) =>
      inTransaction(sql, '', async () => {
        const names = [...(await readTables(sql)).keys()];
        await sql.run(`set local lock_timeout = '${LOCK_TIMEOUT}'`);
        if (names.length > 0) await sql.run(`lock table ${names.map(qualified).join(', ')} in exclusive mode`);
        const tables = await check(sql, header, options);
        for (const name of SEEDED_TABLES) if (tables.has(name)) await sql.run(`delete from ${qualified(name)}`);
        const expected = await load(sql, options.file, tables);
        const repaired = await repair(sql, options.file, tables, expected);
        const sequences = await setSequences(sql, header, tables);
        const rows = [...expected.values()].reduce((sum, table) => sum + table.rows, 0);
        return { header, tables: expected.size, rows, sequences, repaired, target: options.target, ms: Date.now() - started };
      }),
    );
  } catch (error) {
    throw failure(error);
  }
}
