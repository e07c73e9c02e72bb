import { Command } from 'commander';
import { validate, AccountsService } from '@subshare/core';
import { subscriptions } from '@subshare/core/wire';
import { runOnce } from '../context.js';
import { readSecret, readStandardInput, refuseOnCommandLine } from '../secret-input.js';

const PASSWORD = {
  what: 'password',
  env: 'SUBSHARE_PASSWORD',
  stdinFlag: '--password-stdin',
  prompt: "The account's password (6 to 18 characters)",
  confirm: true,
};

/** The operator's `POST /api/subscribe/insert`: same rules, same audit trail (actor "cli"). */
export const createAccountCommand = () =>
  refuseOnCommandLine(
    new Command('create-account')
      .description(
        'add a shared platform account (login e-mail, password, slots, forwarding e-mail); the password (asked for, or SUBSHARE_PASSWORD, or --password-stdin) is stored encrypted',
      )
      .requiredOption('--platform <id>', 'the platform id')
      .requiredOption('--email <email>', 'the login e-mail of the account')
      .option('--password-stdin', 'read the account password from standard input (else SUBSHARE_PASSWORD, else it is asked for on the terminal)')
      .requiredOption('--slots <n>', 'how many profile slots the account has, 1 to 20')
      .requiredOption('--forward <email>', 'the forwarding e-mail')
      .action(async (options: { platform: string; email: string; passwordStdin?: boolean; slots: string; forward: string }) => {
        const password = (await readSecret(PASSWORD, options.passwordStdin ? await readStandardInput() : undefined))!;
        // The same rules as POST /api/subscribe/insert, on the options as typed.
        const input = validate(subscriptions.accountBody, {
          platformId: options.platform,
          email: options.email,
          password,
          slotsCount: options.slots,
          femail: options.forward,
        });
        // With the job queue: the new account's `account-created` event lets waiting orders be activated.
        await runOnce({}, async ({ container }) => {
          const account = await container.get(AccountsService).createAccount({ label: 'cli' }, input);
          console.log(
            `Created account ${account.id} on platform ${account.platformId}: ${account.email}, ${account.slotsCount} slot(s), ` +
              `forwarding to ${account.femail}, ${account.mailboxId ? `mailbox ${account.mailboxId}` : 'no mailbox of ours'}.`,
          );
        });
      }),
    '--password <password>',
    'Set SUBSHARE_PASSWORD, use --password-stdin, or leave it out to be asked.',
  );
