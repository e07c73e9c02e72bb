/**
 * The buyer's panel: the panel itself, the family-invitation e-mail, and the verification fetch
 * (the household link or login code in the account's mailbox, polled by the panel). Who may
 * read what (the holder, or staff with an audit entry) is decided in core's flows.
 */
import type { Container } from 'inversify';
import { type AuthenticatedUser, OrdersService, ReferralFlow, type RequestContext, UserPanelFlow, VerificationMailFlow } from '@subshare/core';
import { calls } from '@subshare/core/wire';
import type * as wire from '@subshare/core/wire';
import { auditActor, auditActorOf } from '../middleware/auth.js';
import { serializePanel } from '../serializers/subscription.serializer.js';
import { bind, type Call } from './call.js';

export function panelCalls(container: Container): Call[] {
  const panel = container.get(UserPanelFlow);
  const orders = container.get(OrdersService);
  const mailbox = container.get(VerificationMailFlow);
  const referral = container.get(ReferralFlow);
  const readPanel = async ({ user, query, context }: { user: AuthenticatedUser; query: wire.panel.PanelQuery; context: RequestContext }) =>
    serializePanel(await panel.panel(user, query, auditActorOf(user, context)));
  return [
    // Polled by every open panel: answered ahead of Express (front-door.ts).
    bind(calls.panel.getUserPanel, undefined, { plain: readPanel }),
    bind(calls.panel.setInvitationEmail, ({ user, body }) => orders.setInvitationEmail(user, body)),
    bind(calls.panel.getHouseholdLink, ({ user, query, req, res }) => mailbox.householdLink(user, query, auditActor(req, res))),
    bind(calls.panel.getLoginCode, ({ user, query, req, res }) => mailbox.loginCode(user, query, auditActor(req, res))),
    bind(calls.panel.getReferral, ({ user }) => referral.answer(user.id)),
  ];
}
