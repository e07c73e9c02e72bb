import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { PgBoss } from 'pg-boss';
import { createPgBoss, createQueues, PgBossJobQueue } from '@subshare/core';
import { startWorker, type WorkerHandle } from '@subshare/worker';
import { harness } from '../support/harness.js';
import { waitFor } from '../support/wait.js';

/**
 * A backlog is worked through at once, not one job per poll. pg-boss wakes a worker for a
 * NOTIFY, and after each job it waits out its poll unless another NOTIFY came: when jobs came
 * faster than they ran (a rush of paid orders, whose activations take turns on the platform's
 * claim lock), the rest waited 2 s per job and worker slot once the rush's NOTIFYs stopped
 * (bench:journey: 365 orders sent in 10 s, the last active 38 s later). Here the worker polls
 * once an hour, so every job past the first few can only start because the worker keeps
 * fetching while fetches bring jobs (a full batch, for the fetcher that takes batches).
 */
for (const batched of [false, true]) {
  describe(`worker: a backlog is drained without waiting for the poll (${batched ? 'one fetcher taking batches' : 'a fetcher per slot'})`, function () {
    this.timeout(30_000);
    const schema = `backlog_test_${randomUUID().slice(0, 8)}`;
    const queue = 'backlog-probe';
    const JOBS = 12;
    let sender: PgBoss;
    let boss: PgBoss;
    let worker: WorkerHandle | undefined;
    const handled: string[] = [];
    const attempts = new Map<string, number>();
    let running = 0;
    let mostAtOnce = 0;

    before(async () => {
      sender = createPgBoss(harness().db.url, { schema, supervise: false });
      await sender.start();
      await createQueues(sender, [{ name: queue, options: { retryLimit: 1, retryDelay: 0 } }]);
      boss = createPgBoss(harness().db.url, { schema, supervise: false, listen: true });
      await boss.start();
      worker = await startWorker(
        boss,
        harness().container,
        [
          {
            queue: { name: queue, options: { retryLimit: 1, retryDelay: 0 }, concurrency: 2, batched },
            async handle(job) {
              const { marker } = job.data as { marker: string };
              attempts.set(marker, (attempts.get(marker) ?? 0) + 1);
              running += 1;
              mostAtOnce = Math.max(mostAtOnce, running);
              // Long enough that the jobs of the one commit below are all waiting while these run.
              await new Promise((resolve) => setTimeout(resolve, 20));
              running -= 1;
              // A job marked to fail does so on its first attempt only: it alone is tried again.
              if (marker.startsWith('fails-once') && attempts.get(marker) === 1) throw new Error('first attempt fails');
              handled.push(marker);
            },
          },
        ],
        { pollSeconds: 3600 },
      );
    });

    after(async () => {
      await worker?.stop();
      await boss?.stop({ graceful: false, timeout: 2_000 });
      await sender?.stop({ graceful: false, timeout: 2_000 });
      await harness().knex.raw(`drop schema if exists "${schema}" cascade`);
    });

    it('runs every job of a burst committed at once, two at a time, with the next poll an hour away; a failed one is retried alone', async () => {
      const jobs = new PgBossJobQueue(sender);
      const markers = Array.from({ length: JOBS }, (_, index) => `${index === 5 ? 'fails-once' : 'job'}-${index}-${randomUUID()}`);
      // One commit, so one NOTIFY (PostgreSQL folds equal notifications of a transaction).
      await harness().knex.transaction(async (trx) => {
        for (const marker of markers) await jobs.send(queue, { marker }, { trx });
      });
      await waitFor(() => handled.length === JOBS, { what: `all ${JOBS} jobs`, timeoutMs: 20_000 });
      expect([...handled].sort()).to.deep.equal([...markers].sort());
      expect(mostAtOnce).to.equal(2);
      expect([...attempts.entries()].filter(([, count]) => count > 1).map(([marker]) => marker)).to.deep.equal([markers[5]]);
      // A handler's return is not yet its job's settlement: pg-boss writes that afterwards, for a whole
      // batch at once when batched. Wait until nothing is left to settle, then every job is completed.
      const states = async () =>
        (await harness().knex.raw(`select state, count(*)::int as n from "${schema}".job where name = ? group by state`, [queue])).rows;
      await waitFor(async () => (await states()).every((row: { state: string }) => !['created', 'retry', 'active'].includes(row.state)), {
        what: 'every job settled',
      });
      expect(await states()).to.deep.equal([{ state: 'completed', n: JOBS }]);
    });
  });
}
