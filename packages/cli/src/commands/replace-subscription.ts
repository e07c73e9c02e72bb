import { Command } from 'commander';
import { OrdersService, ReplacementFlow, SubscriptionsService } from '@subshare/core';
import { runOnce } from '../context.js';
import { positiveInteger, slotText, utc } from '../format.js';

/** The operator's `POST /api/webhook/replacesubscribe { subscribeId, orderId }`: same rules, audited as "cli". */
export const replaceSubscriptionCommand = () =>
  new Command('replace-subscription')
    .description('move an active subscription to a free slot on another account of its platform, keeping its end date')
    .argument('<subscriptionId>', 'the subscription to move')
    .option('--order <id>', 'the order the subscription belongs to (default: looked up from the subscription)')
    .addHelpText(
      'after',
      '\nFor a broken account: the new subscription runs from now to the old end date, records the old one as\n' +
        '"replaced from", frees its slot, and the buyer gets the "subscription replaced" e-mail. Nothing changes when\n' +
        'the subscription is not active or no other account of the platform has a slot free until the end date.',
    )
    .action(async (raw: string, options: { order?: string }) => {
      const subscribeId = positiveInteger('The subscription id', raw);
      const givenOrder = options.order === undefined ? undefined : positiveInteger('--order', options.order);
      await runOnce({}, async ({ container }) => {
        const orderId = givenOrder ?? (await orderOf(container.get(SubscriptionsService), container.get(OrdersService), subscribeId));
        const result = await container.get(ReplacementFlow).replace({ label: 'cli' }, { subscribeId, orderId });
        const created = result.subscription;
        console.log(
          `Replaced subscription ${result.replacedFrom.id} (account ${result.replacedFrom.platformAccountId}) of order ${orderId} with subscription ${created.id}: ` +
            `account ${created.platformAccountId}, ${slotText(created.slot, result.accountSlotsCount)}, until ${utc(created.endsAt)}. The buyer is e-mailed.`,
        );
      });
    });

/** The order whose item the subscription serves (404 when the subscription does not exist). */
async function orderOf(subscriptions: SubscriptionsService, orders: OrdersService, subscriptionId: number): Promise<number> {
  const subscription = await subscriptions.get(subscriptionId);
  const order = (await orders.paidOrdersOfUser(subscription.userId)).find((candidate) => candidate.items.some((item) => item.id === subscription.orderItemId));
  if (!order) throw new Error(`No paid order holds subscription ${subscriptionId}; give it with --order <id>.`);
  return order.id;
}
