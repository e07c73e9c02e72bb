import { Command } from 'commander';
import { migrateLatest, type Knex } from '@subshare/core';
import { runOnce } from '../context.js';

/**
 * Replicas that start together (scripts/production.sh runs `migrate` before every `serve` and
 * `worker`) would race to create knex's own tables on an empty database, and one fails with
 * "relation knex_migrations already exists". A PostgreSQL advisory lock held for the whole run
 * lets one process migrate while the others wait, then find nothing left to do.
 */
const MIGRATION_LOCK = 0x73756273; // 'subs'

async function whileLocked<T>(knex: Knex, task: () => Promise<T>): Promise<T> {
  // The lock belongs to this transaction's connection and ends with it, even if the process dies.
  return knex.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(?)', [MIGRATION_LOCK]);
    return task();
  });
}

export const migrateCommand = () =>
  new Command('migrate').description('apply pending database migrations (several at once are safe: they take turns)').action(async () => {
    await runOnce({ withoutJobs: true }, async ({ knex }) => {
      const applied = await whileLocked(knex, () => migrateLatest(knex));
      console.log(applied.length ? `Applied ${applied.length} migration(s):\n  ${applied.join('\n  ')}` : 'The database is up to date.');
    });
  });
