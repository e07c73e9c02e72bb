/** Refunds (admins only), served by flows/refund.flow.ts. */
import { declare } from '../declare.js';
import * as refunds from '../refunds.js';

export const getRefundQuote = declare({
  operationId: 'getRefundQuote',
  method: 'get',
  path: '/api/order/refundquote',
  access: 'admin',
  tag: 'staff',
  summary: 'What refunding the order would give back now under the refund policy, and its refunds so far',
  extra: true,
  query: refunds.refundQuoteQuery,
  answer: refunds.refundQuote,
  errors: ['order_not_found'],
  servedBy: 'core/src/flows/refund.flow.ts',
});

export const refundOrder = declare({
  operationId: 'refundOrder',
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
  body: refunds.refundBody,
  answer: refunds.refundAnswer,
  errors: [
    'order_not_found',
    'order_not_refundable',
    'refund_window_passed',
    'refund_in_progress',
    'refund_not_possible',
    'refund_refused',
    'payssion_refund_refused',
    'stripe_idempotency',
    'refund_outcome_unknown',
    'stripe_unavailable',
    'payssion_unavailable',
  ],
  servedBy: 'core/src/flows/refund.flow.ts',
});
