/**
 * Order calls: a verified buyer places an order, priced on the server from the catalog
 * (core's OrdersService); a buyer reads their own order, staff any.
 */
import type { Container } from 'inversify';
import { FLOWS, ORDERS, PAYMENTS, TOKENS, type AppConfig, type NamedOrdersFlow, type OrdersService, type PaymentsService } from '@subshare/core';
import * as wire from '@subshare/core/wire';
import { chooseCurrency } from '../middleware/visitor.js';
import { serializeOrder } from '../serializers/order.serializer.js';
import { call, type Call } from './call.js';

export function ordersCalls(container: Container): Call[] {
  const orders = container.get<OrdersService>(ORDERS.Service);
  const payments = container.get<PaymentsService>(PAYMENTS.Service);
  const config = container.get<AppConfig>(TOKENS.Config);
  const namedOrders = container.get<NamedOrdersFlow>(FLOWS.NamedOrders);
  return [
    call({
      method: 'post',
      path: '/api/order/insert',
      access: 'verified',
      tag: 'orders',
      summary: 'Create an order, priced on the server',
      description:
        "The buyer is the token's user and the price the catalog's sale price, whatever the body says. Without currency or currencyId, the visitor's country decides (KRW in Korea, else EUR).",
      body: wire.orders.insertOrderBody,
      answer: wire.orders.order,
      handler: async ({ body, user, req }) => {
        const order = await orders.createOrder(user, body, chooseCurrency(req, config));
        return serializeOrder(order, payments.availableMethods(order.paymentMethods));
      },
    }),
    call({
      method: 'get',
      path: '/api/order/getorder',
      access: 'user',
      tag: 'orders',
      summary: 'One of your orders (staff: any)',
      description: "404 `order_not_found` for another buyer's order. With `languageId` (beyond the spec), what it bought is named in that language.",
      query: wire.orders.getOrderQuery,
      answer: wire.orders.order,
      handler: async ({ query, user }) => {
        const order = await namedOrders.getOrder(user, query);
        return serializeOrder(order, payments.availableMethods(order.paymentMethods));
      },
    }),
  ];
}
