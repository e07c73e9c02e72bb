// The accounts module's public face: other modules, http, worker and cli import only this.
export { accountsModule } from './accounts.module.js';
export {
  AccountsService,
  type PlatformAccountView,
  type AccountSlots,
  type MailboxView,
  type AccountCredentials,
  type AccountMailboxLogin,
  type CredentialsRotationResult,
} from './accounts.service.js';
export { AccountVoicesService, type ProblemReportView, type PlatformIncidentView } from './account-voices.service.js';
export { AccountHealthService, type AccountHealthView, type AlertMailRecord, type AlertMailView } from './account-health.service.js';
export { RECENT_MAILS_PER_ACCOUNT } from './account-health.service.js';
export { MAILBOX_PASSWORD_LENGTH } from './mailbox-generator.js';
export { ACCOUNT_QUEUES, type AccountCreatedJobData, type AccountHealthMoveJobData } from './queues.js';
