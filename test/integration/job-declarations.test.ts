/**
 * The job declarations (core, JOB_DECLARATIONS) are what pg-boss runs: once the worker has started,
 * pg-boss's own API (getQueues, getSchedules) shows every declared queue with its declared policy,
 * and every declared schedule, and nothing the declarations do not name.
 */
import { expect } from 'chai';
import { JOB_DECLARATIONS } from '@subshare/core';
import { JOBS } from '@subshare/worker';
import { harness, useWorker } from '../support/harness.js';

describe('job declarations (JOB_DECLARATIONS) and pg-boss after the worker starts', () => {
  useWorker();

  it('pg-boss holds every declared queue with its declared options, and their dead letters', async () => {
    const queues = await harness().boss.getQueues();
    const byName = new Map(queues.map((queue) => [queue.name, queue]));
    for (const declaration of JOB_DECLARATIONS) {
      const queue = byName.get(declaration.name);
      expect(queue, declaration.name).to.not.equal(undefined);
      for (const [option, value] of Object.entries(declaration.options)) {
        expect((queue as unknown as Record<string, unknown>)[option], `${declaration.name} ${option}`).to.deep.equal(value);
      }
    }
    const deadLetters = JOB_DECLARATIONS.flatMap((declaration) => (declaration.options.deadLetter ? [declaration.options.deadLetter] : []));
    expect([...byName.keys()].sort()).to.deep.equal([...new Set([...JOB_DECLARATIONS.map((declaration) => declaration.name), ...deadLetters])].sort());
  });

  it('pg-boss holds the declared schedules (UTC) and no other', async () => {
    const schedules = await harness().boss.getSchedules();
    const held = schedules.map((schedule) => `${schedule.name} ${schedule.cron} ${schedule.timezone}`).sort();
    const declared = JOB_DECLARATIONS.flatMap((declaration) => (declaration.schedule ? [`${declaration.name} ${declaration.schedule} UTC`] : [])).sort();
    expect(held).to.deep.equal(declared);
  });

  it('the worker runs one line per declaration, each bound to its declaration', () => {
    expect(JOBS.map((job) => job.queue)).to.deep.equal([...JOB_DECLARATIONS]);
    for (const [index, job] of JOBS.entries()) expect(job.queue, job.queue.name).to.equal(JOB_DECLARATIONS[index]);
  });
});
