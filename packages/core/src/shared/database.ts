/**
 * The knex connection and, in demo mode, the embedded PostgreSQL it talks to.
 */
import { createRequire } from 'node:module';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';

// PostgreSQL returns bigint (int8) and numeric as strings; our ids and counts fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

export type { Knex };

export interface KnexOptions {
  min?: number;
  max?: number;
  /**
   * Bounds for a pool that serves requests and jobs: PostgreSQL cancels a statement after
   * `statementTimeoutMs` (statement_timeout, server side), the client stops waiting one second
   * later (a frozen or unreachable server cannot cancel anything), and opening a connection
   * gives up after `acquireTimeoutMs`. Waiting for a connection of the pool gives up once the
   * pool has made no progress (no connection handed back, opened or handed out) for
   * `acquireTimeoutMs`, and in any case after BUSY_WAIT_LIMIT_MS: see `watchForStalls`. Left out
   * for migrations, backup and restore, whose single statements may rightly run for minutes.
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

/** What `watchForStalls` needs of knex's pool (tarn). */
interface TarnPool {
  pendingAcquires: Array<{ reject(error: Error): void }>;
  on(event: 'release' | 'createSuccess' | 'acquireSuccess' | 'poolDestroySuccess', listener: () => void): void;
}

type PgConnection = pg.Client & { __knex__disposed?: unknown; connection?: { stream?: { destroy(): void } } };
type KnexClientClass = new (config: Knex.Config) => Knex.Client;

// knex's own PostgreSQL dialect; not in knex's type declarations, hence the require.
const KnexPgClient = createRequire(import.meta.url)('knex/lib/dialects/postgres/index.js') as KnexClientClass;

/**
 * knex's PostgreSQL client, plus: a connection whose statement got no answer in time (pg's
 * "Query read timeout") is cut at once. pg leaves it waiting for that answer, so without this
 * the ROLLBACK that follows, and any later query on it, would wait out another timeout each.
 */
class BoundedPgClient extends KnexPgClient {
  override initializePool(config: Knex.Config & { stallTimeoutMs?: number }): void {
    super.initializePool(config);
    if (this.pool && config.stallTimeoutMs) {
      const progressed = watchForStalls(this.pool as unknown as TarnPool, config.stallTimeoutMs);
      // A statement answered inside a long transaction is progress too: the database is alive.
      this.on('query-response', progressed);
    }
  }

  _query(connection: PgConnection, obj: unknown): Promise<unknown> {
    const run = (KnexPgClient.prototype as unknown as { _query(c: PgConnection, o: unknown): Promise<unknown> })._query;
    return run.call(this, connection, obj).catch((error: unknown) => {
      if ((error as Error | null)?.message === 'Query read timeout') {
        connection.__knex__disposed = error;
        connection.connection?.stream?.destroy();
      }
      throw error;
    });
  }
}

/**
 * Tells a busy database from a stalled one. A pool whose connections are all in use makes the
 * next caller wait; while statements keep finishing (a statement answered, a connection given
 * back, opened or handed out) the database is busy and the caller waits its turn, up to
 * BUSY_WAIT_LIMIT_MS (knex's acquire timeout). When none of that has happened for `stallMs`
 * (PostgreSQL frozen, or every connection held by a statement that will not end), every waiting
 * caller is told at once, with the same KnexTimeoutError as a plain acquire timeout: a fast 503,
 * as before. Answers the function to call on progress seen elsewhere (a statement answered).
 */
function watchForStalls(pool: TarnPool, stallMs: number): () => void {
  let lastProgress = Date.now();
  const progressed = () => {
    lastProgress = Date.now();
  };
  pool.on('release', progressed);
  pool.on('createSuccess', progressed);
  pool.on('acquireSuccess', progressed);
  const timer = setInterval(
    () => {
      if (pool.pendingAcquires.length === 0) {
        lastProgress = Date.now();
        return;
      }
      if (Date.now() - lastProgress < stallMs) return;
      const error = new knexFactory.KnexTimeoutError(`Knex: no connection came free for ${stallMs} ms: the database is not answering.`);
      for (const pending of pool.pendingAcquires.slice()) pending.reject(error);
    },
    Math.min(250, Math.max(10, Math.floor(stallMs / 4))),
  );
  timer.unref();
  pool.on('poolDestroySuccess', () => clearInterval(timer));
  return progressed;
}

export function createKnex(connectionString: string, options: KnexOptions = {}): Knex {
  const { bounds } = options;
  return knexFactory({
    client: bounds ? (BoundedPgClient as unknown as typeof Knex.Client) : 'pg',
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
    pool: { min: options.min ?? 0, max: options.max ?? 10 },
    acquireConnectionTimeout: bounds ? Math.max(bounds.acquireTimeoutMs, BUSY_WAIT_LIMIT_MS) : 15_000,
    ...(bounds ? { stallTimeoutMs: bounds.acquireTimeoutMs } : {}),
  } as Knex.Config);
}

/** Runs `fn` inside the given transaction, or a new one when none is given. */
export async function inTransaction<T>(knex: Knex, trx: Knex.Transaction | undefined, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  if (trx) return fn(trx);
  return knex.transaction(fn);
}

/** What `sqlRows` needs of knex's client: its pool, its query call, and its events. */
interface KnexClientInternals {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<void>;
  query(connection: PgConnection, query: { sql: string; bindings: readonly unknown[] }): Promise<{ response: pg.QueryResult }>;
  emit(event: 'query-response', rows: unknown, query: { sql: string; bindings: readonly unknown[] }): boolean;
}

/**
 * One SQL statement (placeholders `$1`, `$2`…) on a connection of knex's pool, or on the given
 * transaction's: the rows as PostgreSQL sent them (snake_case columns, int8 as numbers).
 *
 * For the statements run on every buyer's call (the session check, the panel's reads): through
 * objection and knex's query builder a statement cost about 0.2 ms of CPU, and moving the panel's
 * five here saved 0.7 ms of its 2.1 (bench:api). Everything else keeps objection behind its
 * repository. It is still knex's client underneath, so nothing else changes: the same pool and
 * its stall watch, the same statement and read timeouts (settings of the connection), the same
 * `query` and `query-response` events, the same errors (pg's, or knex's timeout when no
 * connection comes free).
 */
export async function sqlRows<T>(db: Knex | Knex.Transaction, sql: string, bindings: readonly unknown[] = []): Promise<T[]> {
  const client = db.client as unknown as KnexClientInternals;
  const connection = await client.acquireConnection();
  try {
    const query = { sql, bindings };
    const { response } = await client.query(connection, query);
    client.emit('query-response', response.rows, query);
    return response.rows as T[];
  } finally {
    await client.releaseConnection(connection);
  }
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
