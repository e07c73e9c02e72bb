import { Command } from 'commander';
import { validate, RefundFlow, type RefundQuote } from '@subshare/core';
import * as wire from '@subshare/core/wire';
import { runOnce } from '../context.js';
import { amountText, ORDER_STATE_NAMES, positiveInteger, utc } from '../format.js';

/**
 * The operator's `POST /api/order/refund`: the same flow, the same policy (window, fee, override),
 * the same audit entry (actor "cli"). It prints the quote first, so the terms are on screen even
 * when the refund is refused.
 */
export const refundOrderCommand = () =>
  new Command('refund-order')
    .description('refund a paid order through the provider that took the money, under the refund policy; its access ends')
    .argument('<id>', 'the order id')
    .requiredOption('--reason <text>', 'why (3 to 500 characters): kept in the audit log and sent to the provider')
    .option('--override-window', 'refund although the policy window after payment has closed (audited as an override)')
    .option('--manual-reference <ref>', 'CoinPal only (no refund call): the reference of the transfer you made back to the buyer')
    .addHelpText(
      'after',
      '\nThe buyer gets the amount paid less the refund fee (REFUND_FEE_PERCENT, REFUND_FEE_EUR / REFUND_FEE_KRW);\n' +
        'past REFUND_WINDOW_HOURS after payment it needs --override-window. The subscription ends at once, its slot\n' +
        'goes to the next waiting order, and the buyer gets the "refunded" e-mail. Audited as "cli". Nothing changes\n' +
        'when the order is not paid, already refunded, or the provider refuses or cannot be reached.\n' +
        'Example: subshare refund-order 812 --reason "asked within a day"',
    )
    .action(async (raw: string, options: { reason: string; overrideWindow?: boolean; manualReference?: string }) => {
      const orderId = positiveInteger('The order id', raw);
      // The call's own rules (reason length, ...), so the CLI refuses what the admin area refuses.
      const input = validate(wire.refunds.refundBody, {
        orderId,
        reason: options.reason,
        overrideWindow: options.overrideWindow === true,
        manualReference: options.manualReference,
      });
      // With the job queue: the buyer's e-mail and the freed slot's activation are jobs.
      await runOnce({}, async ({ container }) => {
        const refunds = container.get(RefundFlow);
        for (const line of quoteLines(await refunds.quote(orderId))) console.log(line);
        const result = await refunds.refund({ label: 'cli' }, input);
        const { refund } = result;
        const reference = refund.manualReference ? `manual transfer ${refund.manualReference}` : `provider reference ${refund.providerRefundId ?? '-'}`;
        console.log(
          `Refunded ${amountText(refund.amount)} (fee ${amountText(refund.fee)}) of order ${result.orderId} through ${refund.provider}: ` +
            `refund ${refund.id}, ${reference}${refund.overrideWindow ? ', window overridden' : ''}.`,
        );
        console.log(`Order ${result.orderId} is now in state ${result.state} (${ORDER_STATE_NAMES[result.state]}); its access has ended.`);
      });
    });

/** What a refund would give back now, as the admin area's confirm dialog shows it. */
function quoteLines({ order, payment, terms, policy }: RefundQuote): string[] {
  const window = terms.windowEndsAt
    ? `${policy.windowHours} hours after payment, until ${utc(terms.windowEndsAt)}: ${terms.insideWindow ? 'open' : 'closed, needs --override-window'}`
    : `${policy.windowHours} hours after payment (not paid)`;
  return [
    `Order ${order.id} (state ${order.state}, ${ORDER_STATE_NAMES[order.state]}), paid ${utc(order.paidAt)}${payment ? ` through ${payment.provider}` : ''}:`,
    `  paid ${amountText(terms.paid)}, fee ${amountText(terms.fee)}, refund ${amountText(terms.refund)}`,
    `  window: ${window}`,
  ];
}
