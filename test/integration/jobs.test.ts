import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { PgBoss } from 'pg-boss';
import { createQueues, PgBossJobQueue } from '@subshare/core';
import { harness } from '../support/harness.js';
import { waitFor } from '../support/wait.js';

/** Jobs commit with the data: a job sent in a transaction exists only if the transaction commits. */
describe('job queue (pg-boss) inside knex transactions', () => {
  const schema = `jobs_test_${randomUUID().slice(0, 8)}`;
  const queue = 'transactional-probe';
  let boss: PgBoss;
  const handled: string[] = [];

  before(async () => {
    boss = new PgBoss({ connectionString: harness().db.url, schema, supervise: false, schedule: false });
    await boss.start();
    await createQueues(boss, [{ name: queue, options: { retryLimit: 0 } }]);
    await boss.work<{ marker: string }>(queue, { pollingIntervalSeconds: 0.5 }, async ([job]) => {
      handled.push(job.data.marker);
    });
  });

  after(async () => {
    await boss.stop({ graceful: false, timeout: 2_000 });
    await harness().knex.raw(`drop schema if exists "${schema}" cascade`);
  });

  it('runs a job sent inside a transaction once it commits, and never when it rolls back', async () => {
    const jobs = new PgBossJobQueue(boss);
    const committed = `commit-${randomUUID()}`;
    const rolledBack = `rollback-${randomUUID()}`;

    await harness()
      .knex.transaction(async (trx) => {
        await jobs.send(queue, { marker: rolledBack }, { trx });
        throw new Error('roll back on purpose');
      })
      .catch((error: Error) => expect(error.message).to.equal('roll back on purpose'));

    let sentId: string | null = null;
    await harness().knex.transaction(async (trx) => {
      sentId = await jobs.send(queue, { marker: committed }, { trx });
      // Not visible to pg-boss until the transaction commits.
      const outside = await harness().knex.raw(`select count(*)::int as n from "${schema}".job where id = ?`, [sentId]);
      expect(outside.rows[0].n).to.equal(0);
    });
    expect(sentId).to.be.a('string');

    await waitFor(() => handled.includes(committed), { what: 'the committed job to run' });
    // The rolled-back job was never stored, so it can never run.
    const stored = await harness().knex.raw(`select data->>'marker' as marker from "${schema}".job where name = ?`, [queue]);
    expect(stored.rows.map((row: { marker: string }) => row.marker)).to.deep.equal([committed]);
    expect(handled).to.not.include(rolledBack);
  });
});
