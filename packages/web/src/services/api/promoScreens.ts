/**
 * The promotion codes page (issue 37; admins): list, create, change and deactivate codes. Bearer
 * token on every call; imported by the admin chunk only.
 */
import type { promotions } from '@subshare/core/wire';
import { callApi } from './calls';

/** A code as staff see it, with its redemptions and the discount granted per currency. */
export type PromoCode = promotions.PromoCodeAnswer;
export type CreatePromo = promotions.CreatePromoInput;
export type UpdatePromo = promotions.UpdatePromoInput;

export function listPromos(): Promise<PromoCode[]> {
  return callApi('listPromos', {});
}

/** 409 `promo_code_taken` when the code exists in any case. */
export function createPromo(body: CreatePromo): Promise<PromoCode> {
  return callApi('createPromo', { body });
}

/** The fields given replace the code's; `active: false` deactivates it. */
export function updatePromo(body: UpdatePromo): Promise<PromoCode> {
  return callApi('updatePromo', { body });
}
