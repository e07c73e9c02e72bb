/** The worker's job table refuses to start on a declared job without a handler, bound twice, or undeclared. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { JOB_DECLARATIONS, RENEWAL_QUEUES, type JobDeclaration } from '@subshare/core';
import { RENEWAL_HOLD_EXTRA_HOURS } from '@subshare/core/promises';
import { bindJob, JOBS, jobTable } from '@subshare/worker';

const handle = () => Promise.resolve(undefined);
const PACKAGES = fileURLToPath(new URL('../../packages/', import.meta.url));

describe('job table (worker/src/jobs/index.ts)', () => {
  it('binds every declared job once, in declaration order', () => {
    expect(JOBS.map((job) => job.queue.name)).to.deep.equal(JOB_DECLARATIONS.map((declaration) => declaration.name));
    expect(new Set(JOBS.map((job) => job.handle)).size, 'a handler per line (two queues may share one function)').to.be.greaterThan(1);
  });

  it('refuses a declared job without a handler', () => {
    expect(() => jobTable(JOBS.slice(1))).to.throw(`declared jobs without a handler: ${JOB_DECLARATIONS[0].name}`);
  });

  it('refuses a job bound twice', () => {
    expect(() => jobTable([...JOBS, JOBS[3]])).to.throw(`job ${JOBS[3].queue.name} is bound twice`);
  });

  it('refuses a handler for a queue nobody declared, even under a declared name', () => {
    const copy: JobDeclaration = { ...JOB_DECLARATIONS[0] };
    expect(() => jobTable([bindJob(copy, handle), ...JOBS.slice(1)])).to.throw(`job ${copy.name} is bound but not declared`);
  });

  it("holds a renewal slot past the last retry longer than the renewal pass's period (renewal-terms.ts HOLD_MS)", () => {
    const every = /^\*\/(\d+) \* \* \* \*$/.exec(RENEWAL_QUEUES.due.schedule);
    expect(every, `renewals-due runs on ${RENEWAL_QUEUES.due.schedule}, not every N minutes: update this test`).to.not.equal(null);
    expect(Number(every![1]) * 60_000).to.be.lessThan(RENEWAL_HOLD_EXTRA_HOURS * 3_600_000);
  });

  it('every declaration names its purpose and the file and method that do the work', () => {
    for (const declaration of JOB_DECLARATIONS) {
      expect(declaration.purpose, declaration.name).to.match(/^[A-Z].{10,}[^.]$/);
      expect(declaration.servedBy, declaration.name).to.match(/^core\/src\/\S+\.ts \w+/);
    }
  });

  it('every servedBy names a file that exists and defines the method (one hop, kept true when code moves)', () => {
    for (const declaration of JOB_DECLARATIONS) {
      for (const place of declaration.servedBy.split(', ')) {
        const [file, method] = place.split(' ');
        expect(readFileSync(`${PACKAGES}${file}`, 'utf8'), `${declaration.name}: ${place}`).to.match(new RegExp(`\\basync ${method}\\(`));
      }
    }
  });
});
