/**
 * The container's symbols, for what no single class of ours stands for (docs/architecture.md, "The
 * container"): values (configuration, knex, logger) and ports with several implementations (clock,
 * job queue). Everything else is bound and injected by its class.
 */
export const TOKENS = {
  Config: Symbol.for('subshare.Config'),
  Knex: Symbol.for('subshare.Knex'),
  Logger: Symbol.for('subshare.Logger'),
  Clock: Symbol.for('subshare.Clock'),
  JobQueue: Symbol.for('subshare.JobQueue'),
} as const;
