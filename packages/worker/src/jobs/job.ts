import type { Container } from 'inversify';
import type { Job } from 'pg-boss';
import type { Logger, QueueDefinition } from '@subshare/core';

/** One job: its queue (with the settings chosen for it in core) and a small handler that calls core. */
export interface JobDefinition<T extends object = object> {
  queue: QueueDefinition;
  /** How many jobs of this queue one worker process runs at once. */
  concurrency?: number;
  handle(job: Job<T>, context: { container: Container; logger: Logger }): Promise<unknown>;
}
