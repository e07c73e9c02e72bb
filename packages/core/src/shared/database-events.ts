/**
 * PostgreSQL LISTEN/NOTIFY and session advisory locks for a cluster of processes: how one process
 * tells the others that something changed (the catalog, a mailbox read), and how one process of
 * the cluster holds a piece of work (a mailbox's IMAP watch) while it lives.
 *
 * One dedicated connection per process, outside the knex pool (a pooled connection goes back to
 * the pool between queries, and LISTEN and session locks belong to a session). It is opened on
 * first use, with a connect timeout and TCP keepalive, and while it is open a heartbeat query
 * (every `heartbeatMs`, bounded like every query on it) finds a connection that went silent: a
 * listener alone sends nothing, and TCP keepalive takes many minutes to give up on a lost peer.
 *
 * When the connection is lost (server restart, pg_terminate_backend, network), every session lock
 * is gone with it: the `onSessionLost` handlers are called at once, so their owners stop what the
 * lock guarded. While anyone listens, the connection is opened again with backoff; once it is back
 * every channel is listened to again and each listener's `onReconnect` is called, because events
 * sent while it was away are lost (PostgreSQL keeps none for an absent listener): a listener
 * re-reads what it caches.
 *
 * `notify` goes through the pool (or the caller's transaction, so the event fires on commit and
 * never for a rolled-back write). Payloads are at most 8000 bytes and are visible to whoever can
 * LISTEN on the database: never put a secret in one unencrypted.
 */
import pg from 'pg';
import type { Knex } from 'knex';
import type { Logger } from './logger.js';

export type DatabaseEventHandler = (payload: string) => void;
/** Stops one `listen`; the channel is unlistened once its last handler is gone. */
export type Unsubscribe = () => void;

export interface ListenOptions {
  /** Called after the connection came back: events sent while it was away were missed. */
  onReconnect?: () => void;
}

export interface DatabaseEventsOptions {
  connectionString: string;
  /** The pool, for `notify` outside a transaction. */
  knex: Knex;
  logger: Logger;
  /** Giving up on opening the connection (and on one of its queries answering), ms. Default 3000. */
  timeoutMs?: number;
  /** The first pause before re-connecting, doubled after each failure up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** How often an open connection is asked `select 1`, ms. Default 30000. */
  heartbeatMs?: number;
}

/** A channel name as LISTEN takes it unquoted. */
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

interface Listener {
  channel: string;
  handler: DatabaseEventHandler;
  onReconnect?: () => void;
}

export class DatabaseEvents {
  private client?: pg.Client;
  private connecting?: Promise<pg.Client | undefined>;
  private readonly listeners = new Set<Listener>();
  private readonly listened = new Set<string>();
  private readonly lostHandlers = new Set<() => void>();
  private retryTimer?: NodeJS.Timeout;
  private heartbeat?: NodeJS.Timeout;
  private failures = 0;
  /** Whether a connection was ever open: the next one is then a re-connection. */
  private wasConnected = false;
  private closed = false;
  /** Queries on the connection run one after the other (pg deprecates overlapping ones). */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly timeoutMs: number;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly heartbeatMs: number;

  constructor(private readonly options: DatabaseEventsOptions) {
    this.timeoutMs = options.timeoutMs ?? 3_000;
    this.backoffMs = options.backoffMs ?? 100;
    this.maxBackoffMs = options.maxBackoffMs ?? 5_000;
    this.heartbeatMs = options.heartbeatMs ?? 30_000;
  }

  /** Whether the dedicated connection is open now. */
  get connected(): boolean {
    return this.client !== undefined;
  }

  /** Whether events on `channel` are being received now (the LISTEN is in effect on an open connection). */
  listening(channel: string): boolean {
    return this.client !== undefined && this.listened.has(channel);
  }

  /**
   * Calls `handler` with the payload of every NOTIFY on `channel` (from any process, this one
   * included). Resolves once the LISTEN is in effect, or once opening the connection failed: the
   * subscription then stays, is renewed when the connection comes back, and `onReconnect` is called.
   */
  async listen(channel: string, handler: DatabaseEventHandler, options: ListenOptions = {}): Promise<Unsubscribe> {
    if (!CHANNEL.test(channel)) throw new RangeError(`Not a channel name: ${channel}`);
    if (this.closed) throw new Error('The database events connection is closed.');
    const listener: Listener = { channel, handler, onReconnect: options.onReconnect };
    this.listeners.add(listener);
    const client = await this.ensure();
    if (client && !this.listened.has(channel)) {
      await this.run(client, `listen ${channel}`).then(
        () => this.listened.add(channel),
        (error: unknown) => this.options.logger.warn({ err: error, channel }, 'database events: listen failed'),
      );
    }
    return () => {
      if (!this.listeners.delete(listener)) return;
      if ([...this.listeners].some((other) => other.channel === channel)) return;
      this.listened.delete(channel);
      const current = this.client;
      if (current) void this.run(current, `unlisten ${channel}`).catch(() => undefined);
    };
  }

  /** Sends an event; inside `trx` it is sent by that transaction, when (and only if) it commits. */
  async notify(channel: string, payload: string, trx?: Knex.Transaction): Promise<void> {
    if (!CHANNEL.test(channel)) throw new RangeError(`Not a channel name: ${channel}`);
    await (trx ?? this.options.knex).raw('select pg_notify(?, ?)', [channel, payload]);
  }

  /**
   * Takes the session advisory lock (namespace, id) on the dedicated connection without waiting;
   * false when another session holds it or the connection cannot be opened. The two-number form
   * keeps these apart from the single-number locks (migrations, demo catalog). Held until
   * `releaseSessionLock` or the connection's loss (see `onSessionLost`).
   */
  async trySessionLock(namespace: number, id: number): Promise<boolean> {
    const client = await this.ensure();
    if (!client) return false;
    try {
      const result = await this.run<{ locked: boolean }>(client, 'select pg_try_advisory_lock($1::int, $2::int) as locked', [namespace, id]);
      return result.rows[0]?.locked === true;
    } catch (error) {
      this.options.logger.warn({ err: error }, 'database events: taking a session lock failed');
      return false;
    }
  }

  /** Gives a session lock back (nothing when the connection is gone: so is the lock). */
  async releaseSessionLock(namespace: number, id: number): Promise<void> {
    const client = this.client;
    if (!client) return;
    await this.run(client, 'select pg_advisory_unlock($1::int, $2::int)', [namespace, id]).catch((error: unknown) =>
      this.options.logger.warn({ err: error }, 'database events: releasing a session lock failed'),
    );
  }

  /** `handler` is called when the connection is lost, with every session lock it held. */
  onSessionLost(handler: () => void): Unsubscribe {
    this.lostHandlers.add(handler);
    return () => {
      this.lostHandlers.delete(handler);
    };
  }

  /** Ends the connection for good (process shutdown); later calls find it closed. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.listeners.clear();
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    if (client) await client.end().catch(() => undefined);
  }

  /** The open connection, opening it now when there is none (undefined when that fails). */
  private ensure(): Promise<pg.Client | undefined> {
    if (this.closed) return Promise.resolve(undefined);
    if (this.client) return Promise.resolve(this.client);
    if (this.retryTimer) {
      // Someone needs it now: try at once rather than at the end of the backoff.
      clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
    }
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connect(): Promise<pg.Client | undefined> {
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      application_name: 'subshare-events',
      connectionTimeoutMillis: this.timeoutMs,
      query_timeout: this.timeoutMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    // An error before 'end' (e.g. the server terminating the session) must not crash the process.
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      if (this.closed) {
        await client.end().catch(() => undefined);
        return undefined;
      }
      this.queue = Promise.resolve();
      const channels = new Set([...this.listeners].map((listener) => listener.channel));
      for (const channel of channels) await client.query(`listen ${channel}`);
      this.listened.clear();
      for (const channel of channels) this.listened.add(channel);
      client.on('notification', (message) => this.deliver(message.channel, message.payload ?? ''));
      this.client = client;
      this.startHeartbeat(client);
      const reconnected = this.wasConnected;
      this.wasConnected = true;
      this.failures = 0;
      if (reconnected) {
        this.options.logger.info({ channels: channels.size }, 'database events: connection back');
        for (const listener of [...this.listeners]) this.safely(() => listener.onReconnect?.());
      }
      return client;
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      this.failures += 1;
      this.options.logger.warn({ err: error, failures: this.failures }, 'database events: cannot connect');
      this.scheduleReconnect();
      return undefined;
    }
  }

  private lost(client: pg.Client, error?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.listened.clear();
    if (this.heartbeat) clearInterval(this.heartbeat);
    // The socket may still be half open (a query timeout); make sure it is gone.
    void client.end().catch(() => undefined);
    if (this.closed) return;
    this.options.logger.warn({ err: error }, 'database events: connection lost');
    for (const handler of [...this.lostHandlers]) this.safely(handler);
    this.scheduleReconnect();
  }

  /** Re-connects later while anyone listens (locks alone are taken again on their next use). */
  private scheduleReconnect(): void {
    if (this.closed || this.retryTimer || this.listeners.size === 0) return;
    const pause = Math.min(this.maxBackoffMs, this.backoffMs * 2 ** Math.min(this.failures, 16));
    const jittered = pause * (0.8 + Math.random() * 0.4);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.ensure();
    }, jittered);
    this.retryTimer.unref();
  }

  /** A query now and then: one without an answer in time cuts the connection (see `run`), and re-connecting begins. */
  private startHeartbeat(client: pg.Client): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = setInterval(() => {
      if (this.client === client) void this.run(client, 'select 1').catch(() => undefined);
    }, this.heartbeatMs);
    this.heartbeat.unref();
  }

  private deliver(channel: string, payload: string): void {
    for (const listener of [...this.listeners]) if (listener.channel === channel) this.safely(() => listener.handler(payload));
  }

  private run<R extends pg.QueryResultRow = pg.QueryResultRow>(client: pg.Client, sql: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    const next = this.queue.catch(() => undefined).then(() => client.query<R>(sql, values));
    this.queue = next;
    return next.catch((error: unknown) => {
      // A query without an answer in time leaves the connection unusable: cut it (and its locks).
      // pg's end() closes the socket at once while a query is outstanding (no goodbye exchanged).
      if ((error as Error | null)?.message === 'Query read timeout') {
        void client.end().catch(() => undefined);
        this.lost(client, error as Error);
      }
      throw error;
    });
  }

  private safely(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.options.logger.error({ err: error }, 'database events: a handler failed');
    }
  }
}
