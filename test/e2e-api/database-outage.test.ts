/**
 * A database outage, played with a TCP proxy of the test's own between a shop and a database of
 * its own (so the server every other test file shares is never touched). The shop is opened the
 * way `subshare serve` and `subshare worker` open it (openRuntime), so its pool settings are the
 * production ones. While PostgreSQL is frozen or stopped, a call that needs it answers 503 JSON
 * with Retry-After within a few seconds; when PostgreSQL is back, the same shop serves again
 * without a restart, and its worker delivers e-mails again.
 */
import { expect } from 'chai';
import type { Express } from 'express';
import type { Response } from 'supertest';
import { createKnex, createLogger, hashPassword, loadConfig, migrateLatest, openRuntime, seedDemoCatalog, sqlRows, type Runtime } from '@subshare/core';
import { createApp } from '@subshare/http';
import { startWorker, type WorkerHandle } from '@subshare/worker';
import { api, uniqueEmail } from '../support/agent.js';
import { harness, testEnv } from '../support/harness.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { waitFor } from '../support/wait.js';

/**
 * How long an answer may take while the database is down. The shop's bounds are a few seconds
 * (pool acquire timeout, statement timeout plus a second for the client's own read timeout);
 * 10 s leaves room for a slow CI machine and is still far from "hangs for the whole outage".
 */
const ANSWER_WITHIN_MS = 10_000;

/** The answer, or a failure naming the call if none arrives within `ms` (the request is then abandoned). */
async function answerWithin<T = Response>(what: string, request: PromiseLike<T>, ms = ANSWER_WITHIN_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([Promise.resolve(request), late]);
  } finally {
    clearTimeout(timer);
  }
}

function expectUnavailable(what: string, res: Response): void {
  expect(res.status, `${what}: ${res.status} ${JSON.stringify(res.body)}`).to.equal(503);
  expect(res.headers['content-type'], what).to.match(/application\/json/);
  expect(res.body, what).to.include.keys('message', 'code');
  expect(res.body.message, what).to.be.a('string').and.not.equal('');
  expect(Number(res.headers['retry-after']), `${what}: Retry-After`).to.be.within(1, 60);
}

describe('a database outage (PostgreSQL behind a proxy that freezes, refuses and comes back)', function () {
  this.timeout(90_000);
  let proxy: TcpProxy;
  let runtime: Runtime;
  let worker: WorkerHandle;
  let app: Express;
  const buyer = { email: uniqueEmail('outage'), password: 'outage-pass-1' };

  const checkEmail = () => api(app).get('/api/user/checkemail').query({ email: buyer.email });
  const login = () => api(app).post('/api/user/authenticate').send(buyer);
  const health = () => api(app).get('/api/health');
  /** A logged-in call: the session check and the panel's reads (statements run straight through pg, `sqlRows`). */
  let session: { id: number; token: string };
  const panel = () => api(app).get('/api/user/getuserpanel').query({ id: session.id, languageId: 1 }).set('Authorization', `Bearer ${session.token}`);

  before(async () => {
    const url = await harness().db.createDatabase('subshare_outage');
    const setup = createKnex(url);
    try {
      await migrateLatest(setup);
      await seedDemoCatalog(setup);
      await setup('users').insert({ email: buyer.email, password_hash: await hashPassword(buyer.password), role: 0, is_email_verified: true, language_id: 1 });
    } finally {
      await setup.destroy();
    }
    const target = new URL(url);
    proxy = await startTcpProxy(target.hostname, Number(target.port));
    const config = loadConfig(testEnv(proxy.urlFor(url), { SMTP_URL: harness().smtp.url, TRUST_PROXY: 'loopback' }));
    runtime = await openRuntime(config, createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'), { supervise: false });
    app = createApp(runtime.container, { accessLog: false });
    worker = await startWorker(runtime.boss, runtime.container);
    session = (await login().expect(200)).body as { id: number; token: string };
  });

  // A test that fails mid-outage must not leave the next one without a database.
  afterEach(() => proxy.resume());

  after(async () => {
    await proxy?.resume();
    await worker?.stop();
    await runtime?.close();
    await proxy?.close();
  });

  /** The shop serves again: the same calls answer 200, without a restart. */
  async function expectBack(): Promise<void> {
    await proxy.resume();
    const back = await waitFor(
      async () => {
        const res = await checkEmail();
        return res.status === 200 ? res : undefined;
      },
      { what: 'checkemail to answer 200 again', timeoutMs: 30_000, intervalMs: 250 },
    );
    expect(back.body).to.equal(true);
    expect((await login()).status).to.equal(200);
    const healthy = await health();
    expect(healthy.status).to.equal(200);
    expect(healthy.body.database).to.equal('ok');
    expect((await panel()).status).to.equal(200);
  }

  it('serves before the outage', async () => {
    expect((await checkEmail().expect(200)).body).to.equal(true);
    expect((await login().expect(200)).body.token).to.be.a('string');
    expect((await health().expect(200)).body).to.include({ database: 'ok' });
    expect((await panel().expect(200)).body.user).to.include({ email: buyer.email });
  });

  it('answers 503 with Retry-After within seconds while PostgreSQL is frozen, and 200 once it is back', async () => {
    proxy.freeze();
    const [checked, loggedIn, panelRead, healthReport] = await Promise.all([
      answerWithin('checkemail', checkEmail()),
      answerWithin('authenticate', login()),
      answerWithin('panel', panel()),
      answerWithin('health', health()),
    ]);
    expectUnavailable('checkemail', checked);
    expectUnavailable('authenticate', loggedIn);
    expectUnavailable('panel', panelRead);
    expect(healthReport.status).to.equal(503);
    expect(healthReport.body).to.include({ status: 'degraded', database: 'unreachable' });
    expect(healthReport.body.down).to.deep.equal(['database']);

    // A call after the first timeouts meets the same clean answer (no connection left stuck in the pool).
    expectUnavailable('checkemail again', await answerWithin('checkemail again', checkEmail()));
    expectUnavailable('panel again', await answerWithin('panel again', panel()));
    await expectBack();
  });

  for (const [path, run] of [
    ['knex', (sql: string) => runtime.knex.raw(sql)],
    ['the lean path (sqlRows)', (sql: string) => sqlRows(runtime.knex, sql)],
  ] as const) {
    it(`cancels a statement that runs longer than the statement timeout (${path})`, async () => {
      const started = Date.now();
      const outcome = await answerWithin(
        'select pg_sleep(60)',
        run('select pg_sleep(60)').then(
          () => ({ code: 'finished' }),
          (caught: { code?: string }) => caught,
        ),
      );
      expect(outcome.code).to.equal('57014'); // query_canceled
      expect(Date.now() - started).to.be.below(ANSWER_WITHIN_MS);
      // The connection that ran it is still good.
      expect((await checkEmail().expect(200)).body).to.equal(true);
      expect((await panel()).status).to.equal(200);
    });
  }

  it('answers 503 with Retry-After at once while PostgreSQL is stopped, names the database in /api/health, and recovers', async () => {
    await proxy.refuse();
    expectUnavailable('checkemail', await answerWithin('checkemail', checkEmail()));
    expectUnavailable('authenticate', await answerWithin('authenticate', login()));
    expectUnavailable('panel', await answerWithin('panel', panel()));
    const report = await answerWithin('health', health());
    expect(report.status).to.equal(503);
    expect(report.body).to.include({ status: 'degraded', database: 'unreachable', pendingMigrations: 0 });
    expect(report.body.down).to.deep.equal(['database']);
    expect(report.body.databaseError).to.equal('connection_refused');
    await expectBack();
  });

  it('keeps the worker working across the outage: an e-mail asked for afterwards is delivered', async () => {
    const email = uniqueEmail('after-outage');
    const registered = await api(app).post('/api/user/register').send({ email, password: 'good-pass-1', languageId: 1 }).expect(200);
    await api(app).post('/api/user/sendverificationcode').set('Authorization', `Bearer ${registered.body.token}`).send({ email }).expect(200);
    const mail = await harness().mailTo(email);
    expect(mail.text).to.match(/\b\d{6}\b/);
  });
});
