/** Order calls: a verified buyer places an order, priced on the server; a buyer reads their own order, staff any. */
import { declare } from '../declare.js';
import * as orders from '../orders.js';

export const createOrder = declare({
  operationId: 'createOrder',
  method: 'post',
  path: '/api/order/insert',
  access: 'verified',
  tag: 'orders',
  summary: 'Create an order, priced on the server',
  description:
    "The buyer is the token's user and the price the catalog's sale price, whatever the body says. Without currency or currencyId, the visitor's country decides (KRW in Korea, else EUR).",
  body: orders.insertOrderBody,
  answer: orders.order,
  errors: ['platform_not_found', 'platform_off_sale', 'option_unavailable', 'price_unavailable', 'method_unavailable'],
  servedBy: 'core/src/modules/orders/orders.service.ts',
});

export const getOrder = declare({
  operationId: 'getOrder',
  method: 'get',
  path: '/api/order/getorder',
  access: 'user',
  tag: 'orders',
  summary: 'One of your orders (staff: any)',
  description: "404 `order_not_found` for another buyer's order. With `languageId` (beyond the spec), what it bought is named in that language.",
  query: orders.getOrderQuery,
  answer: orders.order,
  errors: ['order_not_found'],
  servedBy: 'core/src/flows/named-orders.flow.ts',
});
