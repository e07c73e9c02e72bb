import { Command } from 'commander';
import { IdentityService } from '@subshare/core';
import { runOnce } from '../context.js';
import { readSecret, readStandardInput, refuseOnCommandLine } from '../secret-input.js';

const PASSWORD = {
  what: 'password',
  env: 'SUBSHARE_PASSWORD',
  stdinFlag: '--password-stdin',
  prompt: "The admin's password (8 to 18 characters)",
  confirm: true,
};

export const createAdminCommand = () =>
  refuseOnCommandLine(
    new Command('create-admin')
      .description('create an admin, or make an existing user admin with a new password (asked for, or SUBSHARE_PASSWORD, or --password-stdin)')
      .requiredOption('--email <email>', 'the admin e-mail address')
      .option('--password-stdin', 'read the password from standard input (else SUBSHARE_PASSWORD, else it is asked for on the terminal)')
      .action(async (options: { email: string; passwordStdin?: boolean }) => {
        const password = (await readSecret(PASSWORD, options.passwordStdin ? await readStandardInput() : undefined))!;
        await runOnce({ withoutJobs: true }, async ({ container }) => {
          const result = await container.get(IdentityService).createAdmin({ email: options.email, password });
          console.log(result.created ? `Created admin ${result.email}.` : `${result.email} is now an admin with the new password.`);
        });
      }),
    '--password <password>',
    'Set SUBSHARE_PASSWORD, use --password-stdin, or leave it out to be asked.',
  );
