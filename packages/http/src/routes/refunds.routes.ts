/**
 * Refunds (admins only: money leaves the shop, so moderators, who run slots and answer buyers,
 * cannot send it; they see refunded orders in the lists). The policy and the provider calls are
 * the refund flow's (core/src/flows/refund.flow.ts).
 */
import type { Container } from 'inversify';
import { RefundFlow } from '@subshare/core';
import { calls } from '@subshare/core/wire';
import { auditActor } from '../middleware/auth.js';
import { serializeRefundQuote, serializeRefundResult } from '../serializers/refund.serializer.js';
import { bind, type Call } from './call.js';

export function refundsCalls(container: Container): Call[] {
  const refunds = container.get(RefundFlow);
  return [
    bind(calls.refunds.getRefundQuote, async ({ query }) => serializeRefundQuote(await refunds.quote(query.orderId))),
    bind(calls.refunds.refundOrder, async ({ body, req, res }) => serializeRefundResult(await refunds.refund(auditActor(req, res), body))),
  ];
}
