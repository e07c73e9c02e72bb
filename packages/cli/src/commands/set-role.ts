import { Command, Option } from 'commander';
import { ROLES, IdentityService, type RoleName } from '@subshare/core';
import { runOnce } from '../context.js';

export const setRoleCommand = () =>
  new Command('set-role')
    .description("change a user's role (user, moderator or admin); takes effect on their next request")
    .requiredOption('--email <email>', "the user's e-mail address")
    .addOption(new Option('--role <role>', 'the new role').choices(Object.keys(ROLES)).makeOptionMandatory())
    .action(async (options: { email: string; role: RoleName }) => {
      await runOnce({ withoutJobs: true }, async ({ container }) => {
        // The staff page's rule and audit (`user.role`), with the operator tool as the actor.
        const change = await container.get(IdentityService).setRole({ label: 'cli' }, { email: options.email.trim().toLowerCase(), role: ROLES[options.role] });
        console.log(change.changed ? `${change.email} is now ${options.role}.` : `${change.email} is ${options.role} already.`);
      });
    });
