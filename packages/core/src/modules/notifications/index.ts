// The notifications module's public face: other modules, http, worker and cli import only this.

export { notificationsModule } from './notifications.module.js';
export { EMAIL_QUEUES as NOTIFICATIONS_QUEUES, type DeliverEmailJobData } from './queues.js';
export {
  EmailDeliveryError,
  NotificationsService,
  type EnqueueResult,
  type DeliveryOutcome,
  type OutboxQuery,
  type OutboxStatus,
  type OutboxEmailSummary,
  type OutboxEmail,
  type OutboxPage,
  type OutboxRetry,
  type OutboxBacklog,
} from './notifications.service.js';
export * from './email-kinds.js';
export { ConsoleMail, CONSOLE_MAIL_BEGIN, CONSOLE_MAIL_END, formatConsoleEmail, type ConsoleEmail } from './console-mail.js';
export {
  renderEmail,
  formatDate as emailDate,
  TEMPLATE_KINDS as EMAIL_TEMPLATE_KINDS,
  type RenderContext as EmailRenderContext,
} from './templates/templates.js';
export type { RenderedEmail } from './templates/layout.js';
