import type { Request, Response } from 'express';
import type { Container } from 'inversify';
import { FLOWS, ORDERS, type ActivationFlow, type OrdersService, type ReplacementFlow, type UserPanelFlow } from '@subshare/core';
import { auditActor, currentUser } from '../middleware/auth.js';
import { serializeActivation, serializePanel, serializeReplacement } from '../serializers/subscription.serializer.js';

export function subscriptionHandlers(container: Container) {
  const panel = container.get<UserPanelFlow>(FLOWS.UserPanel);
  const activation = container.get<ActivationFlow>(FLOWS.Activation);
  const replacement = container.get<ReplacementFlow>(FLOWS.Replacement);
  const orders = container.get<OrdersService>(ORDERS.Service);

  return {
    /** GET /api/user/getuserpanel?id&languageId: the caller's panel (staff: anyone's, credential reads audited) */
    panel: async (req: Request, res: Response) => serializePanel(await panel.panel(currentUser(res), req.query, auditActor(req, res))),
    /** POST /api/order/setinvatiotaionemail { email, orderId } → { email }; read-only once set */
    setInvitationEmail: (req: Request, res: Response) => orders.setInvitationEmail(currentUser(res), req.body),
    /** POST /api/webhook/activatesubscribe { orderId } (staff): a waiting order activated now */
    activate: async (req: Request, res: Response) => serializeActivation(await activation.activateNow(auditActor(req, res), req.body)),
    /** POST /api/webhook/replacesubscribe { subscribeId, orderId } (staff): moved to another account's free slot */
    replace: async (req: Request, res: Response) => serializeReplacement(await replacement.replace(auditActor(req, res), req.body)),
  };
}
