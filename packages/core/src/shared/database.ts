/**
 * The knex connection and, in demo mode, the embedded PostgreSQL it talks to.
 */
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';

// PostgreSQL returns bigint (int8) and numeric as strings; our ids and counts fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

export type { Knex };

export function createKnex(connectionString: string, pool: { min?: number; max?: number } = {}): Knex {
  return knexFactory({
    client: 'pg',
    connection: { connectionString, application_name: 'subshare' },
    pool: { min: pool.min ?? 0, max: pool.max ?? 10 },
    acquireConnectionTimeout: 15_000,
  });
}

/** Runs `fn` inside the given transaction, or a new one when none is given. */
export async function inTransaction<T>(knex: Knex, trx: Knex.Transaction | undefined, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  if (trx) return fn(trx);
  return knex.transaction(fn);
}
