/**
 * The shop's own vital signs: is the database reachable, are migrations applied, when did a
 * worker last report in. Served by /api/health and written by every worker process.
 */
import os from 'node:os';
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { Clock } from '../../shared/clock.js';
import { databaseFailure, type DatabaseFailure } from '../../shared/errors.js';
import { TOKENS } from '../../shared/tokens.js';
import { pendingMigrations } from '../../shared/migrator.js';

export interface HealthReport {
  status: 'ok' | 'degraded';
  database: 'ok' | 'unreachable';
  /** The parts that cannot serve now, e.g. ['database']; empty when all can. */
  down: Array<'database'>;
  /** Why the database is unreachable (refused, lost, timed out, ...); only when it is. */
  databaseError?: DatabaseFailure | 'error';
  pendingMigrations: number;
  /** Seconds since any worker last reported in; null if none ever did. */
  workerSeenSecondsAgo: number | null;
}

/** Whether this process may be sent traffic: what /readyz reports (draining is the HTTP layer's). */
export interface Readiness {
  database: 'ok' | 'unreachable' | 'timeout';
  /** Why the database is unreachable; only when it is. */
  databaseError?: DatabaseFailure | 'error';
  /** Migrations this version knows that the database lacks; null when the database did not answer. */
  pendingMigrations: number | null;
  /**
   * `disk_full` while the database cannot take writes: once a statement of this process met a
   * full disk (53100), until a write probe (a page of a temporary table, in the database's
   * default tablespace) succeeds again.
   */
  writes?: 'ok' | 'disk_full';
}

/** What the write probe writes: one row, so PostgreSQL must allocate a page on the disk. */
const WRITE_PROBE = 'create temporary table subshare_write_probe (filler text) on commit drop';
const ROLLED_BACK = Symbol('rolled back');

@injectable()
export class OperationsService {
  /** When a statement of this process last met a full disk, until a write works again. */
  private diskFullSince: Date | null = null;

  constructor(
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  async health(): Promise<HealthReport> {
    try {
      await this.knex.raw('select 1');
      const pending = (await pendingMigrations(this.knex)).length;
      const row = await this.knex('worker_heartbeats').max<{ seen: Date | null }>('seen_at as seen').first();
      const seen = row?.seen ? Math.round((this.clock.now().getTime() - new Date(row.seen).getTime()) / 1000) : null;
      return { status: pending === 0 ? 'ok' : 'degraded', database: 'ok', down: [], pendingMigrations: pending, workerSeenSecondsAgo: seen };
    } catch (error) {
      // Also when the database goes away between the queries above: health never answers 500.
      const reason = databaseFailure(error) ?? 'error';
      return { status: 'degraded', database: 'unreachable', down: ['database'], databaseError: reason, pendingMigrations: 0, workerSeenSecondsAgo: null };
    }
  }

  /**
   * Can this process serve: the database answers within `timeoutMs` and has every migration this
   * version knows. Never throws and never waits longer than `timeoutMs`, also when PostgreSQL is
   * frozen (the abandoned check ends with the pool's own bounds).
   */
  async readiness(timeoutMs: number): Promise<Readiness> {
    const check = (async (): Promise<Readiness> => {
      await this.knex.raw('select 1');
      const pending = (await pendingMigrations(this.knex)).length;
      if (this.diskFullSince === null) return { database: 'ok', pendingMigrations: pending };
      return { database: 'ok', pendingMigrations: pending, writes: (await this.writesWork()) ? 'ok' : 'disk_full' };
    })().catch((error: unknown): Readiness => ({ database: 'unreachable', databaseError: databaseFailure(error) ?? 'error', pendingMigrations: null }));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Readiness>((resolve) => {
      timer = setTimeout(() => resolve({ database: 'timeout', databaseError: 'timeout', pendingMigrations: null }), timeoutMs);
    });
    try {
      return await Promise.race([check, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Told of every error a request or job of this process met: a full disk makes readiness probe
   * writes (and answer not ready) until one works. Reads keep working on a full disk, so
   * `select 1` alone would call such a database ready while every order fails.
   */
  noteDatabaseError(error: unknown): void {
    if (databaseFailure(error) === 'disk_full') this.diskFullSince ??= this.clock.now();
  }

  /** One page written and rolled back; true (and the failure forgotten) when the disk took it. */
  private async writesWork(): Promise<boolean> {
    try {
      await this.knex.transaction(async (trx) => {
        await trx.raw(WRITE_PROBE);
        await trx.raw("insert into subshare_write_probe values (repeat('x', 100))");
        throw ROLLED_BACK;
      });
    } catch (error) {
      if (error !== ROLLED_BACK) {
        if (databaseFailure(error) === 'disk_full') return false;
        throw error;
      }
    }
    this.diskFullSince = null;
    return true;
  }

  async recordHeartbeat(workerId: string, startedAt: Date): Promise<void> {
    const now = this.clock.now();
    await this.knex('worker_heartbeats')
      .insert({ worker_id: workerId, hostname: os.hostname(), pid: process.pid, started_at: startedAt, seen_at: now })
      .onConflict('worker_id')
      .merge({ seen_at: now });
    // Forget workers gone for a day so the table does not grow with every restart.
    await this.knex('worker_heartbeats')
      .where('seen_at', '<', new Date(now.getTime() - 24 * 3600_000))
      .delete();
  }
}
