/**
 * The Order answer of one order for its reader: with the credit applied (its paid or open
 * payment's) and, for the holder, the credit a checkout could spend (issue 37). Staff reading
 * someone else's order get 0 there: the credit is the holder's to spend, not theirs to see.
 */
import type { Container } from 'inversify';
import { PaymentCredit, PaymentsService, type AuthenticatedUser, type OrderView } from '@subshare/core';
import type { orders } from '@subshare/core/wire';
import { serializeOrder } from '../serializers/order.serializer.js';

export function orderAnswer(container: Container): (order: OrderView, reader: AuthenticatedUser) => Promise<orders.OrderAnswer> {
  const payments = container.get(PaymentsService);
  const paymentCredit = container.get(PaymentCredit);
  return async (order, reader) => {
    const applied = await payments.creditApplied([order.id]);
    const holder = reader.id === order.userId;
    const available = holder ? (await paymentCredit.availableFor(order.id, order.userId, order.total.currency)).amount : 0;
    const methods = payments.availableMethods(order.paymentMethods);
    const minimums = holder ? methods.map((pmId) => ({ pmId, minor: payments.minimumCharge(pmId, order.total.currency) })) : [];
    return serializeOrder(order, methods, applied.get(order.id), available, minimums);
  };
}
