import { Command } from 'commander';
import { accessSync, constants, statSync } from 'node:fs';
import { credentialsKeyId, migrationNames, ValidationError } from '@subshare/core';
import { describeDatabase } from '../backup/database.js';
import { readHeader } from '../backup/format.js';
import { previewRestore, restoreBackup, type RestoreOptions } from '../backup/restore.js';
import { runOnce } from '../context.js';

function inFile(raw: string): string {
  const file = raw.trim();
  if (!file) throw new ValidationError('--in must name the backup file to restore.', undefined, 'invalid_argument');
  try {
    if (!statSync(file).isFile()) throw new ValidationError(`--in ${file} is not a file.`, undefined, 'invalid_argument');
    accessSync(file, constants.R_OK);
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    throw new ValidationError(`--in: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`, undefined, 'invalid_argument');
  }
  return file;
}

/** Loads a `subshare backup` file into an empty, freshly migrated database (backup/restore.ts says how). */
export const restoreCommand = () =>
  new Command('restore')
    .description('load a backup into an empty database at the same migration level, all in one transaction')
    .requiredOption('--in <file>', 'the file written by `subshare backup`')
    .option('--yes', 'write into the database; without it, restore only checks the file and the database and changes nothing')
    .option('--ignore-credentials-key', 'restore although CREDENTIALS_KEY is not the key the backup was made with (its stored passwords then cannot be read)')
    .addHelpText(
      'after',
      "\nThe database must be empty and at the backup's migration level: e.g. a new DATA_DIR or DATABASE_URL, then\n" +
        '`subshare migrate`, then `subshare restore --in <file> --yes`, then start subshare. Use the CREDENTIALS_KEY the backup\n' +
        'was made with. Constraints and triggers stay on; anything that does not fit rolls the whole restore back.',
    )
    .action(async (options: { in: string; yes?: boolean; ignoreCredentialsKey?: boolean }) => {
      const file = inFile(options.in);
      await readHeader(file); // a file that is not a backup is refused before the database is opened
      await runOnce({ withoutJobs: true }, async ({ knex, config, databaseUrl }) => {
        const restoreOptions: RestoreOptions = {
          file,
          credentialsKeyId: credentialsKeyId(config.credentialsKey),
          ignoreCredentialsKey: Boolean(options.ignoreCredentialsKey),
          knownMigrations: migrationNames(),
          target: config.databaseUrl ? describeDatabase(databaseUrl) : `the embedded database in ${config.dataDir}`,
        };
        if (!options.yes) {
          const preview = await previewRestore(knex, restoreOptions);
          throw new ValidationError(
            `Nothing restored: ${file} (made ${preview.header.createdAt}, ${preview.tables} tables, ${preview.rows} rows) fits ${preview.target}, ` +
              'which is empty and at the same migration level; restoring writes into it, so run again with --yes.',
            undefined,
            'confirmation_required',
          );
        }
        const summary = await restoreBackup(knex, restoreOptions);
        const repaired = summary.repaired.length > 0 ? ` Set back what triggers changed while loading in ${summary.repaired.join(', ')}.` : '';
        console.log(
          `Restored ${summary.tables} tables, ${summary.rows} rows from ${file} (made ${summary.header.createdAt}) into ${summary.target} ` +
            `in ${(summary.ms / 1000).toFixed(1)} s; ${summary.sequences} sequences set past their highest ids.${repaired}`,
        );
      });
    });
