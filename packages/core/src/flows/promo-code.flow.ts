/**
 * A promotion code on a buyer's order (issue 37): the orders module keeps the order's price, the
 * promotions module the codes and their redemptions, the payments module the checkouts open at
 * the providers for the order's old amount.
 *
 *   POST /api/order/applypromo { orderId, code } ──▶ applyToOrder:
 *     a guess reserved (per buyer, per address; 429 past the limit) ─▶ orders.payableOrder
 *     (the buyer's, unpaid) ─▶ the order's checkout claim (checkouts and codes take turns):
 *         payments.settleEarlierCheckouts (nothing reused): open Stripe sessions expired; one
 *             found paid is applied and the order is not payable any more (409)
 *         one transaction: the order locked and still payable ─▶ promotions.redeem (the rule,
 *             the code's counter under the database's limit, the redemption: one per order)
 *             ─▶ orders.setDiscount (total = subtotal − discount; a welcome discount replaced)
 *         the per-buyer limit reached only by the code on the buyer's own other unpaid orders (a
 *             currency switch made a new order): the code moves. Those orders' checkout claims
 *             taken and their checkouts settled the same way, then in one transaction (those
 *             orders locked, then the code's row) their redemptions released and their discount
 *             removed (total = subtotal), and the code redeemed here (movingCode)
 *     an unknown code keeps its guess; any other outcome gives it back
 *   POST /api/order/insert { …, promoCode } ──▶ createOrder: the same redemption inside the
 *     transaction that makes (or reuses) the order, moving it the same way; a refused code
 *     refuses the order.
 *   staff: list ──▶ promotions.list with the orders module saying which orders are paid.
 *   the unpaid expiry (checkout.flow.ts expireUnpaid) ──▶ promotions.release: the code back.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { DomainError, fail } from '../shared/errors.js';
import type { CurrencyCode } from '../shared/money.js';
import { TOKENS } from '../shared/tokens.js';
import type { AuthenticatedUser, RequestContext } from '../modules/identity/index.js';
import { OrdersService, PAYABLE_STATES, type OrderView } from '../modules/orders/index.js';
import { type CheckoutClaim, PaymentsService } from '../modules/payments/index.js';
import { type DiscountMove, DiscountMoveNeedsCheckouts, normalizeCode, PromotionsService, type PromoCodeView } from '../modules/promotions/index.js';
import type { InsertOrderInput } from '../wire/orders.js';
import type { ApplyPromoInput } from '../wire/promotions.js';
import { PaymentNotificationFlow } from './payment-notification.flow.js';
import { ReferralFlow } from './referral.flow.js';

/**
 * How many times a redemption runs again to move the discount from the buyer's other unpaid
 * orders: once is enough unless the buyer's orders change meanwhile (another tab applying the code).
 */
const MOVE_ATTEMPTS = 3;

/** A code that cannot move stays on the buyer's other order: they have used it. */
const CODE_STAYS = (): never => {
  throw fail('promo_already_used');
};

@injectable()
export class PromoCodeFlow {
  constructor(
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(OrdersService) private readonly orders: OrdersService,
    @inject(PaymentsService) private readonly payments: PaymentsService,
    @inject(PromotionsService) private readonly promotions: PromotionsService,
    @inject(PaymentNotificationFlow) private readonly notifications: PaymentNotificationFlow,
    // A referred buyer's first order: the welcome discount when no code came with it.
    @inject(ReferralFlow) private readonly referral: ReferralFlow,
  ) {}

  /** POST /api/order/applypromo: the code on the buyer's unpaid order; answers the order at its new price. */
  applyToOrder(buyer: AuthenticatedUser, { orderId, code }: ApplyPromoInput, context: RequestContext): Promise<OrderView> {
    return this.guessing(buyer, context, async () => {
      const order = await this.orders.payableOrder(buyer, orderId);
      const already = this.codeAlreadyOn(order, code);
      if (already) return already;
      const claim = await this.payments.claimCheckout(order.id);
      try {
        // No checkout may stay open at a provider for the old amount.
        const earlier = await this.payments.settleEarlierCheckouts(claim);
        if (earlier.completed) {
          await this.notifications.askProvider(earlier.completed).catch(() => undefined);
          throw fail('order_not_payable');
        }
        return await this.movingDiscount(CODE_STAYS, (settled) =>
          this.knex.transaction(async (trx) => {
            const current = await this.orders.lockForUpdate(order.id, trx);
            if (!current || !PAYABLE_STATES.includes(current.state)) throw fail('order_not_payable');
            const same = this.codeAlreadyOn(current, code);
            if (same) return same;
            await this.redeemOn(current, code, trx, settled);
            return (await this.orders.find(order.id, trx))!;
          }),
        );
      } finally {
        await claim.release();
      }
    });
  }

  /**
   * POST /api/order/insert: with `promoCode`, the code is redeemed in the transaction that makes
   * (or reuses) the order, so a refused code refuses the order with its reason. A reload of the
   * payment page carries the same code again: the reused order already has it.
   */
  createOrder(buyer: AuthenticatedUser, input: InsertOrderInput, defaultCurrency: CurrencyCode, context: RequestContext): Promise<OrderView> {
    const { promoCode } = input;
    if (!promoCode) {
      // The welcome discount moves here from the buyer's other unpaid order, if it can (see movingDiscount).
      const welcomed = (stay: boolean) => (settled: ReadonlySet<number>) =>
        this.orders.createOrder(buyer, input, defaultCurrency, (order, trx) => this.referral.welcome(order, trx, this.moveOf(settled, trx), stay));
      return this.movingDiscount(welcomed(true), welcomed(false));
    }
    return this.guessing(buyer, context, () =>
      this.movingDiscount(CODE_STAYS, (settled) =>
        this.orders.createOrder(buyer, input, defaultCurrency, async (order, trx) => {
          if (this.codeAlreadyOn(order, promoCode)) return false;
          await this.redeemOn(order, promoCode, trx, settled);
          return true;
        }),
      ),
    );
  }

  /** GET /api/promo/list: every code with its redemptions and what its paid orders got. */
  list(): Promise<PromoCodeView[]> {
    return this.promotions.list((orderIds) => this.orders.paidAmong(orderIds));
  }

  /** The order when it carries this code already (applying it again changes nothing); refused when it carries another. */
  private codeAlreadyOn(order: OrderView, code: string): OrderView | undefined {
    if (order.promoCode === null) return undefined;
    if (order.promoCode === normalizeCode(code)) return order;
    throw fail('promo_one_per_order');
  }

  /**
   * The code on the order, in its transaction (the order locked). When it moves from the buyer's
   * other unpaid orders (`settled`: their checkouts closed, their claims held), those are locked
   * first (orders before the code's row, as the expiry does) and lose their discount here.
   */
  private async redeemOn(order: OrderView, code: string, trx: Knex.Transaction, settled: ReadonlySet<number>): Promise<void> {
    for (const orderId of [...settled].sort((a, b) => a - b)) await this.orders.lockForUpdate(orderId, trx);
    const items = order.items.map((item) => ({ platformId: item.platformId, durationId: item.durationId }));
    const hasPaid = await this.orders.hasPaidOrder(order.userId, order.id, trx);
    const redeemed = await this.promotions.redeem(
      { id: order.id, userId: order.userId, subtotal: order.subtotal, items },
      code,
      hasPaid,
      trx,
      this.moveOf(settled, trx),
    );
    // Back to the catalog price (the orders' discount check holds: no discount, no source, no code).
    for (const orderId of redeemed.movedFrom) await this.orders.setDiscount(orderId, null, trx);
    await this.orders.setDiscount(order.id, { amount: redeemed.discount, source: 'code', promoCode: redeemed.code }, trx);
  }

  /** A discount move in the caller's transaction: the orders it may move from, and which of the buyer's orders are still unpaid. */
  private moveOf(settled: ReadonlySet<number>, trx: Knex.Transaction): DiscountMove {
    return {
      settled,
      unpaidAmong: async (orderIds) => {
        const [payable, withMoney] = await Promise.all([this.orders.payableAmong(orderIds, trx), this.payments.ordersWithMoney(orderIds, trx)]);
        return new Set([...payable].filter((orderId) => !withMoney.has(orderId)));
      },
    };
  }

  /**
   * Runs `redeeming` (a transaction that gives the order a discount: a code, or the welcome
   * discount) with the buyer's other unpaid orders it may move the discount from. When it would
   * move it from orders whose checkouts are not closed yet (`DiscountMoveNeedsCheckouts`), their
   * checkout claims are taken (ascending ids; held until the end, so no checkout of theirs opens
   * meanwhile) and their earlier checkouts settled as applying a code does (open Stripe sessions
   * expired; those of providers that cannot be closed are never reused, their amount is not the
   * order's any more), and it runs again. When an order cannot be settled (its Stripe session found
   * paid, and the payment not applied yet) or the buyer's orders keep changing, the discount stays
   * where it is: `staying` runs instead (still holding the claims): a code is refused
   * (`promo_already_used`: the buyer has used it), a new order is made without the welcome discount.
   */
  private async movingDiscount<T>(staying: (settled: ReadonlySet<number>) => Promise<T>, redeeming: (settled: ReadonlySet<number>) => Promise<T>): Promise<T> {
    const settled = new Set<number>();
    const claimed = new Set<number>();
    const claims: CheckoutClaim[] = [];
    try {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await redeeming(settled);
        } catch (error) {
          if (!(error instanceof DiscountMoveNeedsCheckouts)) throw error;
          // One already tried and not settled (being paid), or the buyer's orders keep changing: the discount stays where it is.
          if (attempt >= MOVE_ATTEMPTS || error.orderIds.some((orderId) => claimed.has(orderId))) return await staying(settled);
          for (const orderId of [...error.orderIds].sort((a, b) => a - b)) {
            const claim = await this.payments.claimCheckout(orderId);
            claimed.add(orderId);
            claims.push(claim);
            const earlier = await this.payments.settleEarlierCheckouts(claim);
            if (earlier.completed) await this.notifications.askProvider(earlier.completed).catch(() => undefined);
            else settled.add(orderId);
          }
        }
      }
    } finally {
      for (const claim of claims) await claim.release();
    }
  }

  /**
   * Runs `work` on a guess reserved beforehand (429 when the buyer or the address has no guesses
   * left), so that parallel guesses cannot pass the limit; the guess is kept only when the code
   * does not exist.
   */
  private async guessing<T>(buyer: AuthenticatedUser, context: RequestContext, work: () => Promise<T>): Promise<T> {
    const guess = await this.promotions.reserveGuess(buyer.id, context.ip);
    let unknown = false;
    try {
      return await work();
    } catch (error) {
      unknown = error instanceof DomainError && error.code === 'promo_unknown';
      throw error;
    } finally {
      if (!unknown) await guess.giveBack();
    }
  }
}
