/**
 * This shop's installation id, which prefixes Stripe's idempotency keys: staging and production
 * often share a Stripe account and number their payments alike, so without it one shop's key
 * could replay the other's checkout session or refund.
 *
 * Generated once and stored in the `installation` table (the migration `20261208000100_money-ledger`
 * makes the table; the id is made at first use), so every process of one shop reads the same id.
 * It is stored with the database it was made in (`database`: the cluster's system identifier and
 * the database's oid): a copy of the database (restored into another database, or a test database
 * made from a template) is another shop, and makes its own id at first use instead of keeping the
 * original's.
 */
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';

const KEY = 'installation_id';

/** A reader of the installation id that asks the database once per process (and again after a failure). */
export function installationIdReader(knex: Knex): () => Promise<string> {
  let cached: Promise<string> | undefined;
  return () => {
    cached ??= readOrCreate(knex).catch((error: unknown) => {
      cached = undefined;
      throw error;
    });
    return cached;
  };
}

/** Which database this is: the cluster's identifier (when this role may read it) and the database's oid. */
async function databaseIdentity(knex: Knex): Promise<string> {
  const { rows } = await knex.raw<{ rows: Array<{ oid: string }> }>('select oid::text as oid from pg_database where datname = current_database()');
  let cluster = 'cluster';
  try {
    const control = await knex.raw<{ rows: Array<{ id: string }> }>('select system_identifier::text as id from pg_control_system()');
    cluster = control.rows[0]?.id ?? cluster;
  } catch {
    // Not readable by this role: the database's oid alone tells copies apart within one server.
  }
  return `${cluster}/${rows[0].oid}`;
}

async function readOrCreate(knex: Knex): Promise<string> {
  const database = await databaseIdentity(knex);
  return knex.transaction(async (trx) => {
    // One process makes it; the others wait here and read it.
    await trx.raw('lock table installation in share row exclusive mode');
    const row = await trx('installation').where({ key: KEY }).first<{ value: string; database: string | null } | undefined>();
    if (row && row.database === database) return row.value;
    const value = randomBytes(16).toString('hex');
    await trx('installation').insert({ key: KEY, value, database, created_at: new Date() }).onConflict('key').merge(['value', 'database', 'created_at']);
    return value;
  });
}
