/**
 * Staff e-mail calls: send one of the e-mail kinds to a user, read the outbox (codes masked,
 * each e-mail read audited), retry a failed e-mail.
 */
import type { Container } from 'inversify';
import { NotificationsService, SendEmailFlow } from '@subshare/core';
import { calls } from '@subshare/core/wire';
import { auditActor } from '../middleware/auth.js';
import { serializeOutboxEmail, serializeOutboxPage } from '../serializers/email.serializer.js';
import { bind, type Call } from './call.js';

export function emailCalls(container: Container): Call[] {
  const notifications = container.get(NotificationsService);
  const sendEmail = container.get(SendEmailFlow);
  return [
    bind(calls.email.sendEmail, ({ body, context, req, res }) => sendEmail.send(auditActor(req, res), body, context)),
    bind(calls.email.listOutbox, async ({ query }) => serializeOutboxPage(await notifications.listOutbox(query))),
    bind(calls.email.getOutboxEmail, async ({ params, req, res }) => serializeOutboxEmail(await notifications.getOutboxEmail(params.id, auditActor(req, res)))),
    bind(calls.email.retryOutboxEmail, ({ body, req, res }) => notifications.retry(body.id, auditActor(req, res))),
  ];
}
