/**
 * Every Idempotency-Key this shop sends a provider, built in one place:
 * `subshare-<installation id>-<purpose>-<parts>`.
 * A key names the one thing it must never do twice (a checkout attempt, a refund, a buyer's
 * customer, one renewal charge attempt of one period), so a retry after a timeout, a rerun job or
 * a second worker gets the provider's first answer instead of a second charge. Keys of several
 * installations sharing one provider account (staging and production often do) must not meet, so
 * each starts with the installation id (installation.ts).
 */
export type IdempotencyPurpose = 'checkout' | 'refund' | 'customer' | 'renewal' | 'card-update';

export function idempotencyKey(installationId: string, purpose: IdempotencyPurpose, ...parts: Array<string | number>): string {
  return ['subshare', installationId, purpose, ...parts.map(String)].join('-');
}
