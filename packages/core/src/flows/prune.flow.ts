/**
 * The prune job's work: rows that can no longer matter go, each deleted by whoever owns it:
 * sessions and one-time codes a week past their expiry (identity), and rate-limit counters whose
 * window has ended (the shared rate limiter).
 */
import { inject, injectable } from 'inversify';
import type { Clock } from '../shared/clock.js';
import { RateLimiter } from '../shared/rate-limiter.js';
import { TOKENS } from '../shared/tokens.js';
import { IdentityService } from '../modules/identity/index.js';

/** How long past its expiry a session or code is kept (for support questions about a failed login). */
const KEPT_AFTER_EXPIRY_MS = 7 * 24 * 3600_000;

@injectable()
export class PruneFlow {
  constructor(
    @inject(IdentityService) private readonly identity: IdentityService,
    @inject(RateLimiter) private readonly rateLimiter: RateLimiter,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  /** How many rows went, per kind. */
  async prune(): Promise<Record<string, number>> {
    const now = this.clock.now();
    const expired = await this.identity.pruneExpired(new Date(now.getTime() - KEPT_AFTER_EXPIRY_MS));
    return { ...expired, rateLimits: await this.rateLimiter.prune(now) };
  }
}
