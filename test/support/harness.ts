/**
 * The test run's shared world: one database (migrated, demo catalog seeded), the container,
 * the Express app for supertest, and on demand a listening server for the browser. Tests
 * make their own data with unique values, so they never depend on each other's.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import type { Container } from 'inversify';
import type { PgBoss } from 'pg-boss';
import {
  buildContainer,
  createKnex,
  createLogger,
  createPgBoss,
  createQueues,
  loadConfig,
  migrateLatest,
  PgBossJobQueue,
  QUEUE_DEFINITIONS,
  seedDemoCatalog,
  type AppConfig,
  type Knex,
} from '@subshare/core';
import { createApp, listen } from '@subshare/http';
import { startTestDatabase, type TestDatabase } from './database.js';

export interface Harness {
  db: TestDatabase;
  config: AppConfig;
  knex: Knex;
  boss: PgBoss;
  container: Container;
  app: Express;
  /** Starts (once) a real HTTP server on a free port and returns its base URL. */
  baseUrl(): Promise<string>;
}

let current: Harness | undefined;
let closers: Array<() => Promise<void>> = [];

export function harness(): Harness {
  if (!current) throw new Error('The test harness is not started (root hooks did not run).');
  return current;
}

/** Environment for a config in the test run: explicit secrets, our database, no real providers. */
export function testEnv(databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'subshare-test-data-')),
    CREDENTIALS_KEY: randomBytes(32).toString('base64'),
    TOKEN_SECRET: randomBytes(32).toString('hex'),
    ALLOW_DEMO_PAYMENTS: 'true',
    PORT: '3000',
    ...extra,
  };
}

export async function startHarness(): Promise<Harness> {
  const db = await startTestDatabase();
  const config = loadConfig(testEnv(db.url));
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const knex = createKnex(db.url);
  await migrateLatest(knex);
  await seedDemoCatalog(knex);
  const boss = createPgBoss(db.url, { supervise: false, logger });
  await boss.start();
  await createQueues(boss, QUEUE_DEFINITIONS);
  const container = buildContainer({ config, knex, logger, jobQueue: new PgBossJobQueue(boss) });
  const app = createApp(container, { accessLog: false });

  let server: Promise<{ url: string; close(): Promise<void> }> | undefined;
  closers = [
    async () => {
      if (server) await (await server).close();
    },
    () => boss.stop({ graceful: false, timeout: 2_000 }),
    () => knex.destroy(),
    () => db.stop(),
  ];
  current = {
    db,
    config,
    knex,
    boss,
    container,
    app,
    async baseUrl() {
      server ??= listen(app, 0, '127.0.0.1');
      return (await server).url;
    },
  };
  return current;
}

export async function stopHarness(): Promise<void> {
  for (const close of closers) await close().catch((error: unknown) => console.error('test teardown:', error));
  closers = [];
  current = undefined;
}
