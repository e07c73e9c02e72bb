/**
 * E-mail delivery, four queues that belong together (see NOTIFICATIONS_QUEUES in core):
 * the delivery job itself, the same for e-mails with a one-time code (workers of their own, so a
 * code never waits behind other mail), their dead letter (the job gave up: the e-mail becomes
 * failed for staff) and the sweeper that queues pending e-mails left without a job. Every handler is safe to run
 * twice: the outbox row's status decides, and a sent e-mail is never sent again.
 */
import { NOTIFICATIONS_QUEUES, type DeliverEmailJobData, NotificationsService } from '@subshare/core';
import type { Job } from 'pg-boss';
import { bindJob, type JobHandler } from './job.js';

function outboxIdOf(job: Job<DeliverEmailJobData>): number {
  const id = job.data?.outboxId;
  if (!Number.isSafeInteger(id) || id <= 0) throw new Error(`job ${job.id} has no valid outboxId`);
  return id;
}

const deliver: JobHandler<DeliverEmailJobData> = async (job, { container, logger }) => {
  const outboxId = outboxIdOf(job);
  const outcome = await container.get(NotificationsService).deliver(outboxId);
  // Another deliverer holds the row (an expired attempt still talking to the server): come
  // back later rather than report success for an e-mail that may yet fail.
  if (outcome === 'busy') throw new Error(`e-mail ${outboxId} is being delivered by another worker; retrying later`);
  if (outcome !== 'sent') logger.debug({ outboxId, outcome }, 'nothing to deliver');
  return { outcome };
};

export const EMAIL_JOBS = [
  bindJob(NOTIFICATIONS_QUEUES.deliver, deliver),
  bindJob(NOTIFICATIONS_QUEUES.deliverCode, deliver),
  bindJob<DeliverEmailJobData>(NOTIFICATIONS_QUEUES.deadLetter, async (job, { container }) => {
    const failed = await container.get(NotificationsService).markFailed(outboxIdOf(job));
    return { failed };
  }),
  bindJob(NOTIFICATIONS_QUEUES.sweep, (_job, { container }) => container.get(NotificationsService).sweep()),
];
