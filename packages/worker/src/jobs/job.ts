import type { Container } from 'inversify';
import type { Job } from 'pg-boss';
import type { JobDeclaration, Logger } from '@subshare/core';

/** What the worker needs of a queue to run it: a declaration's queue, policy, schedule and slots. */
export type RunnableQueue = Pick<JobDeclaration, 'name' | 'options' | 'schedule' | 'concurrency' | 'batched' | 'runAtStart'>;

export type JobHandler<T extends object = object> = (job: Job<T>, context: { container: Container; logger: Logger }) => Promise<unknown>;

/**
 * One line of the job table: a declared job (core, `modules/<module>/queues.ts`) and the small
 * handler that calls the core method its `servedBy` names.
 */
export interface JobDefinition<T extends object = object> {
  queue: RunnableQueue;
  // Method syntax on purpose: a line for one queue's data is a line of the table of all.
  handle(job: Job<T>, context: { container: Container; logger: Logger }): Promise<unknown>;
}

/** Binds a declared job to its handler: `bindJob(SUBSCRIPTION_QUEUES.endDue, (_job, { container }) => …)`. */
export function bindJob<T extends object = object>(declaration: JobDeclaration, handle: JobHandler<T>): JobDefinition<T> {
  return { queue: declaration, handle };
}
