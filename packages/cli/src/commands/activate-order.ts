import { Command } from 'commander';
import { ActivationFlow } from '@subshare/core';
import { runOnce } from '../context.js';
import { positiveInteger, slotText, utc } from '../format.js';

/** The operator's `POST /api/webhook/activatesubscribe`: same rules, same audit trail (actor "cli"). */
export const activateOrderCommand = () =>
  new Command('activate-order')
    .description('activate a paid order that waits for activation (state 6) now, on free slots')
    .argument('<id>', 'the order id')
    .addHelpText(
      'after',
      '\nUse it once the buyer has been invited (family-group platforms) or capacity was added. The buyer gets the\n' +
        '"subscription active" e-mail; the action is audited as "cli". It fails without change when the order does not\n' +
        'wait (not paid, or already completed) or no slot is free for the whole period (add an account first).',
    )
    .action(async (raw: string) => {
      const orderId = positiveInteger('The order id', raw);
      // With the job queue: the buyer's e-mail is delivered by a job.
      await runOnce({}, async ({ container }) => {
        const result = await container.get(ActivationFlow).activateNow({ label: 'cli' }, { orderId });
        console.log(`Activated order ${result.orderId} (now state ${result.state}):`);
        for (const slot of result.subscriptions) {
          console.log(
            `  subscription ${slot.subscriptionId}: account ${slot.platformAccountId}, ${slotText(slot.slot, slot.accountSlotsCount)}, ` +
              `${utc(slot.startsAt)} to ${utc(slot.endsAt)}`,
          );
        }
      });
    });
