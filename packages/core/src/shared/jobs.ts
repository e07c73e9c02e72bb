/**
 * The JobQueue port: how core asks for work to be done later, by a worker. The adapter is
 * pg-boss on the same database, so a job sent with `trx` is committed (or rolled back)
 * together with the write that caused it.
 */
import { fromKnex, PgBoss, type Queue } from 'pg-boss';
import type { Knex } from 'knex';
import { databaseFailure } from './errors.js';
import { isStopping } from './process-stop.js';
import type { Logger } from './logger.js';
import { currentRequestId, JOB_REQUEST_ID_KEY } from './request-context.js';

export interface SendJobOptions {
  /** Enqueue inside this transaction: the job exists only if the transaction commits. */
  trx?: Knex.Transaction;
  /** At most one queued job with this key (for queues with a singleton-style policy). */
  singletonKey?: string;
  startAfter?: Date | number;
}

export interface JobQueue {
  send(queue: string, data: object, options?: SendJobOptions): Promise<string | null>;
  /** Jobs per queue and state, for every queue there is (0 for a state with none). */
  counts(): Promise<JobCount[]>;
}

/** A queue and the settings chosen for it on purpose; created explicitly at start. */
export interface QueueDefinition {
  name: string;
  options: Omit<Queue, 'name'>;
  /** Cron expression (UTC) when the queue is fed by a schedule rather than by events. */
  schedule?: string;
}

/**
 * A job, declared once (like a call in wire/calls/): its queue and policy, its schedule, what it
 * is for, where the work is done, and how a worker runs it. The module that sends to the queue
 * owns the declaration (`modules/<module>/queues.ts`); `JOB_DECLARATIONS` (core/src/jobs.ts)
 * lists them all; the worker binds one handler to each (worker/src/jobs/) and refuses to start
 * when one has none or two; docs/jobs.md is generated from them.
 */
export interface JobDeclaration extends QueueDefinition {
  /** One line: what a run of the job does. */
  purpose: string;
  /** The file that does the work, and its method (`core/src/flows/expiry.flow.ts endDue`): one hop. */
  servedBy: string;
  /** How many jobs of this queue one worker process runs at once (1 unless set). */
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
}

export const PG_BOSS_SCHEMA = 'pgboss';

export interface PgBossOptions {
  schema?: string;
  /** Maintenance and schedules: workers do them; HTTP-only processes just send. */
  supervise?: boolean;
  /**
   * Hold a LISTEN connection so that this process's workers start a job the moment it is sent
   * (pg-boss wakes them on the NOTIFY its insert makes) instead of at their next poll, up to 2 s
   * later. Defaults to `supervise`: the processes that run workers; a sender needs no listener.
   */
  listen?: boolean;
  logger?: Logger;
}

/** How long after PostgreSQL's "shutting down" a signal to this process still counts as the same stop. */
const SIGNAL_GRACE_MS = 500;

export function createPgBoss(connectionString: string, options: PgBossOptions = {}): PgBoss {
  const supervise = options.supervise ?? true;
  const boss = new PgBoss({
    connectionString,
    schema: options.schema ?? PG_BOSS_SCHEMA,
    application_name: 'subshare-jobs',
    max: 4,
    supervise,
    superviseIntervalSeconds: SUPERVISE_INTERVAL_SECONDS,
    schedule: supervise,
    useListenNotify: options.listen ?? supervise,
  });
  // While PostgreSQL is down pg-boss reports every failed poll here and keeps polling: it needs no
  // restart when the database is back (test/e2e-api/database-outage.test.ts). Its errors carry the
  // whole pg client object, so only what says what went wrong is logged.
  // PostgreSQL ending the queue's sessions (57P01) while this process stops is the stop going as
  // planned: Ctrl+C signals PostgreSQL and us at once, and its goodbye can arrive a moment before
  // our own signal does. So that report waits a moment and is dropped if we are stopping by then.
  boss.on('error', (error: unknown) => {
    const { name, message, code } = (error ?? {}) as { name?: string; message?: string; code?: string };
    const database = databaseFailure(error);
    const report = () => {
      if (database && isStopping()) options.logger?.debug({ database }, 'job queue: a database session ended while stopping');
      else options.logger?.error({ err: { type: name, message, code }, database }, 'job queue error');
    };
    if (database === 'shutting_down' && !isStopping()) setTimeout(report, SIGNAL_GRACE_MS).unref();
    else report();
  });
  // E.g. the LISTEN connection could not be made (a pooler in transaction mode): jobs still run, at the next poll.
  boss.on('warning', (warning: { message?: string }) => options.logger?.warn({ warning: warning?.message }, 'job queue warning'));
  return boss;
}

export class PgBossJobQueue implements JobQueue {
  constructor(private readonly boss: PgBoss) {}

  async send(queue: string, data: object, options: SendJobOptions = {}): Promise<string | null> {
    // The job carries the id of the request (or job) that sent it; the worker logs under it again.
    const requestId = currentRequestId();
    return this.boss.send(queue, requestId === undefined ? data : { [JOB_REQUEST_ID_KEY]: requestId, ...data }, {
      singletonKey: options.singletonKey,
      startAfter: options.startAfter,
      // pg-boss's own knex adapter: its statements run on the caller's transaction.
      ...(options.trx ? { db: fromKnex(options.trx) } : {}),
    });
  }

  /**
   * pg-boss's `getQueueStats` with `force`: counted from its job table at most a minute ago (pg-boss
   * keeps a fresh count that long, so frequent scrapes do not each count the table again).
   * `created` is pg-boss's queued count (waiting, retries included), `failed` what gave up after
   * its retries and is still kept (the queue's deleteAfterSeconds).
   */
  async counts(): Promise<JobCount[]> {
    const counts: JobCount[] = [];
    const queues = (await this.boss.getQueues()).map((queue) => queue.name).sort();
    for (const queue of queues) {
      const [stats] = await this.boss.getQueueStats(queue, { force: true });
      counts.push(
        { queue, state: 'created', count: stats?.queuedCount ?? 0 },
        { queue, state: 'active', count: stats?.activeCount ?? 0 },
        { queue, state: 'failed', count: stats?.failedCount ?? 0 },
      );
    }
    return counts;
  }
}

/**
 * A running job reports in this often (pg-boss's heartbeat, from the worker's pool): a job whose
 * worker died (SIGKILL, a lost machine) is failed by the next supervision after this many
 * seconds without a beat and retried, instead of waiting out its whole `expireInSeconds`.
 */
export const JOB_HEARTBEAT_SECONDS = 10;

/** How often a supervising process fails jobs whose heartbeat stopped or whose time ran out (pg-boss's default: 60 s). */
const SUPERVISE_INTERVAL_SECONDS = 10;

/** What every queue has unless its definition says otherwise. */
const QUEUE_DEFAULTS = { notify: true, heartbeatSeconds: JOB_HEARTBEAT_SECONDS } as const;

/**
 * Creates every queue (and its dead-letter queue) so that send and work never meet a missing one.
 * Every queue notifies: a job's insert wakes the listening workers (createPgBoss `listen`) in the
 * same commit; and every running job beats (JOB_HEARTBEAT_SECONDS). A queue created before
 * either (an older database) is brought up to date here.
 */
export async function createQueues(boss: PgBoss, definitions: readonly QueueDefinition[]): Promise<void> {
  for (const definition of definitions) {
    if (definition.options.deadLetter) {
      await boss.createQueue(definition.options.deadLetter, { retentionSeconds: 30 * 24 * 3600 });
    }
    const wanted = { ...QUEUE_DEFAULTS, ...definition.options };
    await boss.createQueue(definition.name, wanted);
    const created = await boss.getQueue(definition.name);
    if (created && (created.notify !== wanted.notify || (created.heartbeatSeconds ?? null) !== wanted.heartbeatSeconds)) {
      await boss.updateQueue(definition.name, { notify: wanted.notify, heartbeatSeconds: wanted.heartbeatSeconds });
    }
  }
}

/** Jobs in one queue and state, as pg-boss counts them (`failed`: gave up after its retries). */
export interface JobCount {
  queue: string;
  state: 'created' | 'active' | 'failed';
  count: number;
}
