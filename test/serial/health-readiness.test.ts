/**
 * GET /healthz and GET /readyz on a shop of the test's own: its own database behind a TCP proxy
 * (test/support/tcp-proxy.ts) that stops or freezes PostgreSQL, opened the way `subshare serve`
 * opens it, with its log lines kept to check that an error line carries the request's id.
 */
import { Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Express } from 'express';
import { createKnex, createLogger, loadConfig, migrateLatest, openRuntime, type Knex, type Runtime } from '@subshare/core';
import { createApp } from '@subshare/http';
import { api } from '../support/agent.js';
import { harness, testEnv } from '../support/harness.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

/** /readyz gives the database 2 s; with a slow machine's margin, still far below a probe's usual 5-10 s timeout. */
const ANSWER_WITHIN_MS = 4_000;

async function timed<T>(request: PromiseLike<T>): Promise<{ res: T; ms: number }> {
  const started = Date.now();
  const res = await request;
  return { res, ms: Date.now() - started };
}

describe('health and readiness probes (/healthz, /readyz)', function () {
  this.timeout(60_000);
  let proxy: TcpProxy;
  let runtime: Runtime;
  let app: Express;
  let direct: Knex;
  let written = '';

  before(async () => {
    const url = await harness().db.createDatabase('subshare_readiness');
    direct = createKnex(url);
    await migrateLatest(direct);
    const target = new URL(url);
    proxy = await startTcpProxy(target.hostname, Number(target.port));
    const sink = new Writable({
      write(chunk, _encoding, done) {
        written += chunk.toString();
        done();
      },
    });
    const config = loadConfig(testEnv(proxy.urlFor(url), { TRUST_PROXY: 'loopback' }));
    runtime = await openRuntime(config, createLogger('info', sink), { withoutJobs: true });
    app = createApp(runtime.container, { accessLog: false });
  });

  afterEach(async () => {
    await proxy.resume();
    app.locals.draining = false;
  });

  after(async () => {
    await proxy?.resume();
    await runtime?.close();
    await proxy?.close();
    await direct?.destroy();
  });

  it('answers /healthz 200 and /readyz 200 ready when the database is up and migrated', async () => {
    expect((await api(app).get('/healthz').expect(200)).body).to.deep.equal({ status: 'alive' });
    const ready = await api(app).get('/readyz').expect(200);
    expect(ready.body).to.deep.equal({ status: 'ready', database: 'ok', pendingMigrations: 0 });
    expect(ready.headers['cache-control']).to.equal('no-store');
  });

  it('answers /readyz 503 draining once shutdown has set app.locals.draining, and /healthz stays 200', async () => {
    app.locals.draining = true;
    const res = await api(app).get('/readyz').expect(503);
    expect(res.body).to.deep.equal({ status: 'not_ready', reasons: ['draining'] });
    await api(app).get('/healthz').expect(200);
  });

  it('answers /readyz 503 migrations_pending when the database lacks a migration this version has', async () => {
    const last = await direct('knex_migrations').orderBy('id', 'desc').first();
    await direct('knex_migrations').where({ id: last.id }).delete();
    try {
      const res = await api(app).get('/readyz').expect(503);
      expect(res.body).to.include({ status: 'not_ready', database: 'ok', pendingMigrations: 1 });
      expect(res.body.reasons).to.deep.equal(['migrations_pending']);
    } finally {
      await direct('knex_migrations').insert(last);
    }
    await api(app).get('/readyz').expect(200);
  });

  it('answers /readyz 503 database_unreachable at once while PostgreSQL is stopped; /healthz stays 200', async () => {
    await proxy.refuse();
    const { res, ms } = await timed(api(app).get('/readyz'));
    expect(res.status).to.equal(503);
    expect(res.body).to.include({ status: 'not_ready', database: 'unreachable', databaseError: 'connection_refused' });
    expect(res.body.reasons).to.deep.equal(['database_unreachable']);
    expect(ms).to.be.below(ANSWER_WITHIN_MS);
    await api(app).get('/healthz').expect(200);
    await proxy.resume();
    await api(app).get('/readyz').expect(200);
  });

  it('answers /readyz 503 database_timeout within seconds while PostgreSQL is frozen; /healthz stays 200', async () => {
    proxy.freeze();
    const { res, ms } = await timed(api(app).get('/readyz'));
    expect(res.status).to.equal(503);
    expect(res.body).to.include({ status: 'not_ready', database: 'timeout' });
    expect(res.body.reasons).to.deep.equal(['database_timeout']);
    expect(ms).to.be.below(ANSWER_WITHIN_MS);
    const alive = await timed(api(app).get('/healthz').expect(200));
    expect(alive.ms).to.be.below(1_000);
  });

  it("puts the request's id on the error line of a call that fails while PostgreSQL is stopped", async () => {
    await proxy.refuse();
    const requestId = `probe-${randomUUID()}`;
    const res = await api(app).get('/api/user/checkemail').set('X-Request-Id', requestId).query({ email: 'x@example.test' });
    expect(res.status).to.equal(503);
    expect(res.headers['x-request-id']).to.equal(requestId);
    const errorLines = written
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: number; msg: string; requestId?: string; err?: unknown })
      .filter((line) => line.level >= 50 && line.requestId === requestId);
    expect(errorLines.map((line) => line.msg)).to.include('request failed');
    expect(errorLines.find((line) => line.msg === 'request failed')!.err).to.be.an('object');
  });
});
