/**
 * The buyer's panel: the panel itself, the family-invitation e-mail, and the verification fetch
 * (the household link or login code in the account's mailbox, polled by the panel). Who may
 * read what (the holder, or staff with an audit entry) is decided in core's flows.
 */
import type { Container } from 'inversify';
import { FLOWS, ORDERS, type AuthenticatedUser, type OrdersService, type RequestContext, type UserPanelFlow, type VerificationMailFlow } from '@subshare/core';
import * as wire from '@subshare/core/wire';
import { auditActor, auditActorOf } from '../middleware/auth.js';
import { serializePanel } from '../serializers/subscription.serializer.js';
import { call, type Call } from './call.js';

export function panelCalls(container: Container): Call[] {
  const panel = container.get<UserPanelFlow>(FLOWS.UserPanel);
  const orders = container.get<OrdersService>(ORDERS.Service);
  const mailbox = container.get<VerificationMailFlow>(FLOWS.VerificationMail);
  const { panel: schemas } = wire;
  const readPanel = async ({ user, query, context }: { user: AuthenticatedUser; query: wire.panel.PanelQuery; context: RequestContext }) =>
    serializePanel(await panel.panel(user, query, auditActorOf(user, context)));
  const mailboxNote =
    'The slot holder while the subscription is active, or staff for any subscription (audited as `mailbox.read`). Polled by the panel: ' +
    'rate limited per user (429), 409 `wrong_platform_type` or `no_mailbox`, 503 when the mailbox cannot be read.';
  return [
    call({
      method: 'get',
      path: '/api/user/getuserpanel',
      access: 'user',
      tag: 'panel',
      summary: 'Profile, active subscriptions with credentials, incomplete orders (own; staff: anyone, audited)',
      description: "403 for another user's panel unless staff; staff reading another user's credentials is audited as `credentials.reveal`.",
      query: schemas.panelQuery,
      answer: schemas.panelAnswer,
      // Polled by every open panel: answered ahead of Express (front-door.ts).
      plain: readPanel,
    }),
    call({
      method: 'post',
      path: '/api/order/setinvatiotaionemail',
      access: 'user',
      tag: 'panel',
      summary: 'Your platform login e-mail for a family invitation (once, then read-only)',
      description: 'The same e-mail again answers it; another one is 409 `invitation_email_set`.',
      body: schemas.invitationEmailBody,
      answer: schemas.invitationEmailAnswer,
      handler: ({ user, body }) => orders.setInvitationEmail(user, body),
    }),
    call({
      method: 'get',
      path: '/api/email/getnvlink',
      access: 'user',
      tag: 'panel',
      summary: "The newest household / travel verification link in the account's mailbox (video platforms)",
      description: mailboxNote,
      query: schemas.verificationMailQuery,
      answer: schemas.householdLinkAnswer,
      handler: ({ user, query, req, res }) => mailbox.householdLink(user, query, auditActor(req, res)),
    }),
    call({
      method: 'get',
      path: '/api/email/getchgptcode',
      access: 'user',
      tag: 'panel',
      summary: "The newest six-digit login code in the account's mailbox (AI-chat platforms)",
      description: mailboxNote,
      query: schemas.verificationMailQuery,
      answer: schemas.loginCodeAnswer,
      handler: ({ user, query, req, res }) => mailbox.loginCode(user, query, auditActor(req, res)),
    }),
  ];
}
