import { expect } from 'chai';
import { closeKnex, createKnex, databaseFailure } from '@subshare/core';
import { harness } from '../support/harness.js';
import { startTcpProxy } from '../support/tcp-proxy.js';

/**
 * The request pool tells a busy database from a stalled one (issue 16: a burst of a thousand
 * buyers was answered 503 "database unavailable" by a healthy database whose pool was merely
 * full for longer than DATABASE_ACQUIRE_TIMEOUT_MS).
 */
describe('the bounded pool: busy is waited for, stalled is a fast failure', function () {
  this.timeout(60_000);

  it('a queue longer than the acquire timeout is served while statements keep finishing', async () => {
    // Two connections, 24 statements of 250 ms: the last waits 2.75 s for its turn, more than 1 s.
    const knex = createKnex(harness().db.url, { max: 2, bounds: { statementTimeoutMs: 5_000, acquireTimeoutMs: 1_000 } });
    try {
      const results = await Promise.allSettled(Array.from({ length: 24 }, () => knex.raw('select pg_sleep(0.25)').then((result) => result)));
      expect(results.filter((result) => result.status === 'rejected').map((result) => (result as PromiseRejectedResult).reason.message)).to.deep.equal([]);
    } finally {
      await closeKnex(knex);
    }
  });

  it('callers waiting on a frozen database are told within about the acquire timeout', async () => {
    const { hostname, port } = new URL(harness().db.url);
    const proxy = await startTcpProxy(hostname, Number(port));
    const knex = createKnex(proxy.urlFor(harness().db.url), { max: 2, bounds: { statementTimeoutMs: 20_000, acquireTimeoutMs: 1_000 } });
    try {
      await knex.raw('select 1');
      proxy.freeze();
      const started = Date.now();
      // Two statements hold both connections (frozen, they would wait out the 20-s statement timeout); the rest wait for a connection.
      // knex runs a statement when it is awaited: `.then` sends all six now, in order.
      const statements = Array.from({ length: 6 }, () => knex.raw('select 1').then((result) => result));
      const waiting = await Promise.allSettled(statements.slice(2));
      const waited = Date.now() - started;
      for (const result of waiting) {
        expect(result.status).to.equal('rejected');
        expect(databaseFailure((result as PromiseRejectedResult).reason)).to.equal('timeout');
      }
      // The limit is the point: told after about the 1-s acquire timeout, long before the 20-s wait for a busy pool.
      expect(waited, 'ms until every waiting caller had its answer').to.be.below(5_000);
      await proxy.resume();
      await Promise.allSettled(statements.slice(0, 2));
    } finally {
      await proxy.resume();
      await closeKnex(knex);
      await proxy.close();
    }
  });

  it('a statement that gets no answer ends its connection: the rollback after it does not wait again', async () => {
    const { hostname, port } = new URL(harness().db.url);
    const proxy = await startTcpProxy(hostname, Number(port));
    // Read timeout: 0.5 s of statement timeout plus the client's margin.
    const knex = createKnex(proxy.urlFor(harness().db.url), { max: 2, bounds: { statementTimeoutMs: 500, acquireTimeoutMs: 1_000 } });
    const errors: string[] = [];
    knex.on('query-error', (error: Error) => errors.push(error.message));
    try {
      await knex.raw('select 1');
      const failed = await knex
        .transaction(async (trx) => {
          await trx.raw('select 1');
          proxy.freeze();
          await trx.raw('select 2');
        })
        .then(
          () => false,
          () => true,
        );
      expect(failed, 'the transaction failed').to.equal(true);
      // Left waiting for the frozen answer, the connection would have made the ROLLBACK wait out a read timeout of its own.
      expect(errors).to.have.length(2);
      expect(errors[0]).to.equal('select 2 - Query read timeout');
      expect(errors[1])
        .to.match(/^ROLLBACK - /)
        .and.not.match(/Query read timeout/);
      await proxy.resume();
      // The cut connection is dropped, not handed out again.
      expect((await knex.raw<{ rows: unknown[] }>('select 3 as n')).rows).to.deep.equal([{ n: 3 }]);
    } finally {
      await proxy.resume();
      await closeKnex(knex);
      await proxy.close();
    }
  });
});
