/** Promotion codes (issue 37; beyond the spec): admins create, change and list codes; served by modules/promotions/promotions.service.ts. */
import { declare } from '../declare.js';
import * as promotions from '../promotions.js';

const SERVICE = 'core/src/modules/promotions/promotions.service.ts';
const TERMS =
  'A code is a percentage (`percentOff`, 1–99) or fixed amounts per currency (`amounts`, major units; a currency left out is not served), with an optional window (`startsAt`, `endsAt`), a total limit (held by the database when buyers race), a per-buyer limit (default 1), first order only (no earlier paid order of the buyer), and some platforms or durations only. Codes are case-insensitive (kept upper case). A discount never makes an order free: it is at most the subtotal less the smallest unit (0.01 EUR, 1 KRW). Audited.';

export const createPromo = declare({
  operationId: 'createPromo',
  method: 'post',
  path: '/api/promo/create',
  access: 'admin',
  tag: 'staff',
  extra: true,
  summary: 'Create a promotion code',
  description: `${TERMS} 409 \`promo_code_taken\` when the code exists (in any case).`,
  body: promotions.createPromoBody,
  answer: promotions.promoCode,
  errors: ['promo_code_taken'],
  servedBy: SERVICE,
});

export const updatePromo = declare({
  operationId: 'updatePromo',
  method: 'post',
  path: '/api/promo/update',
  access: 'admin',
  tag: 'staff',
  extra: true,
  summary: 'Change or deactivate a promotion code',
  description: `The fields given replace the code's; \`active: false\` deactivates it (buyers are then told it does not exist; orders that carry it keep their discount). A total limit below the live redemptions is refused. ${TERMS}`,
  body: promotions.updatePromoBody,
  answer: promotions.promoCode,
  errors: ['promo_not_found'],
  servedBy: SERVICE,
});

export const listPromos = declare({
  operationId: 'listPromos',
  method: 'get',
  path: '/api/promo/list',
  access: 'admin',
  tag: 'staff',
  extra: true,
  summary: 'Every promotion code with its redemptions and the discount granted',
  description:
    '`redeemed`: the orders that carry the code, paid or still payable (what the total limit counts; an order that expires unpaid gives its redemption back). `paidRedemptions` and `granted` (per currency): the paid orders (paid, completed or refunded) and the discount they got.',
  answer: promotions.promoList,
  errors: [],
  servedBy: 'core/src/flows/promo-code.flow.ts',
});
