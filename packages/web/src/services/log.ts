/**
 * Failures the spec says are "only logged" (loads, country lookup…) end here, so a later
 * issue can forward them to a collector in one place.
 */
export function logError(context: string, error: unknown): void {
  console.error(`[subshare] ${context}`, error);
}
