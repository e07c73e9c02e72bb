/**
 * Refunds (admins only: money leaves the shop, so moderators, who run slots and answer buyers,
 * cannot send it; they see refunded orders in the lists). The policy and the provider calls are
 * the refund flow's (core/src/flows/refund.flow.ts).
 */
import type { Container } from 'inversify';
import { FLOWS, type RefundFlow } from '@subshare/core';
import * as wire from '@subshare/core/wire';
import { auditActor } from '../middleware/auth.js';
import { serializeRefundQuote, serializeRefundResult } from '../serializers/refund.serializer.js';
import { call, type Call } from './call.js';

export function refundsCalls(container: Container): Call[] {
  const refunds = container.get<RefundFlow>(FLOWS.Refund);
  const { refunds: schemas } = wire;
  return [
    call({
      method: 'get',
      path: '/api/order/refundquote',
      access: 'admin',
      tag: 'staff',
      summary: 'What refunding the order would give back now under the refund policy, and its refunds so far',
      extra: true,
      query: schemas.refundQuoteQuery,
      answer: schemas.refundQuote,
      handler: async ({ query }) => serializeRefundQuote(await refunds.quote(query.orderId)),
    }),
    call({
      method: 'post',
      path: '/api/order/refund',
      access: 'admin',
      tag: 'staff',
      summary: 'Refund a paid order through the provider that took the money; access ends with it (audited)',
      description:
        'The buyer gets the amount paid less the refund fee. Past the policy window (REFUND_WINDOW_HOURS after payment) it needs `overrideWindow`. ' +
        'CoinPal has no refund call: send the crypto back yourself and give the transfer reference as `manualReference`. ' +
        '409 `refund_in_progress` while another refund of the order is under way, `refund_window_passed`, `order_not_refundable`; ' +
        '503 when the provider cannot be reached (nothing changed). Audited as `order.refund`.',
      extra: true,
      body: schemas.refundBody,
      answer: schemas.refundAnswer,
      handler: async ({ body, req, res }) => serializeRefundResult(await refunds.refund(auditActor(req, res), body)),
    }),
  ];
}
