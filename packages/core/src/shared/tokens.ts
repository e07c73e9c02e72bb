/** DI tokens of the shared infrastructure. Each module declares its own tokens in its index.ts. */
export const TOKENS = {
  Config: Symbol.for('subshare.Config'),
  Knex: Symbol.for('subshare.Knex'),
  Logger: Symbol.for('subshare.Logger'),
  Clock: Symbol.for('subshare.Clock'),
  JobQueue: Symbol.for('subshare.JobQueue'),
  RateLimiter: Symbol.for('subshare.RateLimiter'),
  /** The process's LISTEN/NOTIFY and session-lock connection (shared/database-events.ts). */
  DatabaseEvents: Symbol.for('subshare.DatabaseEvents'),
} as const;
