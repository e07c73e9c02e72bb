/** The CLI's command list: main.ts registers it, scripts/docs.ts documents it. */
import { accountsCommand } from './commands/accounts.js';
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

/** Every command, in the order `subshare --help` lists them (docs/cli.md is generated from this list). */
export const COMMANDS = [
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
