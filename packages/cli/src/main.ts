/**
 * `subshare <command>`: the operator's tool. Every command builds the same container as the
 * server, so what it does goes through the same rules.
 */
import { accountsCommand } from './commands/accounts.js';
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { ConfigError, DomainError } from '@subshare/core';
import { SHUTDOWN_DEADLINE_MS, stopRequested } from './context.js';
import { activateOrderCommand } from './commands/activate-order.js';
import { backupCommand } from './commands/backup.js';
import { createAccountCommand } from './commands/create-account.js';
import { createAdminCommand } from './commands/create-admin.js';
import { createMailboxCommand } from './commands/create-mailbox.js';
import { expireDueCommand } from './commands/expire-due.js';
import { exportOrdersCommand } from './commands/export-orders.js';
import { listOrdersCommand } from './commands/list-orders.js';
import { migrateCommand } from './commands/migrate.js';
import { refundOrderCommand } from './commands/refund-order.js';
import { renewDueCommand } from './commands/renew-due.js';
import { replaceSubscriptionCommand } from './commands/replace-subscription.js';
import { restoreCommand } from './commands/restore.js';
import { rotateCredentialsKeyCommand } from './commands/rotate-credentials-key.js';
import { seedCommand } from './commands/seed.js';
import { sendEmailCommand } from './commands/send-email.js';
import { serveCommand } from './commands/serve.js';
import { setRoleCommand } from './commands/set-role.js';
import { startCommand } from './commands/start.js';
import { workerCommand } from './commands/worker.js';

const COMMANDS = [
  startCommand,
  serveCommand,
  workerCommand,
  migrateCommand,
  seedCommand,
  createAdminCommand,
  setRoleCommand,
  createAccountCommand,
  createMailboxCommand,
  accountsCommand,
  rotateCredentialsKeyCommand,
  activateOrderCommand,
  listOrdersCommand,
  exportOrdersCommand,
  replaceSubscriptionCommand,
  refundOrderCommand,
  sendEmailCommand,
  expireDueCommand,
  renewDueCommand,
  backupCommand,
  restoreCommand,
];

/** The product's version, from the root package.json (two levels above both src/ and dist/). */
const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };

const program = new Command('subshare')
  .description('subshare: a shop for shared subscriptions')
  .version(version, '-V, --version', 'print the version')
  .showHelpAfterError();
for (const command of COMMANDS) program.addCommand(command());

try {
  await program.parseAsync(process.argv);
} catch (error) {
  // Cut short by a signal: the shutdown (context.ts) exits once what is open has stopped.
  if (stopRequested()) await new Promise((resolve) => setTimeout(resolve, SHUTDOWN_DEADLINE_MS + 1_000));
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(78);
  }
  if (error instanceof DomainError) {
    const details = error.errors ? ` (${Object.values(error.errors).join('; ')})` : '';
    console.error(`${error.message}${details}`);
    process.exit(1);
  }
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
