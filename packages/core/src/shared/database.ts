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
   * later (a frozen or unreachable server cannot cancel anything), and getting a connection
   * (including opening one) gives up after `acquireTimeoutMs`. Left out for migrations, backup
   * and restore, whose single statements may rightly run for minutes.
   */
  bounds?: { statementTimeoutMs: number; acquireTimeoutMs: number };
}

/** How much longer than the server's statement_timeout the client waits for an answer. */
const CLIENT_READ_MARGIN_MS = 1_000;

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
    acquireConnectionTimeout: bounds?.acquireTimeoutMs ?? 15_000,
  });
}

/** Runs `fn` inside the given transaction, or a new one when none is given. */
export async function inTransaction<T>(knex: Knex, trx: Knex.Transaction | undefined, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  if (trx) return fn(trx);
  return knex.transaction(fn);
}
