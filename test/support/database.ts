/**
 * A database of the test run's own: a fresh database on TEST_DATABASE_URL's server when that
 * is set, otherwise an embedded PostgreSQL in a temporary directory. Dropped at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startEmbeddedPostgres } from '@subshare/core';

export interface TestDatabase {
  url: string;
  /** Creates another empty database on the same server (for migration tests). */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function startTestDatabase(): Promise<TestDatabase> {
  const created: string[] = [];
  const suffix = `${process.pid}_${randomBytes(3).toString('hex')}`;
  const createDatabase = async (serverUrl: string, name: string) => {
    const database = `${name}_${suffix}`.toLowerCase();
    await adminQuery(serverUrl, `create database "${database}"`);
    created.push(database);
    return withDatabase(serverUrl, database);
  };

  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    const url = await createDatabase(external, 'subshare_test');
    return {
      url,
      createDatabase: (name) => createDatabase(external, name),
      async stop() {
        for (const database of created) await adminQuery(external, `drop database if exists "${database}" with (force)`);
      },
    };
  }

  const dir = mkdtempSync(path.join(os.tmpdir(), 'subshare-test-db-'));
  const embedded = await startEmbeddedPostgres({ dataDir: dir, password: randomBytes(12).toString('hex'), database: 'subshare_test' });
  return {
    url: embedded.url,
    createDatabase: (name) => createDatabase(embedded.url, name),
    async stop() {
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
