import type { Container } from 'inversify';
import type { Job } from 'pg-boss';
import type { Logger, QueueDefinition } from '@subshare/core';

/** One job: its queue (with the settings chosen for it in core) and a small handler that calls core. */
export interface JobDefinition<T extends object = object> {
  queue: QueueDefinition;
  /** How many jobs of this queue one worker process runs at once. */
  concurrency?: number;
  /**
   * Fetch up to `concurrency` jobs at a time with one statement and run them together, instead of
   * one fetcher per slot. Every job sent wakes every idle fetcher of its queue, so N slots cost N
   * fetches per job when the queue is quiet; for short jobs on a busy queue (an activation is one
   * transaction) one fetcher is enough. A batch holds its slots until its last job ends, so jobs
   * that may wait long (on an SMTP server) keep a fetcher per slot.
   */
  batched?: boolean;
  /** Also run once when the worker starts, not only on the schedule (singleton queues: once for workers starting together). */
  runAtStart?: boolean;
  handle(job: Job<T>, context: { container: Container; logger: Logger }): Promise<unknown>;
}
