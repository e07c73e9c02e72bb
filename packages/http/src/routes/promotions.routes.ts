/** Promotion codes (issue 37): admins create, change and list them; each handler is one core call. */
import type { Container } from 'inversify';
import { CURRENCIES, PromoCodeFlow, PromotionsService, toMajorUnits, type PromoCodeView } from '@subshare/core';
import { calls, type promotions } from '@subshare/core/wire';
import { auditActor } from '../middleware/auth.js';
import { bind, type Call } from './call.js';

function serializePromo(view: PromoCodeView): promotions.PromoCodeAnswer {
  const amounts = (list: PromoCodeView['amounts']) => list.map((amount) => ({ currencyCode: CURRENCIES[amount.currency].code, amount: toMajorUnits(amount) }));
  return {
    id: view.id,
    code: view.code,
    active: view.active,
    percentOff: view.percentOff,
    amounts: amounts(view.amounts),
    startsAt: view.startsAt?.toISOString() ?? null,
    endsAt: view.endsAt?.toISOString() ?? null,
    totalLimit: view.totalLimit,
    perBuyerLimit: view.perBuyerLimit,
    firstOrderOnly: view.firstOrderOnly,
    platformIds: view.platformIds,
    durationIds: view.durationIds,
    note: view.note,
    redeemed: view.redeemed,
    paidRedemptions: view.paidRedemptions,
    granted: amounts(view.granted),
    createdDate: view.createdAt.toISOString(),
    updatedDate: view.updatedAt.toISOString(),
  };
}

export function promotionsCalls(container: Container): Call[] {
  const service = container.get(PromotionsService);
  const flow = container.get(PromoCodeFlow);
  return [
    bind(calls.promotions.createPromo, async ({ body, req, res }) => serializePromo(await service.create(auditActor(req, res), body))),
    bind(calls.promotions.updatePromo, async ({ body, req, res }) => serializePromo(await service.update(auditActor(req, res), body))),
    bind(calls.promotions.listPromos, async () => (await flow.list()).map(serializePromo)),
  ];
}
