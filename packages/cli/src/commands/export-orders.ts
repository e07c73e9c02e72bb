import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Command } from 'commander';
import { validate, OrdersExportFlow } from '@subshare/core';
import * as wire from '@subshare/core/wire';
import { runOnce } from '../context.js';
import { orderState } from '../format.js';

/**
 * The operator's `GET /api/order/export.csv`: the same flow call, the same CSV (RFC 4180,
 * formula-safe), the same audit entry (actor "cli"). To a file it starts with a byte-order mark,
 * as the download does, so spreadsheets read Korean names as UTF-8; to standard output it is
 * plain UTF-8 for other tools.
 */
export const exportOrdersCommand = () =>
  new Command('export-orders')
    .description('write the orders as CSV, newest first (audited as "cli")')
    .option('--state <n>', 'only the orders in this state (0 to 6); every order when left out')
    .option('--out <file>', 'write to this file (replaced if it exists) instead of standard output')
    .addHelpText(
      'after',
      '\nColumns: id, created, state, userId, email, platform, type, duration, quantity, total, currency, totalEur,\n' +
        'paymentMethod, paid, completed, refunded (what went back to the buyer, in the order currency; empty when\n' +
        'nothing did). Example: subshare export-orders --state 2 --out completed.csv',
    )
    .action(async (options: { state?: string; out?: string }) => {
      const query = validate(wire.staff.exportQuery, { state: options.state === undefined ? undefined : orderState(options.state) });
      await runOnce({ withoutJobs: true }, async ({ container }) => {
        const exported = await container.get(OrdersExportFlow).exportCsv({ label: 'cli' }, query);
        if (options.out) {
          async function* withBom() {
            yield '\uFEFF';
            yield* exported.lines;
          }
          await pipeline(Readable.from(withBom()), createWriteStream(options.out));
          console.log(`Wrote ${exported.count} order${exported.count === 1 ? '' : 's'} to ${options.out}.`);
          return;
        }
        for await (const line of exported.lines) if (!process.stdout.write(line)) await once(process.stdout, 'drain');
      });
    });
