import { Command } from 'commander';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { credentialsKeyId, ValidationError } from '@subshare/core';
import { writeBackup } from '../backup/write.js';
import { runOnce } from '../context.js';

/** 1.4 MiB, 56.2 KiB, 812 B */
export function byteSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}

function outFile(raw: string): string {
  const file = raw.trim();
  if (!file) throw new ValidationError('--out must name the backup file to write.', undefined, 'invalid_argument');
  const resolved = path.resolve(file);
  if (existsSync(resolved) && statSync(resolved).isDirectory()) {
    throw new ValidationError(
      `--out ${file} is a directory; name a file in it (e.g. ${path.join(file, 'subshare.backup.gz')}).`,
      undefined,
      'invalid_argument',
    );
  }
  const dir = path.dirname(resolved);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new ValidationError(`--out ${file}: the directory ${dir} does not exist.`, undefined, 'invalid_argument');
  }
  return resolved;
}

/**
 * A consistent snapshot of the shop's data while it keeps running (format: backup/format.ts).
 * Restore it with `subshare restore`.
 */
export const backupCommand = () =>
  new Command('backup')
    .description("write a consistent snapshot of the shop's data (every table of the public schema) to a gzip'd file, readable by its owner only")
    .requiredOption('--out <file>', 'the file to write; replaced atomically if it exists (e.g. subshare-2026-11-30.backup.gz)')
    .addHelpText(
      'after',
      '\nThe file holds ciphertexts of account and mailbox passwords and hashes of user passwords: it is written with mode 600;\n' +
        'keep it as safe as the database. Restoring it needs the same CREDENTIALS_KEY (in demo mode: DATA_DIR/secrets.json).\n' +
        "pg-boss's job queue is not in it (jobs are transient): after a restore, e-mails still pending in the outbox are queued\n" +
        "again by the worker's outbox sweep, and its schedules pick up waiting orders and due subscriptions.\n" +
        "It runs beside a running shop (with the embedded PostgreSQL it uses the running shop's server).",
    )
    .action(async (options: { out: string }) => {
      const file = outFile(options.out);
      await runOnce({ withoutJobs: true }, async ({ knex, config }) => {
        const summary = await writeBackup(knex, file, credentialsKeyId(config.credentialsKey));
        console.log(
          `Backed up ${summary.tables} tables, ${summary.rows} rows to ${summary.file} (${byteSize(summary.bytes)}) in ${(summary.ms / 1000).toFixed(1)} s.`,
        );
      });
    });
