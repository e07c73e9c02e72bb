import { Command } from 'commander';
import { AccountsService } from '@subshare/core';
import { runOnce } from '../context.js';
import { positiveInteger } from '../format.js';

/** The operator's `GET /api/subscribe/createbemail`: a new address on MAILBOX_DOMAIN and a generated password. */
export const createMailboxCommand = () =>
  new Command('create-mailbox')
    .description('make a new mailbox address on MAILBOX_DOMAIN with a generated password, and print both')
    .option('--platform <id>', 'assign it to this platform (otherwise it is offered for every platform)')
    .action(async (options: { platform?: string }) => {
      const platformId = options.platform === undefined ? undefined : positiveInteger('--platform', options.platform);
      await runOnce({ withoutJobs: true }, async ({ container }) => {
        const mailbox = await container.get(AccountsService).createMailbox({ label: 'cli' }, { platformId });
        console.log(
          [
            `Created mailbox ${mailbox.id}${mailbox.platformId ? ` for platform ${mailbox.platformId}` : ' (not assigned to a platform)'}:`,
            `  address:  ${mailbox.email}`,
            `  password: ${mailbox.password}`,
            'Create it on the mail server with exactly these credentials. The password is stored encrypted; staff see it in the admin area.',
          ].join('\n'),
        );
      });
    });
