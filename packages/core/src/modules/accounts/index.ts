// The accounts module's public face: other modules, http, worker and cli import only this.
export { ACCOUNTS, accountsModule } from './accounts.module.js';
export type {
  AccountsService,
  PlatformAccountView,
  AccountSlots,
  MailboxView,
  AccountCredentials,
  AccountMailboxLogin,
  CredentialsRotationResult,
} from './accounts.service.js';
export type { AccountVoicesService, ProblemReportView, PlatformIncidentView } from './account-voices.service.js';
export type { AccountHealthService, AccountHealthView, AlertMailRecord, AlertMailView } from './account-health.service.js';
export { RECENT_MAILS_PER_ACCOUNT } from './account-health.service.js';
export { MAILBOX_PASSWORD_LENGTH } from './mailbox-generator.js';
export { ACCOUNT_QUEUES, type AccountCreatedJobData, type AccountHealthMoveJobData } from './queues.js';
