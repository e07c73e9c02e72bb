/**
 * Writes a backup: one REPEATABLE READ, READ ONLY transaction, so every table is read from the
 * same snapshot while the shop keeps running; rows stream from cursors through gzip into a
 * temporary file (mode 600) that is renamed over the target only once it is complete and synced.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, open, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Knex } from '@subshare/core';
import { appliedMigrations, inTransaction, loadOrder, readSequences, readTables, tableRows, withConnection } from './database.js';
import { BACKUP_FORMAT, BACKUP_VERSION, RowDigest, type BackupHeader, type BodyLine } from './format.js';

export interface BackupSummary {
  file: string;
  tables: number;
  rows: number;
  bytes: number;
  ms: number;
}

const line = (value: BackupHeader | BodyLine) => `${JSON.stringify(value)}\n`;

/** Makes the rename itself durable (best effort: not every file system allows syncing a directory). */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch(() => undefined);
  await handle?.sync().catch(() => undefined);
  await handle?.close();
}

export async function writeBackup(knex: Knex, file: string, credentialsKeyId: string): Promise<BackupSummary> {
  const started = Date.now();
  const target = path.resolve(file);
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let tables = 0;
  let rows = 0;
  try {
    await withConnection(knex, (sql) =>
      inTransaction(sql, 'isolation level repeatable read, read only', async () => {
        // The first query fixes the snapshot; sequences are read after it, so they are past every id it shows.
        const catalog = await readTables(sql);
        const migrations = await appliedMigrations(sql);
        if (!migrations) throw new Error('This database has no knex_migrations table: it is not a subshare database (run `subshare migrate` first?).');
        const sequences = await readSequences(sql);
        const [[postgres]] = (await sql.rows('show server_version')) as string[][];
        const order = loadOrder(catalog).flatMap((component) => component.tables);
        const header: BackupHeader = {
          format: BACKUP_FORMAT,
          version: BACKUP_VERSION,
          createdAt: new Date().toISOString(),
          postgres,
          credentialsKeyId,
          migrations,
          tables: order.map((name) => ({ name, columns: catalog.get(name)!.columns.map(({ name: column, type }) => ({ name: column, type })) })),
          sequences: sequences.map(({ name, table, column, lastValue }) => ({ name, table, column, lastValue })),
        };
        async function* content(): AsyncGenerator<string> {
          yield line(header);
          for (const name of order) {
            const digest = new RowDigest();
            yield line({ kind: 'table', name });
            for await (const batch of tableRows(sql, catalog.get(name)!)) {
              for (const row of batch) digest.add(row);
              yield line({ kind: 'rows', rows: batch });
            }
            yield line({ kind: 'table-end', name, rows: digest.count, digest: digest.value });
            tables += 1;
            rows += digest.count;
          }
          yield line({ kind: 'end', tables, rows });
        }
        await pipeline(content(), createGzip(), createWriteStream(temporary, { flags: 'wx', mode: 0o600, flush: true }));
      }),
    );
    await chmod(temporary, 0o600);
    await rename(temporary, target);
    await syncDirectory(path.dirname(target));
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  return { file: target, tables, rows, bytes: (await stat(target)).size, ms: Date.now() - started };
}
