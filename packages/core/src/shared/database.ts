/**
 * The knex connection, and the raw-SQL path the repositories use for hot statements (`sqlRows`).
 *
 * Everything here goes through knex's and pg's documented API: knex's own `pg` client and pool
 * (tarn), with pg's connection settings for the timeouts, knex's `pool.afterCreate` /
 * `pool.validate` hooks, its `query-error` / `query-response` events and `knex.raw`. Which style
 * of data access is used for what: docs/data-access.md.
 *
 * Two exceptions, for want of a front door (test/unit/private-api.test.ts lists them and fails
 * on any other): the stall watch reads knex's pool (`knex.client.pool`, tarn's events and its
 * count of waiting callers), since knex tells no one that a caller waits for a connection (its
 * `start` and `query` events come once one is held); and a connection is known by the
 * `__knexUid` knex gives it, the only name its query events carry for the connection a read
 * timeout must cut. Measuring the stall another way from what we own (the pool size, knex's
 * acquireConnectionTimeout) cannot tell a burst that queues from a frozen server: the first would
 * get 503s after the connect timeout instead of waiting its turn. The way out is knex 3.3's
 * `connectionPool` option: a pg.Pool of our own, whose `waitingCount` and acquire/release events
 * are pg's public API. It is not taken yet because knex then applies no acquire timeout of its
 * own, validates nothing and leaves the pool open on `knex.destroy()`: the waits, the 503s and
 * the shutdown would have to be rebuilt on pg.Pool and proved again by the pool and outage tests.
 */
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { isStopping } from './process-stop.js';

// PostgreSQL returns bigint (int8) and numeric as strings; our ids and counts fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

export type { Knex };

export interface KnexOptions {
  min?: number;
  max?: number;
  /**
   * Bounds for a pool that serves requests and jobs: PostgreSQL cancels a statement after
   * `statementTimeoutMs` (statement_timeout, server side), the client stops waiting one second
   * later (pg's query_timeout: a frozen or unreachable server cannot cancel anything), and opening
   * a connection gives up after `acquireTimeoutMs`. Waiting for a connection of the pool gives up
   * once the pool has made no progress for `acquireTimeoutMs` (see `watchForStalls`), and in any
   * case after BUSY_WAIT_LIMIT_MS. Left out for migrations, backup and restore, whose single
   * statements may rightly run for minutes.
   */
  bounds?: { statementTimeoutMs: number; acquireTimeoutMs: number };
}

/** How much longer than the server's statement_timeout the client waits for an answer. */
const CLIENT_READ_MARGIN_MS = 1_000;

/**
 * The longest a request or job waits for a connection of a pool that keeps making progress: a
 * burst (a thousand buyers at once) queues for its turn instead of being told the database is
 * down, but a request is not held for ever.
 */
export const BUSY_WAIT_LIMIT_MS = 20_000;

/** pg's client as knex's pool holds it; `__knexUid` is the id knex's query events name it by. */
type PgConnection = pg.Client & { __knexUid?: string };

/** What `watchForStalls` uses of knex's pool: tarn's documented events and counters. */
interface TarnEvents {
  numPendingAcquires(): number;
  on(event: 'acquireSuccess', listener: (eventId: number, connection: PgConnection) => void): void;
  on(event: 'release', listener: (connection: PgConnection) => void): void;
  on(event: 'createSuccess', listener: (eventId: number, connection: PgConnection) => void): void;
  on(event: 'poolDestroySuccess', listener: () => void): void;
}

/**
 * The connections of one bounded pool, by knex's id for them, and the ones cut. A connection
 * whose statement got no answer in time (pg's "Query read timeout") is cut at once: pg leaves it
 * waiting for that answer, so without this the ROLLBACK that follows, and any later statement on
 * it, would wait out another timeout each. Cutting is pg's `end()`, which closes the socket of a
 * client with a statement outstanding; knex's pool then drops it (`validate`).
 */
class Connections {
  readonly byId = new Map<string, PgConnection>();
  readonly cut = new WeakSet<PgConnection>();

  add(connection: PgConnection): void {
    const id = connection.__knexUid;
    if (!id) return;
    this.byId.set(id, connection);
    connection.once('end', () => this.byId.delete(id));
  }

  end(connection: PgConnection | undefined): void {
    if (!connection || this.cut.has(connection)) return;
    this.cut.add(connection);
    connection.end().catch(() => undefined);
  }
}

/**
 * Tells a busy database from a stalled one. A pool whose connections are all in use makes the
 * next caller wait; while statements keep finishing (a statement answered, a connection given
 * back, opened or handed out) the database is busy and the caller waits its turn, up to
 * BUSY_WAIT_LIMIT_MS (knex's acquire timeout). When none of that has happened for `stallMs`
 * while callers wait (PostgreSQL frozen, or every connection held by a statement that will not
 * end), the connections in use are cut: their statements fail at once (a 503) instead of waiting
 * out the statement timeout, and the waiting callers go on to open connections of their own,
 * which on a frozen server give up after the connect timeout (`acquireTimeoutMs`): a fast 503
 * for everyone. Answers the function to call on progress seen elsewhere (a statement answered).
 */
function watchForStalls(pool: TarnEvents, connections: Connections, stallMs: number): () => void {
  let lastProgress = Date.now();
  const inUse = new Set<PgConnection>();
  const progressed = () => {
    lastProgress = Date.now();
  };
  pool.on('acquireSuccess', (_id, connection) => {
    inUse.add(connection);
    progressed();
  });
  pool.on('release', (connection) => {
    inUse.delete(connection);
    progressed();
  });
  pool.on('createSuccess', progressed);
  const timer = setInterval(
    () => {
      if (pool.numPendingAcquires() === 0) {
        lastProgress = Date.now();
        return;
      }
      if (Date.now() - lastProgress < stallMs) return;
      for (const connection of inUse) connections.end(connection);
      inUse.clear();
      lastProgress = Date.now();
    },
    Math.min(250, Math.max(10, Math.floor(stallMs / 4))),
  );
  timer.unref();
  pool.on('poolDestroySuccess', () => clearInterval(timer));
  return progressed;
}

/**
 * knex's own warnings (a connection the server ended, an acquire that failed) go to the console as
 * knex prints them by default, except once this process is stopping: then PostgreSQL ending the
 * pool's sessions is the stop itself (Ctrl+C stops it with us), not something to report.
 */
const KNEX_LOG = {
  warn: (message: unknown) => {
    if (!isStopping()) console.warn(message);
  },
  error: (message: unknown) => {
    if (!isStopping()) console.error(message);
  },
};

/** The URL each knex of createKnex was made with: kept here rather than read back from knex's private config. */
const connectionStrings = new WeakMap<Knex, string>();

export function createKnex(connectionString: string, options: KnexOptions = {}): Knex {
  const { bounds } = options;
  const connections = bounds ? new Connections() : undefined;
  const knex = knexFactory({
    client: 'pg',
    connection: {
      connectionString,
      application_name: 'subshare',
      ...(bounds
        ? {
            statement_timeout: bounds.statementTimeoutMs,
            query_timeout: bounds.statementTimeoutMs + CLIENT_READ_MARGIN_MS,
            connectionTimeoutMillis: bounds.acquireTimeoutMs,
          }
        : {}),
    },
    pool: {
      min: options.min ?? 0,
      max: options.max ?? 10,
      ...(connections
        ? {
            afterCreate: (connection: PgConnection, done: (error: Error | null, connection: PgConnection) => void) => {
              connections.add(connection);
              done(null, connection);
            },
            validate: (connection: PgConnection) => !connections.cut.has(connection),
          }
        : {}),
    },
    acquireConnectionTimeout: bounds ? Math.max(bounds.acquireTimeoutMs, BUSY_WAIT_LIMIT_MS) : 15_000,
    log: KNEX_LOG,
  });
  if (bounds && connections) {
    // knex's documented events carry the connection's id (`__knexUid`), transactions' included.
    knex.on('query-error', (error: unknown, query: { __knexUid?: string }) => {
      if ((error as Error | null)?.message === 'Query read timeout' && query.__knexUid) connections.end(connections.byId.get(query.__knexUid));
    });
    // Not knex's public API (see the head of this file): no event says a caller waits for a connection.
    const progressed = watchForStalls(knex.client.pool as unknown as TarnEvents, connections, bounds.acquireTimeoutMs);
    // A statement answered inside a long transaction is progress too: the database is alive.
    knex.on('query-response', progressed);
  }
  connectionStrings.set(knex, connectionString);
  return knex;
}

/** The connection string a knex made by createKnex connects with. */
export function connectionStringOf(knex: Knex): string {
  const url = connectionStrings.get(knex);
  if (!url) throw new Error('This knex was not made by createKnex.');
  return url;
}

/** A statement on a connection of its own: rows as arrays (`rowMode`) or objects, and the row count. */
export interface OwnConnection {
  query(config: { text: string; values?: unknown[]; rowMode?: 'array' }): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

/**
 * Runs `task` on a pg connection of its own, to the database `knex` talks to, outside knex's pool
 * (backup and restore: rows as arrays of text, and PostgreSQL's own error messages, which knex
 * would prefix with the statement and its values, i.e. password hashes and ciphertexts).
 */
export async function withOwnConnection<T>(knex: Knex, task: (connection: OwnConnection) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: connectionStringOf(knex), application_name: 'subshare-backup' });
  await client.connect();
  try {
    return await task(client as unknown as OwnConnection);
  } finally {
    await client.end();
  }
}

/** Runs `fn` inside the given transaction, or a new one when none is given. */
export async function inTransaction<T>(knex: Knex, trx: Knex.Transaction | undefined, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  if (trx) return fn(trx);
  return knex.transaction(fn);
}

/**
 * Runs `fn` in a read-only transaction whose statements PostgreSQL cancels after `timeoutMs`
 * (scrapes and reports that must never hold the database for long).
 */
export async function readOnlyTransaction<T>(knex: Knex, timeoutMs: number, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return knex.transaction(async (trx) => {
    await trx.raw('set transaction read only');
    await trx.raw(`set local statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`);
    return fn(trx);
  });
}

/** Takes a transaction-scoped advisory lock (two 32-bit keys), held until `trx` ends: work that must not overlap queues. */
export async function advisoryXactLock(trx: Knex.Transaction, lockClass: number, key: number): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(?, ?)', [lockClass, key]);
}

/** A statement in pg's `$n` form, made into knex.raw's `?` form once (see `sqlRows`). */
interface RawForm {
  sql: string;
  /** For each `?`, the index of its value in the `$n` bindings. */
  order: number[];
}

const rawForms = new Map<string, RawForm>();
/** Distinct statements remembered: ours are a few dozen constant strings. */
const RAW_FORM_MEMORY = 1_000;

/**
 * `$1`, `$2`… (reused as often as the statement likes) into knex.raw's positional `?`, and any
 * literal `?` (a jsonb operator) escaped as knex asks (`\?`). Placeholders inside string literals
 * are not told apart: our statements have none.
 */
function rawFormOf(sql: string): RawForm {
  let form = rawForms.get(sql);
  if (!form) {
    const order: number[] = [];
    const text = sql.replace(/\?/g, '\\?').replace(/\$(\d+)/g, (_match, digits: string) => {
      order.push(Number(digits) - 1);
      return '?';
    });
    form = { sql: text, order };
    if (rawForms.size >= RAW_FORM_MEMORY) rawForms.clear();
    rawForms.set(sql, form);
  }
  return form;
}

/**
 * One SQL statement (placeholders `$1`, `$2`…) through knex.raw, on knex's pool or on the given
 * transaction: the rows as PostgreSQL sent them (snake_case columns, int8 as numbers).
 *
 * For the statements run on every buyer's call (the session check, the panel's reads) and the
 * checkout's writes: through objection and knex's query builder a statement cost about 0.2 ms of
 * CPU (bench:api); `knex.raw` skips the builder and the model mapping. Being knex's own API, it
 * keeps the pool and its stall watch, the statement and read timeouts, the `query` and
 * `query-response` events, and the errors (pg's, or knex's timeout when no connection comes free).
 */
export async function sqlRows<T>(db: Knex | Knex.Transaction, sql: string, bindings: readonly unknown[] = []): Promise<T[]> {
  const form = rawFormOf(sql);
  // knex refuses undefined bindings; pg sends them as NULL, which is what our callers mean.
  const values = form.order.map((index) => bindings[index] ?? null);
  const result = await db.raw<pg.QueryResult>(form.sql, values as Knex.RawBinding[]);
  return result.rows as T[];
}

/** A column list and its placeholders from a row written by our own code (never from input: the keys become SQL). */
export function columnsOf(row: object, firstPlaceholder = 1): { names: string[]; values: unknown[]; placeholders: string[] } {
  const entries = Object.entries(row).filter(([, value]) => value !== undefined);
  return {
    names: entries.map(([name]) => `"${name}"`),
    values: entries.map(([, value]) => value),
    placeholders: entries.map((_, index) => `$${index + firstPlaceholder}`),
  };
}

/**
 * `insert into <table> (…) values (…) on conflict … do nothing returning …` on the lean path: the
 * `returning` columns of the new row, or undefined when it met a row with the same `conflictOn`
 * columns (an idempotency key) or, without `conflictOn`, any unique index or exclusion constraint.
 */
export async function insertRowUnlessConflict<T>(
  db: Knex | Knex.Transaction,
  table: string,
  row: object,
  { conflictOn, returning }: { conflictOn?: readonly string[]; returning: string },
): Promise<T | undefined> {
  const { names, values, placeholders } = columnsOf(row);
  const target = conflictOn ? ` (${conflictOn.map((name) => `"${name}"`).join(', ')})` : '';
  const [stored] = await sqlRows<T>(
    db,
    `insert into "${table}" (${names.join(', ')}) values (${placeholders.join(', ')}) on conflict${target} do nothing returning ${returning}`,
    values,
  );
  return stored;
}

/**
 * `update <table> set … where id = $1` on the lean path, only while `onlyWhen.column` holds one of
 * `onlyWhen.in` when given (a state move checked and made in one statement); answers how many
 * rows it changed.
 */
export async function updateById(
  db: Knex | Knex.Transaction,
  table: string,
  id: number,
  patch: object,
  onlyWhen?: { column: string; in: readonly unknown[] },
): Promise<number> {
  const { names, values, placeholders } = columnsOf(patch, 2);
  const assignments = names.map((name, index) => `${name} = ${placeholders[index]}`).join(', ');
  const condition = onlyWhen ? ` and "${onlyWhen.column}" = any($${values.length + 2})` : '';
  const rows = await sqlRows<{ id: number }>(db, `update "${table}" set ${assignments} where id = $1${condition} returning id`, [
    id,
    ...values,
    ...(onlyWhen ? [onlyWhen.in] : []),
  ]);
  return rows.length;
}
