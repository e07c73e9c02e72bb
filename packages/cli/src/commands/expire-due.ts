import { Command } from 'commander';
import { ExpiryFlow } from '@subshare/core';
import { REMINDER_DAYS } from '@subshare/core/promises';
import { runOnce } from '../context.js';

/**
 * What the worker's `subscriptions-end-due` and `subscriptions-remind-due` jobs do on their
 * schedules (docs/jobs.md), now: end the subscriptions past their end time and write the
 * reminders (REMINDER_DAYS before the end). Safe beside a running worker (rows are locked and
 * skipped, e-mails carry idempotency keys); the e-mails are delivered by the worker.
 */
export const expireDueCommand = () =>
  new Command('expire-due')
    .description(`end the subscriptions past their end time and send the ${REMINDER_DAYS}-day expiry reminders now (the worker does both on its schedule)`)
    .option('--no-reminders', 'only end subscriptions; leave the reminders to the worker')
    .action(async (options: { reminders: boolean }) => {
      await runOnce({}, async ({ container }) => {
        const expiry = container.get(ExpiryFlow);
        const ended = await expiry.endDue();
        console.log(`Ended ${ended.count} subscription(s)${ended.count > 0 ? `: ${ended.subscriptionIds.join(', ')}` : ''}.`);
        if (!options.reminders) return;
        const reminded = await expiry.remindDue();
        console.log(
          `Reminded ${reminded.count} buyer(s) of an end within ${REMINDER_DAYS} days${reminded.count > 0 ? `: subscription(s) ${reminded.subscriptionIds.join(', ')}` : ''}.`,
        );
      });
    });
