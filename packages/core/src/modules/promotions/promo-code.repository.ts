import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { Model } from 'objection';
import { isUniqueViolation } from '../../shared/errors.js';
import { TOKENS } from '../../shared/tokens.js';
import { PromoCodeModel, PromoRedemptionModel, type PromoCodeRow } from './models/promo-code.model.js';

/** The check that holds a code's total limit under concurrency (migration 20261216000100). */
const TOTAL_LIMIT_CHECK = 'promo_codes_total_limit';
const PG_CHECK_VIOLATION = '23514';
const UNIQUE_CODE = 'promo_codes_code_unique';
const ONE_PER_ORDER = 'promo_redemptions_one_per_order';

export type NewPromoCode = Omit<PromoCodeRow, 'id' | 'redeemed' | 'created_at' | 'updated_at'>;

@injectable()
export class PromoCodeRepository {
  constructor(@inject(TOKENS.Knex) private readonly knex: Knex) {}

  /** A new code; undefined when the code is taken. */
  async create(row: NewPromoCode, now: Date, trx?: Knex.Transaction): Promise<PromoCodeModel | undefined> {
    try {
      return await PromoCodeModel.query(trx ?? this.knex).insertAndFetch({ ...row, redeemed: 0, created_at: now, updated_at: now });
    } catch (error) {
      if (isUniqueViolation(error, UNIQUE_CODE)) return undefined;
      throw error;
    }
  }

  async update(id: number, patch: Partial<NewPromoCode>, now: Date, trx: Knex.Transaction): Promise<PromoCodeModel> {
    return PromoCodeModel.query(trx).patchAndFetchById(id, { ...patch, updated_at: now });
  }

  async findById(id: number, trx?: Knex.Transaction): Promise<PromoCodeModel | undefined> {
    return PromoCodeModel.query(trx ?? this.knex).findById(id);
  }

  /** Locks the code's row for a staff change (a concurrent redemption waits, and is judged by the new terms). */
  async lockById(id: number, trx: Knex.Transaction): Promise<PromoCodeModel | undefined> {
    return PromoCodeModel.query(trx).findById(id).forUpdate();
  }

  /** By its upper-case form. */
  async findByCode(code: string, trx?: Knex.Transaction): Promise<PromoCodeModel | undefined> {
    return PromoCodeModel.query(trx ?? this.knex).findOne({ code });
  }

  /** Every code, newest first. */
  async all(): Promise<PromoCodeModel[]> {
    return PromoCodeModel.query(this.knex).orderBy('id', 'desc');
  }

  /**
   * One more redemption of the code. The row lock this takes lasts until the caller's transaction
   * ends, so redemptions of one code take turns from here. False when the database refuses it:
   * the code's total limit is reached (its check constraint, not only the rule).
   */
  async countRedemption(id: number, trx: Knex.Transaction): Promise<boolean> {
    try {
      // A savepoint: a refused update must not abort the caller's transaction.
      await trx.transaction(async (inner) => {
        await inner('promo_codes').where({ id }).increment('redeemed', 1);
      });
      return true;
    } catch (error) {
      const driver = error as { code?: string; constraint?: string };
      if (driver.code === PG_CHECK_VIOLATION && driver.constraint === TOTAL_LIMIT_CHECK) return false;
      throw error;
    }
  }

  /** The orders (other than `orderId`) carrying the buyer's live redemptions of the code, oldest redemption first. */
  async liveOrdersOf(promoCodeId: number, userId: number, orderId: number, trx: Knex.Transaction): Promise<number[]> {
    const ids = await trx('promo_redemptions')
      .where({ promo_code_id: promoCodeId, user_id: userId })
      .whereNot({ order_id: orderId })
      .whereNull('released_at')
      .orderBy('id')
      .pluck<Array<number | string>>('order_id');
    return ids.map(Number);
  }

  /** The live redemption of an order, if any. */
  async liveOfOrder(orderId: number, trx?: Knex.Transaction): Promise<PromoRedemptionModel | undefined> {
    return PromoRedemptionModel.query(trx ?? this.knex)
      .findOne({ order_id: orderId })
      .whereNull('released_at');
  }

  /** Records a redemption; false when the order has a live one already (one code per order). */
  async insertRedemption(row: Omit<PromoRedemptionModel, 'id' | 'released_at' | keyof Model>, trx: Knex.Transaction): Promise<boolean> {
    try {
      await trx.transaction(async (inner) => {
        await inner('promo_redemptions').insert(row);
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error, ONE_PER_ORDER)) return false;
      throw error;
    }
  }

  /** Releases the order's live redemption and gives its count back to the code; the released redemption, if there was one. */
  async release(orderId: number, now: Date, trx: Knex.Transaction): Promise<{ promoCodeId: number } | undefined> {
    const [released] = await trx('promo_redemptions')
      .where({ order_id: orderId })
      .whereNull('released_at')
      .update({ released_at: now })
      .returning<Array<{ promo_code_id: number }>>('promo_code_id');
    if (!released) return undefined;
    await trx('promo_codes').where({ id: released.promo_code_id }).decrement('redeemed', 1);
    return { promoCodeId: released.promo_code_id };
  }

  /** Every live redemption (staff's list adds up those of paid orders). */
  async liveRedemptions(): Promise<Array<Pick<PromoRedemptionModel, 'promo_code_id' | 'order_id' | 'currency' | 'discount_minor'>>> {
    return this.knex('promo_redemptions').whereNull('released_at').orderBy('id').select('promo_code_id', 'order_id', 'currency', 'discount_minor');
  }
}
