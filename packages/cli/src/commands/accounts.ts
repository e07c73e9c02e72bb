import { Command } from 'commander';
import { ACCOUNT_HEALTH_STATES, ValidationError, AccountHealthFlow, type AccountHealthState } from '@subshare/core';
import { runOnce } from '../context.js';
import { positiveInteger, table, utc } from '../format.js';

const ORDER = { broken: 0, attention: 1, ok: 2 } as const;

/**
 * The operator's view of the admin area's account-health list (GET /api/subscribe/accounthealth,
 * issue 29): the same flow call. `--health` is required so that the command can grow other views
 * of accounts later without changing what this one prints.
 *
 * `--set <state> --account <id> --reason <text>` sets an account's health as /jve/health does
 * (POST /api/subscribe/setaccounthealth, the same flow call, audited with the reason): `ok` after
 * a repair, or `broken` (issue 33), which moves its buyers at once, so it asks for `--yes`.
 */
export const accountsCommand = () =>
  new Command('accounts')
    .description('list the platform accounts by health: broken first, the mail that broke each, its buyers and where they went')
    .requiredOption('--health', 'list the accounts by health')
    .option('--platform <id>', 'only the accounts of this platform')
    .option('--set <state>', `set an account's health: ${ACCOUNT_HEALTH_STATES.join(', ')} (with --account and --reason)`)
    .option('--account <id>', 'the account to set')
    .option('--reason <text>', 'why (kept in the audit log)')
    .option('--yes', 'confirm --set broken: its buyers are moved to other accounts at once')
    .addHelpText(
      'after',
      '\nExamples:\n  subshare accounts --health --platform 1\n  subshare accounts --health --set broken --account 7 --reason "password changed by the owner" --yes',
    )
    .action(async (options: { health: boolean; platform?: string; set?: string; account?: string; reason?: string; yes?: boolean }) => {
      if (options.set !== undefined) return setHealth(options);
      const platformId = options.platform === undefined ? undefined : positiveInteger('--platform', options.platform);
      await runOnce({ withoutJobs: true }, async ({ container }) => {
        const entries = await container.get(AccountHealthFlow).list(platformId);
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

async function setHealth(options: { set?: string; account?: string; reason?: string; yes?: boolean }): Promise<void> {
  const state = options.set as AccountHealthState;
  if (!ACCOUNT_HEALTH_STATES.includes(state))
    throw new ValidationError(`--set must be one of ${ACCOUNT_HEALTH_STATES.join(', ')}.`, undefined, 'invalid_argument');
  const accountId = positiveInteger('--account', options.account);
  const reason = (options.reason ?? '').trim();
  if (!reason) throw new ValidationError('--reason must say why (it is kept in the audit log).', undefined, 'invalid_argument');
  if (state === 'broken' && !options.yes)
    throw new ValidationError(
      `Nothing changed: marking account ${accountId} broken moves its buyers to other accounts at once; run again with --yes.`,
      undefined,
      'confirmation_required',
    );
  // With jobs: a broken account's move job is sent in the same transaction, for the workers.
  await runOnce({}, async ({ container }) => {
    const flow = container.get(AccountHealthFlow);
    const set = await flow.setHealth({ label: 'cli' }, { accountId, state, reason });
    console.log(`Account ${set.id} is ${set.state} since ${utc(set.since)}: ${reason}.${state === 'broken' ? ' Its buyers are being moved.' : ''}`);
  });
}
