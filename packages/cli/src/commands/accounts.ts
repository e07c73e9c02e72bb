import { Command } from 'commander';
import { FLOWS, type AccountHealthFlow } from '@subshare/core';
import { runOnce } from '../context.js';
import { positiveInteger, table, utc } from '../format.js';

const ORDER = { broken: 0, attention: 1, ok: 2 } as const;

/**
 * The operator's view of the admin area's account-health list (GET /api/subscribe/accounthealth,
 * issue 29): the same flow call. `--health` is required so that the command can grow other views
 * of accounts later without changing what this one prints.
 */
export const accountsCommand = () =>
  new Command('accounts')
    .description('list the platform accounts by health: broken first, the mail that broke each, its buyers and where they went')
    .requiredOption('--health', 'list the accounts by health')
    .option('--platform <id>', 'only the accounts of this platform')
    .addHelpText('after', '\nExample: subshare accounts --health --platform 1')
    .action(async (options: { health: boolean; platform?: string }) => {
      const platformId = options.platform === undefined ? undefined : positiveInteger('--platform', options.platform);
      await runOnce({ withoutJobs: true }, async ({ container }) => {
        const entries = await container.get<AccountHealthFlow>(FLOWS.AccountHealth).list(platformId);
        const counts = { broken: 0, attention: 0, ok: 0 };
        for (const entry of entries) counts[entry.state] += 1;
        console.log(`Accounts: ${entries.length} (broken ${counts.broken}, attention ${counts.attention}, ok ${counts.ok}).`);
        if (entries.length === 0) return;
        const rows = [...entries]
          .sort((a, b) => ORDER[a.state] - ORDER[b.state])
          .map((entry) => {
            const cause = entry.cause ?? {};
            const why =
              entry.state === 'ok'
                ? '-'
                : cause.kind === 'staff'
                  ? `staff: ${String(cause.reason ?? '')}`
                  : `${String(cause.kind ?? '')}: "${String(cause.subject ?? '')}" from ${String(cause.sender ?? '')}`;
            const buyers =
              entry.buyers
                .map((buyer) =>
                  buyer.status === 'moved'
                    ? `#${buyer.subscriptionId} -> account ${buyer.toAccountId} profile ${buyer.toSlot} (${Math.ceil((buyer.lostMs ?? 0) / 60_000)} min lost)`
                    : buyer.status === 'waiting'
                      ? `#${buyer.subscriptionId} waiting (${Math.ceil((buyer.lostMs ?? 0) / 60_000)} min lost)`
                      : `#${buyer.subscriptionId} on it`,
                )
                .join('; ') || '-';
            return [String(entry.id), entry.platformName, entry.email, entry.state, utc(entry.since), why, buyers];
          });
        console.log(table(['ID', 'PLATFORM', 'LOGIN', 'HEALTH', 'SINCE', 'WHY', 'BUYERS'], rows));
      });
    });
