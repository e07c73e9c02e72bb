/**
 * What backup and restore read from PostgreSQL's catalog, and the plain connection they use.
 *
 * They talk to a `pg` connection of their own (core's `withOwnConnection`) instead of through
 * knex: rows come back as arrays of text, and an error message is PostgreSQL's own (knex would
 * prepend the statement with its bound values, i.e. a batch of password hashes and ciphertexts).
 */
import { withOwnConnection, type Knex } from '@subshare/core';
import type { Row } from './format.js';

/** The tables left out: knex's lock row belongs to the database being migrated, not to the data. */
export const SKIPPED_TABLES = new Set(['knex_migrations_lock']);

/**
 * Tables that migrations fill themselves: a freshly migrated database has rows in them, and a
 * restore replaces those rows with the backup's instead of counting them as data.
 */
export const SEEDED_TABLES = new Set(['knex_migrations', 'catalog_state']);

export interface Sql {
  /** Rows as arrays. */
  rows(text: string, values?: unknown[]): Promise<unknown[][]>;
  /** A statement for its effect; returns the row count. */
  run(text: string, values?: unknown[]): Promise<number>;
}

export async function withConnection<T>(knex: Knex, task: (sql: Sql) => Promise<T>): Promise<T> {
  return withOwnConnection(knex, (connection) =>
    task({
      rows: async (text, values) => (await connection.query({ text, values, rowMode: 'array' })).rows as unknown[][],
      run: async (text, values) => (await connection.query({ text, values })).rowCount ?? 0,
    }),
  );
}

/** BEGIN with `mode`, the settings that make text forms exact and portable, `task`, COMMIT; ROLLBACK on any error. */
export async function inTransaction<T>(sql: Sql, mode: string, task: () => Promise<T>): Promise<T> {
  await sql.run(`begin ${mode}`);
  try {
    await sql.run(
      "set local datestyle = 'ISO, YMD'; set local timezone = 'UTC'; set local intervalstyle = 'postgres'; " +
        "set local bytea_output = 'hex'; set local extra_float_digits = 3",
    );
    const result = await task();
    await sql.run('commit');
    return result;
  } catch (error) {
    await sql.run('rollback').catch(() => undefined);
    throw error;
  }
}

export const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;
export const qualified = (table: string) => `public.${quote(table)}`;

export interface Column {
  name: string;
  /** format_type() with the type modifier: what the header records and compares. */
  type: string;
  /** The type without modifier, schema-qualified, for casting text (the column's own rules then apply). */
  castType: string;
}

export interface Table {
  name: string;
  /** Stored columns in order; generated columns are left out. */
  columns: Column[];
  primaryKey: string[];
  /** Tables this one references by foreign key (itself included for a self-reference). */
  references: string[];
}

/** Every table of the public schema but the skipped ones and those of extensions, by name. */
export async function readTables(sql: Sql): Promise<Map<string, Table>> {
  const rows = await sql.rows(`
    select c.oid::text, c.relname
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
       and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'e')
     order by c.relname`);
  const byOid = new Map<string, Table>();
  for (const [oid, name] of rows as string[][]) {
    if (!SKIPPED_TABLES.has(name)) byOid.set(oid, { name, columns: [], primaryKey: [], references: [] });
  }
  const oids = [...byOid.keys()];
  const columns = await sql.rows(
    `select a.attrelid::text, a.attname, format_type(a.atttypid, a.atttypmod), quote_ident(tn.nspname) || '.' || quote_ident(t.typname)
       from pg_attribute a join pg_type t on t.oid = a.atttypid join pg_namespace tn on tn.oid = t.typnamespace
      where a.attrelid = any($1::oid[]) and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      order by a.attrelid, a.attnum`,
    [oids],
  );
  for (const [oid, name, type, castType] of columns as string[][]) byOid.get(oid)!.columns.push({ name, type, castType });
  const keys = await sql.rows(
    `select c.conrelid::text, array(select a.attname::text from unnest(c.conkey) with ordinality k(attnum, i)
                                    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum order by k.i)
       from pg_constraint c where c.contype = 'p' and c.conrelid = any($1::oid[])`,
    [oids],
  );
  for (const [oid, names] of keys as [string, string[]][]) byOid.get(oid)!.primaryKey = names;
  const references = await sql.rows(
    `select distinct conrelid::text, confrelid::text from pg_constraint
      where contype = 'f' and conrelid = any($1::oid[]) and confrelid = any($1::oid[])`,
    [oids],
  );
  for (const [child, parent] of references as string[][]) byOid.get(child)!.references.push(byOid.get(parent)!.name);
  return new Map([...byOid.values()].map((table) => [table.name, table]));
}

export interface Component {
  tables: string[];
  /** Its tables reference each other (or one references itself): they are loaded in one statement. */
  cyclic: boolean;
}

/**
 * The tables grouped into strongly connected components of the foreign-key graph, referenced
 * components first (Tarjan's algorithm emits a component after everything it reaches).
 */
export function loadOrder(tables: Map<string, Table>): Component[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: Component[] = [];
  const visit = (name: string) => {
    index.set(name, index.size);
    low.set(name, index.get(name)!);
    stack.push(name);
    onStack.add(name);
    for (const next of [...tables.get(name)!.references].sort()) {
      if (!index.has(next)) {
        visit(next);
        low.set(name, Math.min(low.get(name)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(name, Math.min(low.get(name)!, index.get(next)!));
      }
    }
    if (low.get(name) === index.get(name)) {
      const members: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        members.push(member);
      } while (member !== name);
      members.sort();
      components.push({ tables: members, cyclic: members.length > 1 || tables.get(name)!.references.includes(name) });
    }
  };
  for (const name of [...tables.keys()].sort()) if (!index.has(name)) visit(name);
  return components;
}

/** `select` of the table's stored columns as text, in primary-key order when it has one. */
function selectText(table: Table): string {
  const columns = table.columns.map((column) => `${quote(column.name)}::text`).join(', ');
  const order = table.primaryKey.length > 0 ? ` order by ${table.primaryKey.map(quote).join(', ')}` : '';
  return `select ${columns} from ${qualified(table.name)}${order}`;
}

/** The table's rows in batches, through a cursor (never the whole table in memory). Inside a transaction. */
export async function* tableRows(sql: Sql, table: Table, batch = 500): AsyncGenerator<Row[]> {
  await sql.run(`declare subshare_rows no scroll cursor for ${selectText(table)}`);
  try {
    while (true) {
      const rows = (await sql.rows(`fetch forward ${batch} from subshare_rows`)) as Row[];
      if (rows.length > 0) yield rows;
      if (rows.length < batch) break;
    }
  } finally {
    await sql.run('close subshare_rows').catch(() => undefined);
  }
}

export async function appliedMigrations(sql: Sql): Promise<string[] | undefined> {
  const [[exists]] = await sql.rows(`select to_regclass('public.knex_migrations') is not null`);
  if (!exists) return undefined;
  return ((await sql.rows('select name from public.knex_migrations order by id')) as string[][]).map(([name]) => name);
}

export interface SequenceInfo {
  name: string;
  table: string | null;
  column: string | null;
  lastValue: string | null;
  minValue: string;
}

/** The public schema's sequences, with the column that owns each (serial or identity), skipped tables' aside. */
export async function readSequences(sql: Sql): Promise<SequenceInfo[]> {
  const rows = await sql.rows(`
    select s.relname, t.relname, a.attname, pg_sequence_last_value(s.oid)::text, q.seqmin::text
      from pg_class s
      join pg_namespace n on n.oid = s.relnamespace
      join pg_sequence q on q.seqrelid = s.oid
      left join pg_depend d on d.classid = 'pg_class'::regclass and d.objid = s.oid and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i')
      left join pg_class t on t.oid = d.refobjid
      left join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
     where s.relkind = 'S' and n.nspname = 'public'
     order by s.relname`);
  return (rows as Array<Array<string | null>>)
    .map(([name, table, column, lastValue, minValue]) => ({ name: name!, table, column, lastValue, minValue: minValue! }))
    .filter((sequence) => !(sequence.table && SKIPPED_TABLES.has(sequence.table)));
}

/** `database "shop" on db.example:5432`, without credentials. */
export function describeDatabase(url: string): string {
  try {
    const parsed = new URL(url);
    return `database "${decodeURIComponent(parsed.pathname.replace(/^\//, ''))}" on ${parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}`;
  } catch {
    return 'the database';
  }
}
