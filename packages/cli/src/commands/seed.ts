import { Command } from 'commander';
import { migrateLatest, seedDemoCatalog } from '@subshare/core';
import { runOnce } from '../context.js';

export const seedCommand = () =>
  new Command('seed').description('load the demo catalog into an empty catalog (never duplicates)').action(async () => {
    await runOnce({ withoutJobs: true }, async ({ knex }) => {
      await migrateLatest(knex);
      const result = await seedDemoCatalog(knex);
      console.log(result.seeded ? `Seeded the demo catalog: ${result.platforms} platforms.` : 'The catalog already has platforms; nothing seeded.');
    });
  });
