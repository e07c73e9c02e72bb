import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { PgBoss } from 'pg-boss';
import { createPgBoss, createQueues, PgBossJobQueue } from '@subshare/core';
import { harness } from '../support/harness.js';
import { waitFor } from '../support/wait.js';

/**
 * A job sent by one process (an HTTP server: no listener) starts in a worker process (listening)
 * at once, not at the worker's next poll: the queues notify, and the worker's pg-boss holds a
 * LISTEN connection. The worker here polls only every 30 s, so a job handled within 3 s was
 * woken by the NOTIFY of its commit.
 */
describe('job pickup: a sent job wakes a listening worker', function () {
  this.timeout(30_000);
  const schema = `pickup_test_${randomUUID().slice(0, 8)}`;
  const queue = 'pickup-probe';
  let sender: PgBoss;
  let worker: PgBoss;
  const handled = new Map<string, number>();

  before(async () => {
    sender = createPgBoss(harness().db.url, { schema, supervise: false });
    await sender.start();
    // A queue made before queues notified (an older database): createQueues switches it on.
    await sender.createQueue(queue, { retryLimit: 0 });
    expect((await sender.getQueue(queue))?.notify).to.equal(false);
    await createQueues(sender, [{ name: queue, options: { retryLimit: 0 } }]);
    expect((await sender.getQueue(queue))?.notify).to.equal(true);

    worker = createPgBoss(harness().db.url, { schema, supervise: false, listen: true });
    await worker.start();
    await worker.work<{ marker: string }>(queue, { pollingIntervalSeconds: 30, notifyPollingIntervalSeconds: 30 }, async ([job]) => {
      handled.set(job.data.marker, Date.now());
    });
  });

  after(async () => {
    await worker.stop({ graceful: false, timeout: 2_000 });
    await sender.stop({ graceful: false, timeout: 2_000 });
    await harness().knex.raw(`drop schema if exists "${schema}" cascade`);
  });

  it('starts each job within 3 s of its commit although the next poll is 30 s away', async () => {
    const jobs = new PgBossJobQueue(sender);
    // The worker's first fetch runs at once; the jobs below come after it, while it idles.
    const first = `first-${randomUUID()}`;
    await jobs.send(queue, { marker: first });
    await waitFor(() => handled.has(first), { what: 'the first job', timeoutMs: 35_000 });

    for (let round = 0; round < 3; round += 1) {
      const marker = `job-${round}-${randomUUID()}`;
      // Sent as the flows send: inside the transaction of the write that causes it.
      await harness().knex.transaction((trx) => jobs.send(queue, { marker }, { trx }));
      const sentAt = Date.now();
      await waitFor(() => handled.has(marker), { what: `job ${round} to start`, timeoutMs: 3_000, intervalMs: 10 });
      expect(handled.get(marker)! - sentAt).to.be.below(3_000);
    }
  });
});
