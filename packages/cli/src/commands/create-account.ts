import { Command } from 'commander';
import { ACCOUNTS, type AccountsService } from '@subshare/core';
import { runOnce } from '../context.js';

/** The operator's `POST /api/subscribe/insert`: same rules, same audit trail (actor "cli"). */
export const createAccountCommand = () =>
  new Command('create-account')
    .description('add a shared platform account (login e-mail, password, slots, forwarding e-mail); the password is stored encrypted')
    .requiredOption('--platform <id>', 'the platform id')
    .requiredOption('--email <email>', 'the login e-mail of the account')
    .requiredOption('--password <password>', 'the account password, 6 to 18 characters')
    .requiredOption('--slots <n>', 'how many profile slots the account has, 1 to 20')
    .requiredOption('--forward <email>', 'the forwarding e-mail')
    .action(async (options: { platform: string; email: string; password: string; slots: string; forward: string }) => {
      // With the job queue: the new account's `account-created` event lets waiting orders be activated.
      await runOnce({}, async ({ container }) => {
        const account = await container
          .get<AccountsService>(ACCOUNTS.Service)
          .createAccount(
            { label: 'cli' },
            { platformId: options.platform, email: options.email, password: options.password, slotsCount: options.slots, femail: options.forward },
          );
        console.log(
          `Created account ${account.id} on platform ${account.platformId}: ${account.email}, ${account.slotsCount} slot(s), ` +
            `forwarding to ${account.femail}, ${account.mailboxId ? `mailbox ${account.mailboxId}` : 'no mailbox of ours'}.`,
        );
      });
    });
