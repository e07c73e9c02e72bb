/**
 * Order calls: a verified buyer places an order, priced on the server from the catalog
 * (core's OrdersService); a buyer reads their own order, staff any.
 */
import type { Container } from 'inversify';
import { TOKENS, type AppConfig, NamedOrdersFlow, OrdersService, PaymentsService } from '@subshare/core';
import { calls } from '@subshare/core/wire';
import { chooseCurrency } from '../middleware/visitor.js';
import { serializeOrder } from '../serializers/order.serializer.js';
import { bind, type Call } from './call.js';

export function ordersCalls(container: Container): Call[] {
  const orders = container.get(OrdersService);
  const payments = container.get(PaymentsService);
  const config = container.get<AppConfig>(TOKENS.Config);
  const namedOrders = container.get(NamedOrdersFlow);
  return [
    bind(calls.orders.createOrder, async ({ body, user, req }) => {
      const order = await orders.createOrder(user, body, chooseCurrency(req, config));
      return serializeOrder(order, payments.availableMethods(order.paymentMethods));
    }),
    bind(calls.orders.getOrder, async ({ query, user }) => {
      const order = await namedOrders.getOrder(user, query);
      const credit = await payments.creditApplied([order.id]);
      return serializeOrder(order, payments.availableMethods(order.paymentMethods), credit.get(order.id));
    }),
  ];
}
