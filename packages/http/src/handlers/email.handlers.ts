import type { Request, Response } from 'express';
import type { Container } from 'inversify';
import * as yup from 'yup';
import { FLOWS, NOTIFICATIONS, type NotificationsService, type OutboxStatus, type SendEmailFlow } from '@subshare/core';
import { auditActor, requestContext } from '../middleware/auth.js';
import { id, parse } from '../schemas/parse.js';

const outboxQuery = yup.object({
  page: yup.number().typeError('page must be a number').integer().min(1).default(1),
  limit: yup.number().typeError('limit must be a number').integer().min(1).max(100).default(20),
  status: yup.string().oneOf(['pending', 'sent', 'failed', 'kept']),
  userId: id('userId'),
});

export function emailHandlers(container: Container) {
  const notifications = container.get<NotificationsService>(NOTIFICATIONS.Service);
  const sendEmail = container.get<SendEmailFlow>(FLOWS.SendEmail);
  return {
    /** GET /api/email/outbox (staff): the e-mails written, newest first */
    outbox: (req: Request) => {
      const query = parse(outboxQuery, req.query);
      return notifications.listOutbox({ ...query, status: query.status as OutboxStatus | undefined });
    },
    /** GET /api/email/outbox/:id (staff): one e-mail with its bodies */
    outboxEmail: (req: Request, res: Response) =>
      notifications.getOutboxEmail(parse(yup.object({ id: id('id').required() }), req.params).id, auditActor(req, res)),
    /**
     * POST /api/email/sendemail { userId, emailType } (staff) → { id, kind, kindName, to, userId, languageId, repeated }:
     * one e-mail of that kind to the user; the same request within a minute answers the first e-mail (`repeated: true`)
     */
    sendEmail: (req: Request, res: Response) => sendEmail.send(auditActor(req, res), req.body, requestContext(req)),
  };
}
