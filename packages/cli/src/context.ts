/**
 * What every command shares: configuration read once, one logger, and an orderly shutdown on
 * SIGINT/SIGTERM/SIGHUP with a deadline (HTTP stops accepting and drains, jobs finish, the pool
 * closes, the embedded PostgreSQL stops), whatever state the database is in.
 */
import os from 'node:os';
import {
  ConfigError,
  createLogger,
  databaseFailure,
  isStopping,
  loadConfig,
  markStopping,
  loadDotEnv,
  openRuntime,
  settleBy,
  type AppConfig,
  type Logger,
  type Runtime,
  type RuntimeOptions,
} from '@subshare/core';
import { withShopUrl } from './shop-url.js';

export interface CommandContext {
  config: AppConfig;
  logger: Logger;
}

/**
 * `serves`: the command serves HTTP (start, serve) and so decides the shop's public URL; any other
 * command takes the one the serving shop recorded when its environment names none (shop-url.ts).
 */
export function loadContext(options: { serves?: boolean } = {}): CommandContext {
  try {
    loadDotEnv();
    const config = loadConfig(options.serves ? process.env : withShopUrl(process.env));
    return { config, logger: createLogger(config.logLevel) };
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
}

/** Opens the runtime (without the request bounds on statements: see RuntimeOptions), runs a one-shot task, closes everything. */
export async function runOnce<T>(options: RuntimeOptions, task: (runtime: Runtime) => Promise<T>): Promise<T> {
  const { config, logger } = loadContext();
  const shutdown = handleSignals(logger, 'interrupted');
  const runtime = await openRuntime(config, logger, { unbounded: true, ...options });
  shutdown.onStop((deadline) => runtime.close(deadline));
  try {
    return await task(runtime);
  } finally {
    await runtime.close();
  }
}

/** From the signal to the exit: every stop step, the embedded PostgreSQL included, must be done by then. */
export const SHUTDOWN_DEADLINE_MS = 9_000;

/**
 * The end of the deadline kept for the step added first, which runs last: the runtime, which stops
 * the database. A step before it that hangs (a job waiting on a frozen database) cannot use it up.
 */
const LAST_STEP_SHARE_MS = 3_000;

type Stop = (deadline: number) => Promise<void>;

export interface Shutdown {
  /** Adds what to stop; steps run in the reverse order of adding (the last thing opened stops first). */
  onStop(stop: Stop): void;
}

/** True once a signal asked this process to stop: a command failing then is part of stopping, not an error to report. */
export function stopRequested(): boolean {
  return isStopping();
}

/**
 * Ctrl+C signals the terminal's whole process group, so the embedded PostgreSQL stops at the same
 * moment as this process and ends every session (57P01). pg-boss closes its LISTEN client by
 * taking the client's listeners off before ending it (`listen().close` in pg-boss's db.js), so the
 * server's goodbye can land on a client that nobody hears, which Node turns into an uncaught
 * exception. While stopping, an error that says the database went away is what we asked for: noted
 * at debug, and the stop goes on. Anything else still ends the process, as it would have.
 */
function tolerateTheDatabaseLeaving(logger: Logger): void {
  process.on('uncaughtException', (error) => {
    const database = databaseFailure(error);
    if (database) {
      logger.debug({ database }, 'a database session ended while stopping');
      return;
    }
    logger.fatal({ err: error }, 'uncaught exception while stopping');
    process.exit(1);
  });
}

/**
 * Takes over SIGINT, SIGTERM and SIGHUP for this command. On the first one, the steps added so far
 * run newest first, each bounded by the deadline, and the process exits: a long-running command
 * (`served`) with 0 (1 if a step failed or ran out of time), a one-shot command cut short with
 * 128 + the signal's number. A signal during start-up stops what is open so far.
 */
export function handleSignals(logger: Logger, kind: 'served' | 'interrupted'): Shutdown {
  const stops: Stop[] = [];
  const shutdown = async (signal: NodeJS.Signals) => {
    if (isStopping()) return;
    markStopping();
    tolerateTheDatabaseLeaving(logger);
    logger.info({ signal }, 'shutting down');
    const deadline = Date.now() + SHUTDOWN_DEADLINE_MS;
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS + 500);
    force.unref();
    let clean = true;
    for (const [index, stop] of [...stops].reverse().entries()) {
      const by = index === stops.length - 1 ? deadline : deadline - LAST_STEP_SHARE_MS;
      if (
        !(await settleBy(
          Promise.resolve().then(() => stop(by)),
          by,
          'a shutdown step',
          logger,
        ))
      )
        clean = false;
    }
    logger.info('stopped');
    process.exit(kind === 'interrupted' ? 128 + (os.constants.signals[signal] ?? 0) : clean ? 0 : 1);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => void shutdown(signal));
  }
  return { onStop: (stop) => void stops.push(stop) };
}
