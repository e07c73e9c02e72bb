/**
 * The test run's PostgreSQL and the databases on it. The run starts one server (an embedded
 * PostgreSQL in a temporary directory, or uses TEST_DATABASE_URL's server) and prepares one
 * template database on it: migrated, demo catalog seeded, pg-boss's schema and queues created.
 * Each test file then gets a database of its own, copied from that template in a moment
 * (CREATE DATABASE … TEMPLATE), so no file sees another file's rows, jobs or e-mails.
 *
 * The server is started once per run in mocha's global setup (root-hooks.ts), in the main process;
 * the test files run in mocha's worker processes, which find the server and the template through
 * the environment (RUN_ENV below), inherited when mocha forks them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createKnex, createPgBoss, createQueues, migrateLatest, JOB_DECLARATIONS, seedDemoCatalog, startEmbeddedPostgres } from '@subshare/core';

/** Where a test process finds the run's server (a URL whose database part is ignored), template and name. */
const RUN_ENV = { server: 'SUBSHARE_TEST_SERVER_URL', template: 'SUBSHARE_TEST_TEMPLATE', run: 'SUBSHARE_TEST_RUN' } as const;

export interface TestDatabase {
  url: string;
  /** Creates another empty database on the same server (for migration tests); dropped with this one. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

export interface TestServer {
  /** Stops the server (embedded) or drops the template and every database this run left (external). */
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

/** The URL of the run's PostgreSQL server (any database: a test names its own, or `postgres`). */
export function testServerUrl(): string {
  const url = process.env[RUN_ENV.server];
  if (!url) throw new Error(`${RUN_ENV.server} is not set: the test run's global setup (test/support/root-hooks.ts) did not run.`);
  return url;
}

/** Connections the run's server takes (TEST_DATABASE_URL's server should allow as many). */
export const TEST_MAX_CONNECTIONS = 400;

/** Part of every database name of a run, so runs sharing TEST_DATABASE_URL's server never collide. */
const randomSuffix = () => randomBytes(3).toString('hex');

/**
 * Mocha's global setup: the server and the template, announced through the environment. A test
 * file's harness copies the template; the template is never connected to afterwards (PostgreSQL
 * copies a database only while nobody is connected to it).
 */
export async function startTestServer(): Promise<TestServer> {
  const runSuffix = `${process.pid}_${randomSuffix()}`;
  const template = `subshare_template_${runSuffix}`;
  let serverUrl: string;
  let stopServer: () => Promise<void>;

  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    serverUrl = external;
    stopServer = async () => {
      // Databases of this run's files are dropped by their harnesses; these are what a crash left.
      const client = new pg.Client({ connectionString: withDatabase(external, 'postgres') });
      await client.connect();
      try {
        const { rows } = await client.query<{ datname: string }>('select datname from pg_database where datname like $1', [`%${runSuffix}%`]);
        for (const { datname } of rows) await client.query(`drop database if exists "${datname}" with (force)`);
      } finally {
        await client.end();
      }
    };
  } else {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'subshare-test-db-'));
    // Every file's harness, its appWith containers, CLI processes and the cluster test's two serve
    // and two worker processes hold connections at once: more than PostgreSQL's default of 100.
    const embedded = await startEmbeddedPostgres({
      dataDir: dir,
      password: randomBytes(12).toString('hex'),
      database: 'postgres',
      settings: { max_connections: String(TEST_MAX_CONNECTIONS) },
    });
    serverUrl = embedded.url;
    // A throwaway server: durability only costs time (every CREATE DATABASE and commit waits on disk).
    await adminQuery(serverUrl, 'alter system set fsync = off');
    await adminQuery(serverUrl, 'alter system set synchronous_commit = off');
    await adminQuery(serverUrl, 'alter system set full_page_writes = off');
    await adminQuery(serverUrl, 'select pg_reload_conf()');
    stopServer = async () => {
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
    };
  }

  await adminQuery(serverUrl, `create database "${template}"`);
  const templateUrl = withDatabase(serverUrl, template);
  const knex = createKnex(templateUrl);
  try {
    await migrateLatest(knex);
    await seedDemoCatalog(knex);
  } finally {
    await knex.destroy();
  }
  const boss = createPgBoss(templateUrl, { supervise: false });
  await boss.start();
  try {
    await createQueues(boss, JOB_DECLARATIONS);
  } finally {
    await boss.stop({ graceful: false, timeout: 2_000 });
  }

  process.env[RUN_ENV.server] = serverUrl;
  process.env[RUN_ENV.template] = template;
  process.env[RUN_ENV.run] = runSuffix;
  return { stop: stopServer };
}

/**
 * A database of the test file's own on the run's server: a copy of the template (migrated, seeded,
 * pg-boss ready). `createDatabase` makes further, empty ones. `stop` drops them all.
 */
export async function startTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env[RUN_ENV.server];
  const template = process.env[RUN_ENV.template];
  const runSuffix = process.env[RUN_ENV.run];
  if (!serverUrl || !template || !runSuffix)
    throw new Error(`${RUN_ENV.server} is not set: the test run's global setup (test/support/root-hooks.ts) did not run.`);
  const suffix = `${runSuffix}_${randomSuffix()}`;
  const created: string[] = [];
  const create = async (name: string, from?: string) => {
    const database = `${name}_${suffix}`.toLowerCase();
    await adminQuery(serverUrl, `create database "${database}"${from ? ` template "${from}"` : ''}`);
    created.push(database);
    return withDatabase(serverUrl, database);
  };
  const url = await create('subshare_test', template);
  return {
    url,
    createDatabase: (name) => create(name),
    async stop() {
      for (const database of created.splice(0)) await adminQuery(serverUrl, `drop database if exists "${database}" with (force)`);
    },
  };
}
