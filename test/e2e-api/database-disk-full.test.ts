/**
 * PostgreSQL's disk fills up. The shop's own database lives in a tablespace on a tmpfs of a few
 * MB (test/support/small-filesystem.ts) on the run's server; a filler table takes the rest of it,
 * so PostgreSQL answers a write that needs a new page with 53100 (disk_full), for real. The shop
 * answers such a call 503 `database_unavailable` with Retry-After (not 500 `internal`), keeps
 * answering reads, and /readyz says not ready (`database_disk_full`) until a write works again;
 * once the filler is dropped, /readyz is ready and the same call succeeds, without a restart.
 */
import { statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { Express } from 'express';
import pg from 'pg';
import { createKnex, createLogger, hashPassword, loadConfig, migrateLatest, openRuntime, type Runtime } from '@subshare/core';
import { createApp } from '@subshare/http';
import { api, uniqueEmail } from '../support/agent.js';
import { testServerUrl } from '../support/database.js';
import { testEnv } from '../support/harness.js';
import { mountSmallFilesystem, type SmallFilesystem } from '../support/small-filesystem.js';
import { waitFor } from '../support/wait.js';

/** Room for the migrated schema (about 15 MB) and little more: the filler takes the rest in seconds. */
const FILESYSTEM_MB = 48;
const DISK_FULL = '53100';

function urlOf(server: string, database: string): string {
  const url = new URL(server);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Runs `statement` until PostgreSQL answers 53100; any other error fails the test. */
async function fillUntilDiskFull(client: pg.Client, statement: string, most: number): Promise<void> {
  for (let i = 0; i < most; i += 1) {
    try {
      await client.query(statement);
    } catch (error) {
      if ((error as { code?: string }).code === DISK_FULL) return;
      throw error;
    }
  }
  throw new Error(`${statement}: still room after ${most} runs`);
}

describe('a full disk (PostgreSQL 53100, in a tablespace on a small filesystem)', function () {
  this.timeout(120_000);
  const suffix = randomBytes(4).toString('hex');
  const tablespace = `subshare_small_${suffix}`;
  const database = `subshare_disk_full_${suffix}`;
  const server = testServerUrl();
  const admin = urlOf(server, 'postgres');
  const url = urlOf(server, database);
  let filesystem: SmallFilesystem | undefined;
  let runtime: Runtime | undefined;
  let app: Express;

  const register = (email: string) => api(app).post('/api/user/register').send({ email, password: 'good-pass-1', languageId: 1 });
  const readyz = () => api(app).get('/readyz');

  before(async () => {
    // The tablespace's directory must belong to the user PostgreSQL runs as (the run's server is local).
    const dataDirectory = await withClient(
      admin,
      async (client) => (await client.query<{ data_directory: string }>('show data_directory')).rows[0]!.data_directory,
    );
    const { uid, gid } = statSync(dataDirectory);
    filesystem = await mountSmallFilesystem(FILESYSTEM_MB, { uid, gid });
    await withClient(admin, async (client) => {
      await client.query(`create tablespace "${tablespace}" location '${filesystem!.dir}'`);
      await client.query(`create database "${database}" tablespace "${tablespace}"`);
    });
    const setup = createKnex(url);
    try {
      await migrateLatest(setup);
    } finally {
      await setup.destroy();
    }
    const config = loadConfig(testEnv(url, { TRUST_PROXY: 'loopback' }));
    runtime = await openRuntime(config, createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'), { withoutJobs: true });
    app = createApp(runtime.container, { accessLog: false });
  });

  after(async () => {
    await runtime?.close();
    await withClient(admin, async (client) => {
      await client.query(`drop database if exists "${database}" with (force)`);
      await client.query(`drop tablespace if exists "${tablespace}"`);
    });
    await filesystem?.release();
  });

  it('answers a write 503 database_unavailable while the disk is full, /readyz not ready until writes work, then serves again', async () => {
    await readyz().expect(200);
    await register(uniqueEmail('before-full')).expect(200);

    // Fill the filesystem: a filler table, then the users table itself, so its last page is full
    // and the next account needs a page the disk does not have.
    const passwordHash = await hashPassword('filler-pass-1');
    await withClient(url, async (client) => {
      await client.query('create table disk_filler (n bigint)');
      await fillUntilDiskFull(client, 'insert into disk_filler select generate_series(1, 100000)', 1_000);
      await fillUntilDiskFull(
        client,
        `insert into users (email, password_hash, role, is_email_verified, language_id)
           select 'filler-' || md5(random()::text) || '@example.test', '${passwordHash}', 0, true, 1 from generate_series(1, 20)`,
        10_000,
      );
    });

    const refused = await register(uniqueEmail('while-full'));
    expect(refused.status, JSON.stringify(refused.body)).to.equal(503);
    expect(refused.body.code).to.equal('database_unavailable');
    expect(Number(refused.headers['retry-after'])).to.be.within(1, 60);
    // Reads still work: the shop is up, it cannot take writes.
    await api(app)
      .get('/api/user/checkemail')
      .query({ email: uniqueEmail('read') })
      .expect(200);

    const notReady = await readyz();
    expect(notReady.status).to.equal(503);
    expect(notReady.body).to.include({ status: 'not_ready', database: 'ok', writes: 'disk_full' });
    expect(notReady.body.reasons).to.deep.equal(['database_disk_full']);
    // Still not ready at the next probe: the disk is still full.
    expect((await readyz()).body.reasons).to.deep.equal(['database_disk_full']);

    // The operator frees space: ready again, and the same call succeeds.
    await withClient(url, (client) => client.query('drop table disk_filler'));
    await waitFor(async () => ((await readyz()).status === 200 ? true : undefined), { what: '/readyz to be ready again', timeoutMs: 20_000, intervalMs: 250 });
    await register(uniqueEmail('after-full')).expect(200);
    expect((await readyz().expect(200)).body).to.include({ status: 'ready' });
  });
});
