/**
 * Fixed-window counters in PostgreSQL, so that every HTTP process shares them. A window
 * starts with the first hit and lasts `windowSeconds`; one upsert both counts and reads.
 */
import type { Knex } from 'knex';
import type { Clock } from './clock.js';
import type { ErrorCode } from '../wire/errors.js';
import { TooManyRequestsError } from './errors.js';

export interface RateLimit {
  /** Bucket name, e.g. `login:ip`. The full key is `${name}:${subject}`. */
  name: string;
  limit: number;
  windowSeconds: number;
  /** What a caller over the limit is answered (429): one code per limit, declared in wire/errors.ts. */
  code?: ErrorCode;
}

export interface RateLimitState {
  hits: number;
  remaining: number;
  retryAfterSeconds: number;
  /** When the window that counted the hit ends: `giveBack` takes a hit back from that window only. */
  windowEndsAt: Date;
}

export class RateLimiter {
  constructor(
    private readonly knex: Knex,
    private readonly clock: Clock,
  ) {}

  /** The prune job: counters whose window ended before `now`; answers how many went. */
  async prune(now = this.clock.now()): Promise<number> {
    return this.knex('rate_limits').where('window_ends_at', '<', now).delete();
  }

  /** Counts one hit and throws 429 once the window holds more than `limit` hits. */
  async consume(rule: RateLimit, subject: string): Promise<RateLimitState> {
    const state = await this.hit(rule, subject);
    if (state.hits > rule.limit) throw new TooManyRequestsError(rule.code, state.retryAfterSeconds);
    return state;
  }

  /**
   * Throws 429 if the window is already full, without counting. Only for limits that are not
   * guarding work: between this read and a later `hit` a parallel burst all gets through. To
   * bound work (a password check), `consume` first: its single upsert counts and reads at once.
   */
  async check(rule: RateLimit, subject: string): Promise<void> {
    const now = this.clock.now();
    const row = await this.knex('rate_limits')
      .where({ key: `${rule.name}:${subject}` })
      .where('window_ends_at', '>', now)
      .first();
    if (row && row.hits >= rule.limit) {
      throw new TooManyRequestsError(rule.code, Math.max(1, Math.ceil((new Date(row.window_ends_at).getTime() - now.getTime()) / 1000)));
    }
  }

  /** Counts one hit and reports the window's state. */
  async hit(rule: RateLimit, subject: string): Promise<RateLimitState> {
    const now = this.clock.now();
    const windowEnd = new Date(now.getTime() + rule.windowSeconds * 1000);
    const result = await this.knex.raw<{ rows: Array<{ hits: number; window_ends_at: Date }> }>(
      `insert into rate_limits (key, hits, window_ends_at) values (?, 1, ?)
       on conflict (key) do update set
         hits = case when rate_limits.window_ends_at <= ? then 1 else rate_limits.hits + 1 end,
         window_ends_at = case when rate_limits.window_ends_at <= ? then excluded.window_ends_at else rate_limits.window_ends_at end
       returning hits, window_ends_at`,
      [`${rule.name}:${subject}`, windowEnd, now, now],
    );
    const row = result.rows[0];
    const retryAfterSeconds = Math.max(1, Math.ceil((new Date(row.window_ends_at).getTime() - now.getTime()) / 1000));
    return { hits: row.hits, remaining: Math.max(0, rule.limit - row.hits), retryAfterSeconds, windowEndsAt: new Date(row.window_ends_at) };
  }

  /**
   * Takes back one hit counted by `hit` or `consume` (`state` is what it answered), for a limit
   * that reserves a try before the work and counts only some outcomes: a parallel burst cannot
   * pass a limit that is reserved this way. A window that ended meanwhile is left alone.
   */
  async giveBack(rule: RateLimit, subject: string, state: RateLimitState): Promise<void> {
    await this.knex('rate_limits')
      .where({ key: `${rule.name}:${subject}`, window_ends_at: state.windowEndsAt })
      .where('hits', '>', 0)
      .decrement('hits', 1);
  }

  /** Whether the window for this subject is open and holds at least one hit (a mark, e.g. "logged in from here"). */
  async active(rule: RateLimit, subject: string): Promise<boolean> {
    const row = await this.knex('rate_limits')
      .where({ key: `${rule.name}:${subject}` })
      .where('window_ends_at', '>', this.clock.now())
      .where('hits', '>', 0)
      .first('key');
    return row !== undefined;
  }

  async reset(rule: RateLimit, subject: string): Promise<void> {
    await this.knex('rate_limits')
      .where({ key: `${rule.name}:${subject}` })
      .delete();
  }
}
