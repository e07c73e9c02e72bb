/**
 * Shutdown steps get a deadline, not a hope: a step that waits on a frozen database or a slow
 * request is left behind when its time is up, so the steps after it (above all stopping the
 * embedded PostgreSQL) still run and the process exits when told.
 */
import type { Logger } from './logger.js';

/** Waits for `work` until `until` (epoch ms) at the latest; true when it settled in time. Its failure is logged, not thrown. */
export async function settleBy(work: Promise<unknown>, until: number, what: string, logger?: Logger): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), Math.max(0, until - Date.now()));
  });
  const done = work.then(
    () => 'done' as const,
    (error: unknown) => {
      logger?.error({ err: error }, `${what} failed`);
      return 'failed' as const;
    },
  );
  const outcome = await Promise.race([done, late]);
  clearTimeout(timer);
  if (outcome === 'late') logger?.warn(`${what} did not finish in time; going on`);
  return outcome === 'done';
}
