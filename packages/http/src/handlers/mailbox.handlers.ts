import type { Request, Response } from 'express';
import type { Container } from 'inversify';
import { FLOWS, type VerificationMailFlow } from '@subshare/core';
import { auditActor, currentUser } from '../middleware/auth.js';

/** The panel's verification fetch: what reached the account's mailbox. Answers are never cached by the browser or a proxy. */
export function mailboxHandlers(container: Container) {
  const flow = container.get<VerificationMailFlow>(FLOWS.VerificationMail);
  return {
    /** GET /api/email/getnvlink?subscriptionId[&since] → { link } (null until found); video platforms (type 0) */
    householdLink: async (req: Request, res: Response) => {
      res.setHeader('Cache-Control', 'no-store');
      return flow.householdLink(currentUser(res), req.query, auditActor(req, res));
    },
    /** GET /api/email/getchgptcode?subscriptionId[&since] → { code } (null until found); AI-chat platforms (type 8) */
    loginCode: async (req: Request, res: Response) => {
      res.setHeader('Cache-Control', 'no-store');
      return flow.loginCode(currentUser(res), req.query, auditActor(req, res));
    },
  };
}
