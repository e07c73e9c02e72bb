import type { JobDeclaration } from '../../shared/jobs.js';

export const REFERRAL_QUEUES = {
  /** Singleton: each referral is decided in one transaction holding its row, and its credit is keyed by the referral, so a second pass grants nothing. */
  grant: {
    name: 'referrals-grant',
    purpose: "Inviters earn credit once an invitee's first payment is past the refund window and kept; guards refuse the rest",
    servedBy: 'core/src/flows/referral.flow.ts grantDue',
    options: { policy: 'singleton', retryLimit: 3, retryDelay: 60, expireInSeconds: 900, deleteAfterSeconds: 24 * 3600 },
    schedule: '*/15 * * * *',
  },
} satisfies Record<string, JobDeclaration>;
