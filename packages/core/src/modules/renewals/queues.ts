import type { JobDeclaration } from '../../shared/jobs.js';

export const RENEWAL_QUEUES = {
  /**
   * Singleton: one pass at a time; the charges' unique rows and Stripe's Idempotency-Key keep two
   * from charging twice anyway. When the retries fall: docs/renewal.md.
   */
  due: {
    name: 'renewals-due',
    purpose: 'The renewal pass: learn the cards that paid, charge the periods due and their retries, give up after the last',
    servedBy: 'core/src/flows/renewal.flow.ts renewDue',
    options: { policy: 'singleton', retryLimit: 3, retryDelay: 30, expireInSeconds: 900, deleteAfterSeconds: 24 * 3600 },
    schedule: '*/10 * * * *',
  },
} satisfies Record<string, JobDeclaration>;
