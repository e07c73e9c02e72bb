/**
 * Whether this process has been asked to stop (a signal reached it). Process-wide on purpose: the
 * database connections, the job queue and the event listener all end while it stops, and what
 * they report then (PostgreSQL ending their sessions) is the stop going as planned, not a fault.
 */
let stopping = false;

/** Called once by the command's signal handler, before any stop step runs. */
export function markStopping(): void {
  stopping = true;
}

export function isStopping(): boolean {
  return stopping;
}
