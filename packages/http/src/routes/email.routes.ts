/**
 * Staff e-mail calls: send one of the e-mail kinds to a user, read the outbox (codes masked,
 * each e-mail read audited), retry a failed e-mail.
 */
import type { Container } from 'inversify';
import { FLOWS, NOTIFICATIONS, type NotificationsService, type SendEmailFlow } from '@subshare/core';
import * as wire from '@subshare/core/wire';
import { auditActor } from '../middleware/auth.js';
import { serializeOutboxEmail, serializeOutboxPage } from '../serializers/email.serializer.js';
import { call, type Call } from './call.js';

export function emailCalls(container: Container): Call[] {
  const notifications = container.get<NotificationsService>(NOTIFICATIONS.Service);
  const sendEmail = container.get<SendEmailFlow>(FLOWS.SendEmail);
  const { email: schemas } = wire;
  return [
    call({
      method: 'post',
      path: '/api/email/sendemail',
      access: 'staff',
      tag: 'e-mail',
      summary: 'Send one of the e-mail kinds (0–9) to a user',
      description:
        "In the user's language; the same user and kind within a minute answers the first e-mail (`repeated: true`). 404 `user_not_found`, " +
        "409 when the kind's data is missing, 429 for a second code within a minute (kind 5); audited as `email.send`.",
      body: schemas.sendEmailBody,
      answer: schemas.sentEmailAnswer,
      handler: ({ body, context, req, res }) => sendEmail.send(auditActor(req, res), body, context),
    }),
    call({
      method: 'get',
      path: '/api/email/outbox',
      access: 'staff',
      tag: 'e-mail',
      summary: 'The e-mails written, newest first',
      extra: true,
      query: schemas.outboxQuery,
      answer: schemas.outboxPageAnswer,
      handler: async ({ query }) => serializeOutboxPage(await notifications.listOutbox(query)),
    }),
    call({
      method: 'get',
      path: '/api/email/outbox/:id',
      access: 'staff',
      tag: 'e-mail',
      summary: 'One e-mail with its bodies (audited)',
      description: 'A one-time code is masked; 404 `email_not_found`.',
      extra: true,
      params: schemas.outboxEmailParams,
      answer: schemas.outboxEmailAnswer,
      handler: async ({ params, req, res }) => serializeOutboxEmail(await notifications.getOutboxEmail(params.id, auditActor(req, res))),
    }),
    call({
      method: 'post',
      path: '/api/email/outbox/retry',
      access: 'staff',
      tag: 'e-mail',
      summary: 'Try a failed e-mail again (audited)',
      description:
        'Only a failed e-mail is queued again (audited as `email.retry`); one already waiting for delivery answers `queued: false` and nothing happens, ' +
        'so a double click sends it once. 404 `email_not_found`, 409 `email_not_failed` (sent or kept), 409 `smtp_not_configured`.',
      extra: true,
      body: schemas.outboxRetryBody,
      answer: schemas.outboxRetryAnswer,
      handler: ({ body, req, res }) => notifications.retry(body.id, auditActor(req, res)),
    }),
  ];
}
