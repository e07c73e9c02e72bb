import { Command } from 'commander';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, toMajorUnits, validate, OrdersService, type OrderView } from '@subshare/core';
import * as wire from '@subshare/core/wire';
import { runOnce } from '../context.js';
import { ORDER_STATE_NAMES, orderState, PAYMENT_METHOD_NAMES, positiveInteger, table, utc } from '../format.js';

const items = (order: OrderView, pick: (item: OrderView['items'][number]) => string) => [...new Set(order.items.map(pick))].join(', ');

function row(order: OrderView): string[] {
  return [
    String(order.id),
    order.email,
    items(order, (item) => (item.quantity > 1 ? `${item.platformName} x${item.quantity}` : item.platformName)),
    items(order, (item) => item.typeName),
    items(order, (item) => item.durationName),
    `${toMajorUnits(order.total).toFixed(order.total.currency === 'KRW' ? 0 : 2)} ${order.total.currency}`,
    order.paymentMethod === null ? '-' : PAYMENT_METHOD_NAMES[order.paymentMethod],
    utc(order.createdAt),
    utc(order.paidAt),
    utc(order.completedAt),
  ];
}

/** The operator's view of the admin area's order lists (`getbystate`, `getorderspages`): the same service call. */
export const listOrdersCommand = () =>
  new Command('list-orders')
    .description('list the orders in one state, newest first, a page at a time')
    .requiredOption(
      '--state <n>',
      `the order state: ${Object.entries(ORDER_STATE_NAMES)
        .map(([state, name]) => `${state} ${name}`)
        .join(', ')}`,
    )
    .option('--page <n>', 'the page, from 1', '1')
    .option('--limit <n>', `orders a page, 1 to ${PAGE_LIMIT_MAX}`, String(PAGE_LIMIT_DEFAULT))
    .addHelpText('after', '\nExample: subshare list-orders --state 6   (paid orders still waiting for activation)')
    .action(async (options: { state: string; page: string; limit: string }) => {
      const state = orderState(options.state);
      const page = positiveInteger('--page', options.page);
      const limit = positiveInteger('--limit', options.limit);
      // The call's own rules (limit 1 to 100, ...), so the CLI refuses what the admin area refuses.
      const query = validate(wire.staff.ordersByStateQuery, { state, page, limit });
      await runOnce({ withoutJobs: true }, async ({ container }) => {
        const result = await container.get(OrdersService).listByState(query);
        const heading = `Orders in state ${state} (${ORDER_STATE_NAMES[state]}): ${result.count} in all`;
        if (result.items.length === 0) {
          console.log(result.count === 0 ? `${heading}.` : `${heading}; page ${page} is past the last page (${result.pages}).`);
          return;
        }
        console.log(`${heading}, page ${result.page} of ${result.pages} (${result.limit} a page).`);
        console.log(table(['ID', 'E-MAIL', 'PLATFORM', 'TYPE', 'DURATION', 'TOTAL', 'PAYMENT', 'CREATED', 'PAID', 'COMPLETED'], result.items.map(row)));
      });
    });
