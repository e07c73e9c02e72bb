/**
 * The e-mail queues and the settings chosen for them.
 *
 * - `email-deliver`: one job per outbox e-mail (singleton key `email:<id>`; the `exclusive`
 *   policy allows one queued-or-active job per key, so the sweeper can never add a second one).
 *   Retries with exponential backoff from 30 s, capped at 30 min, 10 times: an SMTP outage of
 *   roughly 2.5 to 4 hours is ridden out; after that the job goes to the dead letter queue.
 *   A job may hold the row for at most 120 s (the SMTP timeouts are shorter).
 * - `email-deliver-code`: the same for e-mails that carry a one-time code (sign-up, password
 *   reset), with workers of its own: a buyer waiting for a code never waits behind a backlog of
 *   purchase or reminder e-mails, nor behind a slow SMTP conversation about one of them.
 * - `email-deliver-dead`: the jobs that gave up (both delivery queues); its handler marks the
 *   e-mail failed for staff.
 * - `email-sweep`: on its schedule, queues pending e-mails that have no live job (lost jobs, a
 *   queue restored from a backup, a staff retry…).
 */
import type { JobDeclaration } from '../../shared/jobs.js';

const DAY = 24 * 3600;

const DELIVERY_OPTIONS = {
  policy: 'exclusive',
  retryLimit: 10,
  retryDelay: 30,
  retryBackoff: true,
  retryDelayMax: 1800,
  expireInSeconds: 120,
  deadLetter: 'email-deliver-dead',
  retentionSeconds: 14 * DAY,
  deleteAfterSeconds: 7 * DAY,
} as const;

export const EMAIL_QUEUES = {
  deadLetter: {
    name: 'email-deliver-dead',
    purpose: 'A delivery that gave up: the e-mail becomes failed for staff',
    servedBy: 'core/src/modules/notifications/notifications.service.ts markFailed',
    options: { retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 60, retentionSeconds: 30 * DAY, deleteAfterSeconds: 30 * DAY },
  },
  deliver: {
    name: 'email-deliver',
    purpose: 'Sends one outbox e-mail over SMTP',
    servedBy: 'core/src/modules/notifications/notifications.service.ts deliver',
    options: DELIVERY_OPTIONS,
    concurrency: 4,
  },
  deliverCode: {
    name: 'email-deliver-code',
    purpose: 'Sends one outbox e-mail that carries a one-time code, on slots of its own',
    servedBy: 'core/src/modules/notifications/notifications.service.ts deliver',
    options: DELIVERY_OPTIONS,
    // Code e-mails are few and small; two slots of their own keep one slow send from holding up the next code.
    concurrency: 2,
  },
  sweep: {
    name: 'email-sweep',
    purpose: 'Queues pending e-mails that have no live delivery job',
    servedBy: 'core/src/modules/notifications/notifications.service.ts sweep',
    // One sweep at a time; a failed sweep is simply replaced by the next scheduled one.
    options: { policy: 'singleton', retryLimit: 0, expireInSeconds: 60, deleteAfterSeconds: 3600 },
    schedule: '* * * * *',
  },
} satisfies Record<string, JobDeclaration>;

/** The data of an `email-deliver`, `email-deliver-code` and `email-deliver-dead` job. */
export interface DeliverEmailJobData {
  outboxId: number;
}
