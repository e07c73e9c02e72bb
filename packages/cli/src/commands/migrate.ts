import { Command } from 'commander';
import { migrateLatest } from '@subshare/core';
import { runOnce } from '../context.js';

export const migrateCommand = () =>
  new Command('migrate').description('apply pending database migrations').action(async () => {
    await runOnce({ withoutJobs: true }, async ({ knex }) => {
      const applied = await migrateLatest(knex);
      console.log(applied.length ? `Applied ${applied.length} migration(s):\n  ${applied.join('\n  ')}` : 'The database is up to date.');
    });
  });
