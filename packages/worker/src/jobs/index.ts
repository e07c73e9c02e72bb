/**
 * The job table: every job declared in core (JOB_DECLARATIONS) bound to its handler, each line
 * in the file of its area. Adding a job: declare it in its module's queues.ts, bind it here.
 */
import { JOB_DECLARATIONS, type JobDeclaration } from '@subshare/core';
import { ACCOUNT_HEALTH_JOBS } from './account-health.job.js';
import { ACTIVATION_JOBS } from './activate-order.job.js';
import { EMAIL_JOBS } from './deliver-email.job.js';
import { EXPIRY_JOBS } from './expiry.job.js';
import type { JobDefinition } from './job.js';
import { PAYMENT_JOBS } from './payments.job.js';
import { PRUNE_JOBS } from './prune.job.js';
import { RENEWAL_JOBS } from './renewals.job.js';
import { CREDIT_JOBS } from './credit.job.js';
import { REFERRAL_JOBS } from './referrals.job.js';

/**
 * The bound lines, in declaration order. Throws, so the worker does not start, when a declared
 * job has no handler, is bound twice, or a handler is bound to a queue nobody declared.
 */
export function jobTable(lines: readonly JobDefinition[], declarations: readonly JobDeclaration[] = JOB_DECLARATIONS): JobDefinition[] {
  const byName = new Map<string, JobDefinition>();
  for (const line of lines) {
    if (byName.has(line.queue.name)) throw new Error(`job ${line.queue.name} is bound twice`);
    if (!declarations.some((declaration) => declaration === line.queue))
      throw new Error(`job ${line.queue.name} is bound but not declared in JOB_DECLARATIONS`);
    byName.set(line.queue.name, line);
  }
  const table: JobDefinition[] = [];
  const unbound: string[] = [];
  for (const declaration of declarations) {
    const line = byName.get(declaration.name);
    if (line) table.push(line);
    else unbound.push(declaration.name);
  }
  if (unbound.length > 0) throw new Error(`declared jobs without a handler: ${unbound.join(', ')}`);
  return table;
}

/** Every job this worker runs. */
export const JOBS: JobDefinition[] = jobTable([
  ...PRUNE_JOBS,
  ...EMAIL_JOBS,
  ...ACTIVATION_JOBS,
  ...EXPIRY_JOBS,
  ...PAYMENT_JOBS,
  ...ACCOUNT_HEALTH_JOBS,
  ...RENEWAL_JOBS,
  ...CREDIT_JOBS,
  ...REFERRAL_JOBS,
]);
