/**
 * Ports for servers whose address must be known before they start (a PUBLIC_URL, a child's PORT).
 * The kernel hands out a free port to a probe, which closes it; the server then binds it. Between
 * the two, another process of a parallel run may take the same port: `onFreePort` then tries
 * again on a new one instead of failing the file.
 */
import { freePort } from '@subshare/core';

export { freePort };

/** How many ports `onFreePort` tries before it gives up: each loss needs another process to bind that very port in the gap. */
export const PORT_ATTEMPTS = 5;

/** Whether `error` says the port was taken: Node's EADDRINUSE, or a child process's output saying so. */
export function addressInUse(error: unknown): boolean {
  if ((error as NodeJS.ErrnoException | null)?.code === 'EADDRINUSE') return true;
  const text = error instanceof Error ? error.message : String(error);
  return /EADDRINUSE|address already in use/i.test(text);
}

/**
 * Runs `bind` with a free port, and again with another one while it fails because the port was
 * taken in the meantime (up to PORT_ATTEMPTS ports). `bind` must leave nothing running when it
 * fails. Any other failure is thrown at once.
 */
export async function onFreePort<T>(bind: (port: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    try {
      return await bind(port);
    } catch (error) {
      if (attempt >= PORT_ATTEMPTS || !addressInUse(error)) throw error;
    }
  }
}
