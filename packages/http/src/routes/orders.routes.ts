/**
 * Order calls: a verified buyer places an order, priced on the server from the catalog
 * (core's OrdersService); a buyer reads their own order, staff any.
 */
import type { Container } from 'inversify';
import { TOKENS, type AppConfig, NamedOrdersFlow, PromoCodeFlow } from '@subshare/core';
import { calls } from '@subshare/core/wire';
import { chooseCurrency } from '../middleware/visitor.js';
import { bind, type Call } from './call.js';
import { orderAnswer } from './order-answer.js';

export function ordersCalls(container: Container): Call[] {
  const promo = container.get(PromoCodeFlow);
  const answer = orderAnswer(container);
  const config = container.get<AppConfig>(TOKENS.Config);
  const namedOrders = container.get(NamedOrdersFlow);
  return [
    bind(calls.orders.createOrder, async ({ body, user, req, context }) => {
      const order = await promo.createOrder(user, body, chooseCurrency(req, config), context);
      return answer(order, user);
    }),
    bind(calls.orders.getOrder, async ({ query, user }) => {
      const order = await namedOrders.getOrder(user, query);
      return answer(order, user);
    }),
    bind(calls.orders.applyPromo, async ({ body, user, context }) => {
      const order = await promo.applyToOrder(user, body, context);
      return answer(order, user);
    }),
  ];
}
