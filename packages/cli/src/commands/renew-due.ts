import { Command } from 'commander';
import { toMajorUnits, RenewalFlow } from '@subshare/core';
import { runOnce } from '../context.js';

/**
 * The renewal pass the worker runs on the `renewals-due` schedule (docs/jobs.md), now: learn saved
 * cards, charge the automatic renewals due (first tries at the end date, then on the retry days of
 * RENEWAL_RETRY_DAYS), follow up on buyers.
 * Safe beside a running worker: each charge row is locked and skipped, and a charge's Stripe
 * Idempotency-Key is the subscription, the period and the attempt, so nothing is charged twice.
 */
export const renewDueCommand = () =>
  new Command('renew-due')
    .description('charge the automatic renewals due now (the worker does it on the renewals-due schedule, docs/jobs.md)')
    .option('--dry-run', 'list the charges that are due, change nothing and ask nobody')
    .action(async (options: { dryRun?: boolean }) => {
      await runOnce({}, async ({ container }) => {
        const renewal = container.get(RenewalFlow);
        if (options.dryRun) {
          const due = await renewal.dueNow();
          console.log(`${due.length} renewal charge(s) due.`);
          for (const charge of due) {
            console.log(
              `  subscription ${charge.subscriptionId}: ${toMajorUnits(charge.amount)} ${charge.amount.currency}, attempt ${charge.attempt}, ` +
                `period ending ${charge.periodEnd.toISOString()}${charge.cardLast4 ? `, card •••• ${charge.cardLast4}` : ''}`,
            );
          }
          return;
        }
        const result = await renewal.renewDue();
        console.log(
          `Renewal pass: ${result.attempted} charge(s) attempted, ${result.succeeded} succeeded, ${result.declined} declined (to be retried), ` +
            `${result.failed} failed for good, ${result.requiresAction} waiting for the buyer, ` +
            `${result.providerErrors} failed at the provider or in the shop (not the card: retried, staff told); ${result.cardsLearnt} card(s) learnt.`,
        );
        for (const charge of result.charges) console.log(`  subscription ${charge.subscriptionId}: ${charge.outcome}`);
      });
    });
