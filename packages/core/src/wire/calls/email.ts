/** Staff e-mail calls: send one of the e-mail kinds, read the outbox, retry a failed e-mail. */
import { declare } from '../declare.js';
import * as email from '../email.js';

const NOTIFICATIONS = 'core/src/modules/notifications/notifications.service.ts';

export const sendEmail = declare({
  operationId: 'sendEmail',
  method: 'post',
  path: '/api/email/sendemail',
  access: 'staff',
  tag: 'e-mail',
  summary: 'Send one of the e-mail kinds (0–9) to a user',
  description:
    "In the user's language; the same user and kind within a minute answers the first e-mail (`repeated: true`). 404 `user_not_found`, " +
    "409 when the kind's data is missing, 429 for a second code within a minute (kind 5); audited as `email.send`.",
  body: email.sendEmailBody,
  answer: email.sentEmailAnswer,
  errors: [
    'user_not_found',
    'already_verified',
    'email_in_progress',
    'no_active_subscription',
    'no_ended_subscription',
    'no_refunded_order',
    'no_replacement',
    'no_waiting_order',
    'staff_only_email',
    'code_requested_recently',
    'too_many_codes_today',
  ],
  servedBy: 'core/src/flows/send-email.flow.ts',
});

export const listOutbox = declare({
  operationId: 'listOutbox',
  method: 'get',
  path: '/api/email/outbox',
  access: 'staff',
  tag: 'e-mail',
  summary: 'The e-mails written, newest first',
  extra: true,
  query: email.outboxQuery,
  answer: email.outboxPageAnswer,
  errors: [],
  servedBy: NOTIFICATIONS,
});

export const getOutboxEmail = declare({
  operationId: 'getOutboxEmail',
  method: 'get',
  path: '/api/email/outbox/:id',
  access: 'staff',
  tag: 'e-mail',
  summary: 'One e-mail with its bodies (audited)',
  description: 'A one-time code is masked; 404 `email_not_found`.',
  extra: true,
  params: email.outboxEmailParams,
  answer: email.outboxEmailAnswer,
  errors: ['email_not_found'],
  servedBy: NOTIFICATIONS,
});

export const retryOutboxEmail = declare({
  operationId: 'retryOutboxEmail',
  method: 'post',
  path: '/api/email/outbox/retry',
  access: 'staff',
  tag: 'e-mail',
  summary: 'Try a failed e-mail again (audited)',
  description:
    'Only a failed e-mail is queued again (audited as `email.retry`); one already waiting for delivery answers `queued: false` and nothing happens, ' +
    'so a double click sends it once. 404 `email_not_found`, 409 `email_not_failed` (sent or kept), 409 `smtp_not_configured`.',
  extra: true,
  body: email.outboxRetryBody,
  answer: email.outboxRetryAnswer,
  errors: ['email_not_found', 'email_not_failed', 'smtp_not_configured'],
  servedBy: NOTIFICATIONS,
});
