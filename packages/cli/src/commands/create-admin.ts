import { Command } from 'commander';
import { IDENTITY, type IdentityService } from '@subshare/core';
import { runOnce } from '../context.js';

export const createAdminCommand = () =>
  new Command('create-admin')
    .description('create an admin, or make an existing user admin with a new password')
    .requiredOption('--email <email>', 'the admin e-mail address')
    .requiredOption('--password <password>', '8 to 18 characters')
    .action(async (options: { email: string; password: string }) => {
      await runOnce({ withoutJobs: true }, async ({ container }) => {
        const result = await container.get<IdentityService>(IDENTITY.Service).createAdmin(options);
        console.log(result.created ? `Created admin ${result.email}.` : `${result.email} is now an admin with the new password.`);
      });
    });
