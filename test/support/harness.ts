/**
 * A test file's world: a database of its own (a copy of the run's migrated, seeded template, see
 * database.ts), a pg-boss on it, the container, the Express app for supertest, a real SMTP server,
 * and on demand a listening server for the browser and a worker. Root hooks start one per test
 * file (mocha runs each file in a worker process of its own), so a file sees only its own rows,
 * jobs and e-mails; tests within a file still make their own data with unique values.
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
  loadConfig,
  PgBossJobQueue,
  type AppConfig,
  type Clock,
  DatabaseEvents,
  MailboxReaderService,
  type Knex,
} from '@subshare/core';
import { createApp, createServerHandler, listen } from '@subshare/http';
import { startWorker, type WorkerHandle } from '@subshare/worker';
import { startTestDatabase, type TestDatabase } from './database.js';
import { mailDns, startMailDns, stopMailDns } from './mail-dns.js';
import { startSmtpServer, type CapturedMail, type TestSmtpServer } from './smtp.js';
import { waitFor } from './wait.js';

/** Real time plus an offset that tests move forward, so expiry is tested without sleeping. */
export class TestClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export interface Harness {
  db: TestDatabase;
  config: AppConfig;
  knex: Knex;
  boss: PgBoss;
  container: Container;
  app: Express;
  clock: TestClock;
  /** Another app on the same database and queue, with extra configuration (e.g. a social provider). */
  appWith(env: Record<string, string>): { app: Express; container: Container; config: AppConfig };
  /** The real SMTP server that the file's e-mails are delivered to by the worker. */
  smtp: TestSmtpServer;
  /** Starts (once) the worker that runs the file's jobs and delivers its e-mails; see useWorker. */
  startWorker(): Promise<void>;
  /** Waits for an e-mail to this address (matching `predicate`) to arrive by SMTP (needs the worker). */
  mailTo(address: string, predicate?: (mail: CapturedMail) => boolean): Promise<CapturedMail>;
  /** Starts (once) a real HTTP server on a free port and returns its base URL. */
  baseUrl(): Promise<string>;
}

let current: Harness | undefined;
let closers: Array<() => Promise<void>> = [];

/**
 * Declares that this test file needs its jobs run (e-mails delivered, orders activated…): the
 * harness worker starts before the file's tests. Files that do not call it have no worker, so
 * their jobs wait in their own database and cost nothing.
 */
export function useWorker(): void {
  before(async function () {
    this.timeout(30_000);
    await harness().startWorker();
  });
}

export function harness(): Harness {
  if (!current) throw new Error('The test harness is not started: root hooks did not run, or this is a unit test (test/unit/ is pure code, without one).');
  return current;
}

/** Environment for a config in the test run: explicit secrets, our database, no real providers. */
export function testEnv(databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  const dns = mailDns();
  return {
    DATABASE_URL: databaseUrl,
    // DKIM keys and DMARC records of the platforms' test mail (mail-dns.ts), for every shop of the run.
    ...(dns ? { MAIL_DNS_SERVERS: dns.address } : {}),
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
  const smtp = await startSmtpServer();
  await startMailDns();
  // Tests speak through a trusted local proxy, so each test client can have its own IP (rate limits).
  const config = loadConfig(testEnv(db.url, { SMTP_URL: smtp.url, TRUST_PROXY: 'loopback' }));
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  // The template holds the schema, the demo catalog and pg-boss's queues already.
  const knex = createKnex(db.url);
  const boss = createPgBoss(db.url, { supervise: false, logger });
  await boss.start();
  const clock = new TestClock();
  const jobQueue = new PgBossJobQueue(boss);
  const container = buildContainer({ config, knex, logger, jobQueue, clock });
  // supertest drives the Express app; a listening server (baseUrl) has the front door ahead of it, as `serve` does.
  const { app, handle } = createServerHandler(container, { accessLog: false });
  // The worker delivers e-mails (and runs every other job) as in production; schedules stay off.
  let worker: Promise<WorkerHandle> | undefined;

  let server: Promise<{ url: string; close(deadline?: number): Promise<void> }> | undefined;
  closers = [
    async () => {
      // A test server has no load balancer to drain for: its connections are cut at once.
      if (server) await (await server).close(Date.now());
    },
    async () => {
      if (worker) await (await worker).stop();
    },
    () => container.get(DatabaseEvents).close(),
    () => boss.stop({ graceful: false, timeout: 2_000 }),
    () => smtp.stop(),
    () => stopMailDns(),
    () => knex.destroy(),
    () => db.stop(),
  ];
  const started: Harness = {
    db,
    config,
    knex,
    boss,
    container,
    app,
    clock,
    appWith(env) {
      const extra = loadConfig({ ...testEnv(db.url, { SMTP_URL: smtp.url }), ...env });
      // Same secrets as the main app, so tokens and codes are valid in both.
      const other = { ...extra, tokenSecret: config.tokenSecret, credentialsKey: config.credentialsKey };
      const otherContainer = buildContainer({ config: other, knex, logger, jobQueue, clock });
      // Its own events connection (the catalog listens on first read), closed with the harness.
      closers.unshift(() => otherContainer.get(DatabaseEvents).close());
      return { app: createApp(otherContainer, { accessLog: false }), container: otherContainer, config: other };
    },
    smtp,
    async startWorker() {
      worker ??= startWorker(boss, container);
      await worker;
    },
    mailTo: (address, predicate = () => true) =>
      waitFor(() => smtp.messagesTo(address).find(predicate), {
        // A file may deliver through a worker of its own; without either, say what is missing.
        what: `an e-mail to ${address}${worker ? '' : ' (this file has no harness worker: useWorker() starts one)'}`,
        timeoutMs: 15_000,
      }),
    async baseUrl() {
      server ??= listen(app, 0, '127.0.0.1', handle);
      return (await server).url;
    },
  };
  current = started;
  return started;
}

/**
 * Closes a container made beside the harness's own (containers.ts) with the harness: its mailbox
 * reader and its events connection, which would otherwise keep re-connecting to the file's dropped
 * database for the rest of the mocha worker's life.
 */
export function closeWithHarness(container: Container): void {
  closers.unshift(async () => {
    await container.get(MailboxReaderService).close();
    await container.get(DatabaseEvents).close();
  });
}

export async function stopHarness(): Promise<void> {
  for (const close of closers) await close().catch((error: unknown) => console.error('test teardown:', error));
  closers = [];
  current = undefined;
}
