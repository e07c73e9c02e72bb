/**
 * Promotion codes: staff run them (create, change, deactivate, list with what they gave), and a
 * buyer's order redeems one inside the transaction that lowers the order's price (the flow that
 * joins orders and codes: flows/promo-code.flow.ts). The rule is `discountFor`; the total limit
 * is held by the database as well.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { Clock } from '../../shared/clock.js';
import { fail, TooManyRequestsError } from '../../shared/errors.js';
import { fromMajorUnits, money, type CurrencyCode, type Money } from '../../shared/money.js';
import { type RateLimit, RateLimiter } from '../../shared/rate-limiter.js';
import { TOKENS } from '../../shared/tokens.js';
import type { CreatePromoInput, UpdatePromoInput } from '../../wire/promotions.js';
import { type AuditActor, AuditService } from '../audit/index.js';
import { discountFor, normalizeCode, type PromoTerms } from './discount-rule.js';
import type { PromoCodeModel } from './models/promo-code.model.js';
import { PromoCodeRepository, type NewPromoCode } from './promo-code.repository.js';

/**
 * Guesses of codes that do not exist, per buyer and per source address, in an hour. Only
 * `promo_unknown` counts: any other refusal means the code was right. Ten tries are more than a
 * buyer mistyping needs; a shared address (an office, a carrier's NAT) gets three buyers' worth.
 */
export const PROMO_GUESS_LIMITS: Record<'perBuyer' | 'perAddress', RateLimit> = {
  perBuyer: { name: 'promo-guess:user', limit: 10, windowSeconds: 3600, code: 'promo_guess_limit' },
  perAddress: { name: 'promo-guess:ip', limit: 30, windowSeconds: 3600, code: 'promo_guess_limit' },
};

/** A guess reserved by `reserveGuess`: given back when the code existed. */
export interface GuessReservation {
  giveBack(): Promise<void>;
}

/** A code as staff see it, with what it has given. */
export interface PromoCodeView {
  id: number;
  code: string;
  active: boolean;
  percentOff: number | null;
  amounts: Money[];
  startsAt: Date | null;
  endsAt: Date | null;
  totalLimit: number | null;
  perBuyerLimit: number | null;
  firstOrderOnly: boolean;
  platformIds: number[] | null;
  durationIds: number[] | null;
  note: string | null;
  /** Live redemptions: orders carrying the code, paid or still payable. */
  redeemed: number;
  paidRedemptions: number;
  /** The discount paid orders got, per currency. */
  granted: Money[];
  createdAt: Date;
  updatedAt: Date;
}

/** The order a code is applied to, as the orders module shows it. */
export interface RedeemingOrder {
  id: number;
  userId: number;
  subtotal: Money;
  items: ReadonlyArray<{ platformId: number; durationId: number }>;
}

/**
 * How a discount may move from the buyer's other unpaid orders to their new one (the flow that
 * knows orders and checkouts answers): a code (per-buyer limit) or the welcome discount (one order).
 */
export interface DiscountMove {
  /** Which of these orders of the buyer's are still unpaid (created, awaiting payment, payment failed; no paid payment). */
  unpaidAmong(orderIds: number[]): Promise<Set<number>>;
  /** The orders whose open checkouts the caller has closed, holding their checkout claims and row locks: the only ones the discount may move from. */
  settled: ReadonlySet<number>;
}

/** The discount would move from these orders, whose open checkouts must be closed first (the caller does, then tries again). */
export class DiscountMoveNeedsCheckouts extends Error {
  constructor(readonly orderIds: number[]) {
    super(`the discount would move from orders ${orderIds.join(', ')}, whose checkouts are not closed yet`);
  }
}

/** Which of these orders are paid (paid, completed or refunded): the orders module answers. */
export type PaidAmong = (orderIds: number[]) => Promise<Set<number>>;

const CURRENCY_CODES: CurrencyCode[] = ['EUR', 'KRW'];

@injectable()
export class PromotionsService {
  constructor(
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(RateLimiter) private readonly limiter: RateLimiter,
    @inject(PromoCodeRepository) private readonly codes: PromoCodeRepository,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  /** POST /api/promo/create: a new code (stored upper case), audited. */
  async create(actor: AuditActor, input: CreatePromoInput): Promise<PromoCodeView> {
    const row = { code: normalizeCode(input.code), ...termsOf(input), active: true } as NewPromoCode;
    return this.knex.transaction(async (trx) => {
      const created = await this.codes.create(row, this.clock.now(), trx);
      if (!created) throw fail('promo_code_taken');
      await this.audit.record(actor, { action: 'promo.create', targetType: 'promo_code', targetId: created.id, details: { after: auditable(created) } }, trx);
      return toView(created, []);
    });
  }

  /** POST /api/promo/update: the fields given replace the code's (`active: false` deactivates it), audited with before and after. */
  async update(actor: AuditActor, input: UpdatePromoInput): Promise<PromoCodeView> {
    return this.knex.transaction(async (trx) => {
      const before = await this.codes.lockById(input.id, trx);
      if (!before) throw fail('promo_not_found');
      const patch: Partial<NewPromoCode> = {};
      if (input.active !== undefined) patch.active = input.active;
      if (input.percentOff !== undefined || input.amounts !== undefined) {
        // A change of kind replaces the other: a percentage drops the amounts, amounts the percentage.
        const terms = termsOf({ percentOff: input.percentOff ?? null, amounts: input.amounts ?? null });
        if ((terms.percent_off === null) === (terms.amount_eur_minor === null && terms.amount_krw_minor === null)) {
          throw fail('validation', undefined, { errors: { percentOff: 'Give a percentOff or amounts (EUR, KRW), not both' } });
        }
        Object.assign(patch, { percent_off: terms.percent_off, amount_eur_minor: terms.amount_eur_minor, amount_krw_minor: terms.amount_krw_minor });
      }
      if (input.startsAt !== undefined) patch.starts_at = input.startsAt === null ? null : new Date(input.startsAt);
      if (input.endsAt !== undefined) patch.ends_at = input.endsAt === null ? null : new Date(input.endsAt);
      const startsAt = patch.starts_at !== undefined ? patch.starts_at : before.starts_at;
      const endsAt = patch.ends_at !== undefined ? patch.ends_at : before.ends_at;
      if (startsAt && endsAt && startsAt.getTime() >= endsAt.getTime())
        throw fail('validation', undefined, { errors: { endsAt: 'endsAt must be after startsAt' } });
      if (input.totalLimit !== undefined) {
        // Lowering the limit under what is already redeemed would break the database's check: at least what is redeemed.
        if (input.totalLimit !== null && input.totalLimit < before.redeemed) {
          throw fail('validation', undefined, { errors: { totalLimit: `at least ${before.redeemed}: that many orders carry the code` } });
        }
        patch.total_limit = input.totalLimit;
      }
      if (input.perBuyerLimit !== undefined) patch.per_buyer_limit = input.perBuyerLimit;
      if (input.firstOrderOnly !== undefined) patch.first_order_only = input.firstOrderOnly;
      if (input.platformIds !== undefined) patch.platform_ids = input.platformIds;
      if (input.durationIds !== undefined) patch.duration_ids = input.durationIds;
      if (input.note !== undefined) patch.note = input.note || null;
      const after = await this.codes.update(input.id, patch, this.clock.now(), trx);
      await this.audit.record(
        actor,
        { action: 'promo.update', targetType: 'promo_code', targetId: after.id, details: { before: auditable(before), after: auditable(after) } },
        trx,
      );
      return toView(after, []);
    });
  }

  /** GET /api/promo/list: every code, newest first, with its redemptions and the discount its paid orders got per currency. */
  async list(paidAmong: PaidAmong): Promise<PromoCodeView[]> {
    const [rows, redemptions] = await Promise.all([this.codes.all(), this.codes.liveRedemptions()]);
    const paid = redemptions.length > 0 ? await paidAmong([...new Set(redemptions.map((row) => row.order_id))]) : new Set<number>();
    const byCode = new Map<number, typeof redemptions>();
    for (const row of redemptions) if (paid.has(row.order_id)) byCode.set(row.promo_code_id, [...(byCode.get(row.promo_code_id) ?? []), row]);
    return rows.map((row) => toView(row, byCode.get(row.id) ?? []));
  }

  /**
   * Reserves one guess of the buyer and of the address before a code is looked up, or refuses
   * (429 `promo_guess_limit`) when either has guessed too many unknown codes this hour. The
   * reservation is counted at once (one upsert each), so a burst of parallel guesses cannot pass
   * the limit; the caller gives it back unless the code turned out not to exist (only unknown
   * codes count).
   */
  async reserveGuess(userId: number, ip: string): Promise<GuessReservation> {
    const taken: Array<() => Promise<void>> = [];
    const giveBack = async () => {
      for (const undo of taken.splice(0)) await undo();
    };
    for (const [rule, subject] of [
      [PROMO_GUESS_LIMITS.perBuyer, String(userId)],
      [PROMO_GUESS_LIMITS.perAddress, ip],
    ] as const) {
      const state = await this.limiter.hit(rule, subject);
      taken.push(() => this.limiter.giveBack(rule, subject, state));
      if (state.hits > rule.limit) {
        await giveBack();
        throw new TooManyRequestsError(rule.code, state.retryAfterSeconds);
      }
    }
    return { giveBack };
  }

  /**
   * Redeems `code` on the order, inside the caller's transaction (which lowers the order's
   * price with the answer): refused with the rule's reason, or by the database when the code's
   * total limit was reached meanwhile (`promo_used_up`), or when the order carries a code already
   * (`promo_one_per_order`). The code's row is locked first and stays locked to the commit, so
   * redemptions of one code take turns and the buyer's count is exact.
   *
   * When the buyer's per-buyer limit is reached only through the code on their own orders still
   * unpaid (`moving.unpaidAmong`: a currency switch made a new order), the code moves: the oldest
   * of those redemptions, as many as needed, are released in this transaction (`movedFrom`: the
   * caller removes those orders' discount). The code may move only from orders whose open
   * checkouts the caller has closed (`moving.settled`); others throw `DiscountMoveNeedsCheckouts`, for
   * the caller to close them and try again. A code on a paid order never moves.
   */
  async redeem(
    order: RedeemingOrder,
    code: string,
    buyerHasPaidOrder: boolean,
    trx: Knex.Transaction,
    moving: DiscountMove,
  ): Promise<{ code: string; discount: Money; movedFrom: number[] }> {
    const found = await this.codes.findByCode(normalizeCode(code), trx);
    if (!found) throw fail('promo_unknown');
    const row = (await this.codes.lockById(found.id, trx))!;
    const now = this.clock.now();
    const live = await this.codes.liveOrdersOf(row.id, order.userId, order.id, trx);
    let release: number[] = [];
    if (row.per_buyer_limit !== null && live.length >= row.per_buyer_limit) {
      const unpaid = await moving.unpaidAmong(live);
      const onPaid = live.filter((orderId) => !unpaid.has(orderId)).length;
      // Movable only when the paid ones alone leave room: a code used on a paid order stays used.
      if (onPaid < row.per_buyer_limit) release = live.filter((orderId) => unpaid.has(orderId)).slice(0, live.length - row.per_buyer_limit + 1);
    }
    // The rule sees the code as it will be once the moved redemptions are released.
    const terms = { ...termsFrom(row), redeemed: row.redeemed - release.length };
    const decision = discountFor(terms, {
      subtotal: order.subtotal,
      items: order.items,
      buyerHasPaidOrder,
      now,
      buyerRedemptions: live.length - release.length,
    });
    if ('refused' in decision) throw fail(decision.refused);
    const unsettled = release.filter((orderId) => !moving.settled.has(orderId));
    if (unsettled.length > 0) throw new DiscountMoveNeedsCheckouts(unsettled);
    for (const orderId of release) await this.codes.release(orderId, now, trx);
    // The database's check holds the total limit whatever the rule read.
    if (!(await this.codes.countRedemption(row.id, trx))) throw fail('promo_used_up');
    const inserted = await this.codes.insertRedemption(
      {
        promo_code_id: row.id,
        order_id: order.id,
        user_id: order.userId,
        currency: decision.discount.currency,
        discount_minor: decision.discount.amount,
        created_at: now,
      },
      trx,
    );
    if (!inserted) throw fail('promo_one_per_order');
    return { code: row.code, discount: decision.discount, movedFrom: release };
  }

  /** The order expired unpaid: its code's redemption goes back to the code (inside the expiry's transaction). */
  async release(orderId: number, trx: Knex.Transaction): Promise<boolean> {
    return (await this.codes.release(orderId, this.clock.now(), trx)) !== undefined;
  }
}

function termsOf(input: { percentOff: number | null; amounts: { EUR?: number; KRW?: number } | null } & Partial<CreatePromoInput>) {
  const amount = (currency: CurrencyCode) => {
    const major = input.amounts?.[currency];
    return major === undefined ? null : fromMajorUnits(major, currency).amount;
  };
  return {
    percent_off: input.percentOff ?? null,
    amount_eur_minor: (input.percentOff ?? null) !== null ? null : amount('EUR'),
    amount_krw_minor: (input.percentOff ?? null) !== null ? null : amount('KRW'),
    starts_at: input.startsAt ? new Date(input.startsAt) : null,
    ends_at: input.endsAt ? new Date(input.endsAt) : null,
    total_limit: input.totalLimit ?? null,
    per_buyer_limit: input.perBuyerLimit ?? null,
    first_order_only: input.firstOrderOnly ?? false,
    platform_ids: input.platformIds ?? null,
    duration_ids: input.durationIds ?? null,
    note: input.note || null,
  };
}

function termsFrom(row: PromoCodeModel): PromoTerms {
  return {
    active: row.active,
    percentOff: row.percent_off,
    amounts: {
      ...(row.amount_eur_minor !== null ? { EUR: row.amount_eur_minor } : {}),
      ...(row.amount_krw_minor !== null ? { KRW: row.amount_krw_minor } : {}),
    },
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    totalLimit: row.total_limit,
    perBuyerLimit: row.per_buyer_limit,
    firstOrderOnly: row.first_order_only,
    platformIds: row.platform_ids,
    durationIds: row.duration_ids,
    redeemed: row.redeemed,
  };
}

/** What the audit log keeps of a code: its terms, in the stored units. */
function auditable(row: PromoCodeModel): Record<string, unknown> {
  const { created_at: _created, updated_at: _updated, ...rest } = row.toJSON() as PromoCodeModel;
  return rest as unknown as Record<string, unknown>;
}

function toView(row: PromoCodeModel, paidRedemptions: Array<{ currency: string; discount_minor: number }>): PromoCodeView {
  // The terms as the rule reads them (termsFrom), the fixed amounts as money.
  const terms = termsFrom(row);
  const amounts = CURRENCY_CODES.flatMap((currency) => {
    const minor = terms.amounts[currency];
    return minor === undefined ? [] : [money(minor, currency)];
  });
  const granted = CURRENCY_CODES.flatMap((currency) => {
    const of = paidRedemptions.filter((redemption) => redemption.currency === currency);
    return of.length === 0
      ? []
      : [
          money(
            of.reduce((sum, redemption) => sum + redemption.discount_minor, 0),
            currency,
          ),
        ];
  });
  return {
    id: row.id,
    code: row.code,
    ...terms,
    amounts,
    note: row.note,
    paidRedemptions: paidRedemptions.length,
    granted,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
