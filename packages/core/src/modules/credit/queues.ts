import type { JobDeclaration } from '../../shared/jobs.js';

export const CREDIT_QUEUES = {
  /** Singleton: each buyer's write-off is one transaction under their lock and keyed per lot, so a second pass writes nothing. */
  expire: {
    name: 'credit-expire',
    purpose: 'Write off the credit lots past their expiry (what each still held), so outstanding credit is what buyers can spend',
    servedBy: 'core/src/modules/credit/credit.service.ts expireDue',
    options: { policy: 'singleton', retryLimit: 3, retryDelay: 60, expireInSeconds: 900, deleteAfterSeconds: 24 * 3600 },
    schedule: '17 * * * *',
  },
} satisfies Record<string, JobDeclaration>;
