/** Order calls: a verified buyer places an order, priced on the server; a buyer reads their own order, staff any. */
import { declare } from '../declare.js';
import * as orders from '../orders.js';
import * as promotions from '../promotions.js';

/** Why a promotion code is refused, one code each (issue 37). */
const PROMO_REFUSALS = [
  'promo_unknown',
  'promo_expired',
  'promo_used_up',
  'promo_not_for_this',
  'promo_first_order_only',
  'promo_already_used',
  'promo_one_per_order',
  'promo_guess_limit',
] as const;

export const createOrder = declare({
  operationId: 'createOrder',
  method: 'post',
  path: '/api/order/insert',
  access: 'verified',
  tag: 'orders',
  summary: 'Create an order, priced on the server',
  description:
    "The buyer is the token's user and the price the catalog's sale price, whatever the body says. Without currency or currencyId, the visitor's country decides (KRW in Korea, else EUR). With `promoCode` (issue 37), the code is applied as `applypromo` does, in the same transaction: a refused code refuses the order with its reason. Without a code, a referred buyer with no paid order gets the welcome discount, on one unpaid order at a time: this order takes it from the buyer's other unpaid orders, which go back to their price (their open checkouts closed or never reused).",
  body: orders.insertOrderBody,
  answer: orders.order,
  errors: ['platform_not_found', 'platform_off_sale', 'option_unavailable', 'price_unavailable', 'method_unavailable', ...PROMO_REFUSALS],
  servedBy: 'core/src/flows/promo-code.flow.ts',
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

export const applyPromo = declare({
  operationId: 'applyPromo',
  method: 'post',
  path: '/api/order/applypromo',
  access: 'verified',
  tag: 'orders',
  extra: true,
  summary: 'Apply a promotion code to your unpaid order',
  description:
    'Issue 37. The server computes the discount (at most the subtotal less the smallest unit: a code never makes an order free) and answers the order at its new price; a welcome discount is replaced. One code per order: the same code again answers the order unchanged, another is 409 `promo_one_per_order`. A checkout left open at a provider for the old amount is closed (Stripe) or never reused. When the per-buyer limit is reached only by the code on other unpaid orders of the same buyer (a currency switch made a new order), the code moves here and those orders go back to their price; a code used on a paid order is 409 `promo_already_used`. Unknown, inactive and not-yet-started codes all answer 404 `promo_unknown`; each such guess counts, per buyer and per address, toward 429 `promo_guess_limit`.',
  body: promotions.applyPromoBody,
  answer: orders.order,
  errors: ['order_not_found', 'order_not_payable', 'provider_unavailable', ...PROMO_REFUSALS],
  servedBy: 'core/src/flows/promo-code.flow.ts',
});
