import { Model } from 'objection';

/** A promotion code staff run (table `promo_codes`). */
export class PromoCodeModel extends Model {
  static override tableName = 'promo_codes';
  id!: number;
  /** Upper case: codes are case-insensitive. */
  code!: string;
  percent_off!: number | null;
  amount_eur_minor!: number | null;
  amount_krw_minor!: number | null;
  starts_at!: Date | null;
  ends_at!: Date | null;
  total_limit!: number | null;
  per_buyer_limit!: number | null;
  first_order_only!: boolean;
  platform_ids!: number[] | null;
  duration_ids!: number[] | null;
  active!: boolean;
  /** Live redemptions; the database keeps it at most `total_limit`. */
  redeemed!: number;
  /** Staff's own words about the code (what it is for). */
  note!: string | null;
  created_at!: Date;
  updated_at!: Date;
}

/** A code on an order (table `promo_redemptions`); released when the order expires unpaid. */
export class PromoRedemptionModel extends Model {
  static override tableName = 'promo_redemptions';
  id!: number;
  promo_code_id!: number;
  order_id!: number;
  user_id!: number;
  currency!: string;
  discount_minor!: number;
  created_at!: Date;
  released_at!: Date | null;
}

export type PromoCodeRow = Omit<PromoCodeModel, keyof Model>;
export type PromoRedemptionRow = Omit<PromoRedemptionModel, keyof Model>;
