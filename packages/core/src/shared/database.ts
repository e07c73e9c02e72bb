/**
 * The knex connection, and the raw-SQL path the repositories use for hot statements (`sqlRows`).
 *
 * Everything here goes through knex's, tarn's and pg's documented API. A pool without bounds
 * (migrations, backup, restore) is knex's own. A bounded pool (requests and jobs) is a tarn pool
 * of our own, given to knex through its `connectionPool` option (knex 3.3), whose pg clients we
 * open ourselves with pg's settings for the timeouts. Being ours, its events and its count of
 * waiting callers (tarn's `acquireSuccess`, `release`, `createSuccess`, `numPendingAcquires`)
 * tell the stall watch when callers wait on a pool that makes no progress (knex's own `start`
 * and `query` events come only once a connection is held), and its clients know when one of
 * their statements got no answer in time. knex neither opens nor closes such a pool: `closeKnex`
 * closes it after knex. knex's `query-response` event (progress, for the stall watch) and
 * `knex.raw` do the rest. Which style of data access is used for what: docs/data-access.md.
 */
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { Pool } from 'tarn';
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
   * statements may rightly run for minutes. A bounded pool is closed by `closeKnex`, not by
   * `knex.destroy()` alone.
   */
  bounds?: { statementTimeoutMs: number; acquireTimeoutMs: number };
}

type Bounds = NonNullable<KnexOptions['bounds']>;

/** How the shop's sessions are named in pg_stat_activity. */
const APPLICATION_NAME = 'subshare';

/** How much longer than the server's statement_timeout the client waits for an answer. */
const CLIENT_READ_MARGIN_MS = 1_000;

/** pg's error for a statement that got no answer within query_timeout. */
const READ_TIMEOUT = 'Query read timeout';

/**
 * The longest a request or job waits for a connection of a pool that keeps making progress: a
 * burst (a thousand buyers at once) queues for its turn instead of being told the database is
 * down, but a request is not held for ever.
 */
export const BUSY_WAIT_LIMIT_MS = 20_000;

/**
 * A connection of a bounded pool: pg's client, which ends itself when one of its statements got
 * no answer in time (pg's "Query read timeout"). pg leaves such a connection waiting for that
 * answer, so without this the ROLLBACK that follows, and any later statement on it, would wait
 * out another timeout each. Ending is pg's `end()`, which closes the socket of a client with a
 * statement outstanding; the pool then drops the connection (`usable`). Extending pg's Client is
 * what pg's own pool offers (its `Client` option); knex runs statements through `query`.
 */
class PoolConnection extends pg.Client {
  /** False once the connection failed, ended or was cut: the pool drops it instead of handing it out. */
  usable = true;
  /** Why the connection was lost, when it was not ended by us: said once, when the pool drops it. */
  lost: string | undefined;
  private closing = false;
  private ended = false;

  constructor(config: pg.ClientConfig) {
    super(config);
    // A connection lost while idle emits 'error': heard here, it marks the connection instead of
    // stopping the process (knex's own pool listens the same way).
    this.on('error', (error) => {
      this.usable = false;
      if (!this.closing) this.lost ??= error.message;
    });
    this.on('end', () => {
      this.usable = false;
      this.ended = true;
      if (!this.closing) this.lost ??= 'the connection ended unexpectedly';
    });
  }

  /** Ends the connection now, a statement outstanding or not. */
  cut(): void {
    if (this.closing || this.ended) return;
    this.closing = true;
    this.usable = false;
    this.end().catch(() => undefined);
  }

  /** For the pool's `destroy`: pg's end() (pg answers at once for a connection already ended). */
  async close(): Promise<void> {
    if (this.ended) return;
    this.closing = true;
    this.usable = false;
    await this.end().catch(() => undefined);
  }

  /** pg's query in all its forms (knex uses the callback one), unchanged but for the cut; typed by pg's overloads. */
  override query(...args: unknown[]): never {
    const cutOnReadTimeout = (error: unknown) => {
      if ((error as Error | null)?.message === READ_TIMEOUT) this.cut();
    };
    const callback = args.at(-1);
    if (typeof callback === 'function') {
      args[args.length - 1] = (error: unknown, result: unknown) => {
        cutOnReadTimeout(error);
        (callback as (error: unknown, result: unknown) => void)(error, result);
      };
    }
    const result: unknown = (super.query as (...queryArgs: unknown[]) => unknown).apply(this, args);
    if (result instanceof Promise) result.catch(cutOnReadTimeout);
    return result as never;
  }
}

/**
 * Tells a busy database from a stalled one. A pool whose connections are all in use makes the
 * next caller wait; while statements keep finishing (a statement answered, a connection given
 * back, opened or handed out) the database is busy and the caller waits its turn, up to
 * BUSY_WAIT_LIMIT_MS (the pool's acquire timeout). When none of that has happened for `stallMs`
 * while callers wait (PostgreSQL frozen, or every connection held by a statement that will not
 * end), the connections in use are cut: their statements fail at once (a 503) instead of waiting
 * out the statement timeout, and the waiting callers go on to open connections of their own,
 * which on a frozen server give up after the connect timeout (`acquireTimeoutMs`): a fast 503
 * for everyone. Answers the function to call on progress seen elsewhere (a statement answered).
 */
function watchForStalls(pool: Pool<PoolConnection>, stallMs: number): () => void {
  let lastProgress = Date.now();
  const inUse = new Set<PoolConnection>();
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
      for (const connection of inUse) connection.cut();
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
 * The pool of a bounded knex: what knex's own pool would be with our settings (tarn's defaults,
 * a failed connect handed at once to the caller waiting for it), with connections that cut
 * themselves on a read timeout and are dropped once unusable.
 */
function boundedPool(connectionString: string, options: KnexOptions, bounds: Bounds): Pool<PoolConnection> {
  return new Pool<PoolConnection>({
    min: options.min ?? 0,
    max: options.max ?? 10,
    acquireTimeoutMillis: Math.max(bounds.acquireTimeoutMs, BUSY_WAIT_LIMIT_MS),
    propagateCreateError: true,
    create: async () => {
      const connection = new PoolConnection({
        connectionString,
        application_name: APPLICATION_NAME,
        statement_timeout: bounds.statementTimeoutMs,
        query_timeout: bounds.statementTimeoutMs + CLIENT_READ_MARGIN_MS,
        connectionTimeoutMillis: bounds.acquireTimeoutMs,
      });
      await connection.connect();
      return connection;
    },
    destroy: (connection) => connection.close(),
    validate: (connection) => {
      if (connection.lost) KNEX_LOG.warn(`Connection Error: ${connection.lost}`);
      return connection.usable;
    },
  });
}

/**
 * knex's own warnings (an acquire that failed) and ours (a pool connection lost) go to the console
 * as knex prints them by default, except once this process is stopping: then PostgreSQL ending
 * the pool's sessions is the stop itself (Ctrl+C stops it with us), not something to report.
 */
const KNEX_LOG = {
  warn: (message: unknown) => {
    if (!isStopping()) console.warn(message);
  },
  error: (message: unknown) => {
    if (!isStopping()) console.error(message);
  },
};

/** What createKnex made each knex with: kept here rather than read back from knex's private config. */
const made = new WeakMap<Knex, { connectionString: string; pool?: Pool<PoolConnection> }>();

export function createKnex(connectionString: string, options: KnexOptions = {}): Knex {
  const { bounds } = options;
  if (!bounds) {
    const knex = knexFactory({
      client: 'pg',
      connection: { connectionString, application_name: APPLICATION_NAME },
      pool: { min: options.min ?? 0, max: options.max ?? 10 },
      acquireConnectionTimeout: 15_000,
      log: KNEX_LOG,
    });
    made.set(knex, { connectionString });
    return knex;
  }
  const pool = boundedPool(connectionString, options, bounds);
  const knex = knexFactory({ client: 'pg', connectionPool: pool, log: KNEX_LOG });
  const progressed = watchForStalls(pool, bounds.acquireTimeoutMs);
  // A statement answered inside a long transaction is progress too: the database is alive.
  knex.on('query-response', progressed);
  made.set(knex, { connectionString, pool });
  return knex;
}

/**
 * Closes a knex made by createKnex: a bounded knex's pool (knex leaves a pool given through
 * `connectionPool` open), then knex. Like `knex.destroy()` of knex's own pool, waits for the
 * connections in use to be given back, and knex keeps its pool meanwhile: a statement asked for
 * while stopping waits, as with knex's own pool, instead of failing with knex's "Unable to
 * acquire a connection".
 */
export async function closeKnex(knex: Knex): Promise<void> {
  await made.get(knex)?.pool?.destroy();
  await knex.destroy();
}

/** The connection string a knex made by createKnex connects with. */
export function connectionStringOf(knex: Knex): string {
  const url = made.get(knex)?.connectionString;
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
