/**
 * The worker process: subscribes a handler to every queue, sets the schedules, and reports
 * a heartbeat. Handlers must be safe to run twice: pg-boss retries a job whose worker died.
 */
import { randomUUID } from 'node:crypto';
import type { Container } from 'inversify';
import type { Job, JobResult, PgBoss } from 'pg-boss';
import { databaseFailure, isStopping, isValidRequestId, JOB_REQUEST_ID_KEY, runWithRequestId, TOKENS, type Logger, OperationsService } from '@subshare/core';
import { JOBS } from './jobs/index.js';
import type { JobDefinition } from './jobs/job.js';

export interface WorkerHandle {
  id: string;
  stop(): Promise<void>;
}

const HEARTBEAT_MS = 30_000;

export interface WorkerOptions {
  /**
   * How often each queue is polled besides its NOTIFYs, in seconds: the backstop for jobs that
   * become due later (retries, startAfter), which no NOTIFY announces. pg-boss's own is 30 s.
   */
  pollSeconds?: number;
}

/** What a failed job of a batch keeps as its output (pg-boss's own for a thrown error: its message and name). */
function failureOutput(error: unknown): { name?: string; message: string } {
  return error instanceof Error ? { name: error.name, message: error.message } : { message: String(error) };
}

export async function startWorker(boss: PgBoss, container: Container, jobs: JobDefinition[] = JOBS, options: WorkerOptions = {}): Promise<WorkerHandle> {
  const logger = container.get<Logger>(TOKENS.Logger).child({ component: 'worker' });
  const operations = container.get(OperationsService);
  const id = randomUUID();
  const startedAt = new Date();

  for (const job of jobs) {
    const { name, schedule } = job.queue;
    // A sent job wakes the worker at once (createPgBoss `listen`, queues with `notify`); the poll
    // stays at 2 s rather than pg-boss's 30-s backstop.
    const pollSeconds = options.pollSeconds ?? 2;
    const polling = { pollingIntervalSeconds: pollSeconds, notifyPollingIntervalSeconds: pollSeconds };
    const handle = async (received: Job<object>) => {
      const jobLogger = logger.child({ queue: name, jobId: received.id });
      const run = async () => {
        try {
          const started = Date.now();
          const result = await job.handle(received, { container, logger: jobLogger });
          jobLogger.debug({ ms: Date.now() - started }, 'job done');
          return result;
        } catch (error) {
          // A job cut short because the database stops with this process is retried like any failure, without alarm.
          if (isStopping() && databaseFailure(error)) jobLogger.info({ database: databaseFailure(error) }, 'job cut short by the stop; pg-boss will retry it');
          else jobLogger.error({ err: error }, 'job failed; pg-boss will retry it if retries remain');
          throw error;
        }
      };
      // A job sent by a request runs under that request's id: its log lines, and the jobs it sends,
      // carry it. Any other job runs under none, whatever context woke pg-boss's loop.
      const requestId = (received.data as Record<string, unknown> | null)?.[JOB_REQUEST_ID_KEY];
      return runWithRequestId(isValidRequestId(requestId) ? requestId : undefined, run);
    };
    // A backlog is worked through at once. pg-boss waits out its poll after a batch unless a NOTIFY
    // came meanwhile, so a backlog built in a rush (a burst of paid orders, whose activations take
    // turns on their platform's claim lock) would run one batch per fetcher every poll once the
    // rush's NOTIFYs stopped. A fetcher of one job is told after every job to fetch again at once;
    // a fetch that finds nothing ends it (back to the poll: an empty queue is not fetched in a loop).
    const fetchAgainAfter = async <T>(self: { workerId?: string }, work: () => Promise<T>): Promise<T> => {
      try {
        return await work();
      } finally {
        if (self.workerId) boss.notifyWorker(self.workerId);
      }
    };
    const slots = job.queue.concurrency ?? 1;
    if (job.queue.batched && slots > 1) {
      // One fetcher taking up to `slots` jobs; each job is settled on its own (a failed one is retried
      // alone). It fetches again at once only after a full batch (pg-boss's burstWhenBatchFull): a
      // batch that came back short found the queue empty, and a job sent since has woken it with its
      // NOTIFY. Fetching again after every batch, as a fetcher of one job does, cost an empty fetch
      // per batch in steady traffic (bench:journey: 5 % more orders a second without it).
      await boss.work<object>(name, { batchSize: slots, perJobResults: true, burstWhenBatchFull: true, ...polling }, (batch) =>
        Promise.all(
          batch.map(async (received): Promise<JobResult> => {
            try {
              return { id: received.id, status: 'completed', output: await handle(received) };
            } catch (error) {
              return { id: received.id, status: 'failed', output: failureOutput(error) };
            }
          }),
        ),
      );
    } else {
      // One fetcher per slot.
      for (let slot = 0; slot < slots; slot += 1) {
        // Known once work() answers; pg-boss's first fetch cannot bring a job before that.
        const self: { workerId?: string } = {};
        self.workerId = await boss.work<object>(name, { batchSize: 1, ...polling }, ([received]) => fetchAgainAfter(self, () => handle(received)));
      }
    }
    if (schedule) await boss.schedule(name, schedule, {}, { tz: 'UTC' });
    if (job.queue.runAtStart) await boss.send(name, {});
  }

  const beat = () => operations.recordHeartbeat(id, startedAt).catch((error: unknown) => logger.warn({ err: error }, 'heartbeat failed'));
  await beat();
  const timer = setInterval(beat, HEARTBEAT_MS);
  timer.unref();
  logger.info({ queues: jobs.map((job) => job.queue.name) }, 'worker started');

  return {
    id,
    async stop() {
      clearInterval(timer);
      await Promise.all(jobs.map((job) => boss.offWork(job.queue.name, { wait: true }).catch(() => undefined)));
    },
  };
}
