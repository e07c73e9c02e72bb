/**
 * The admin dashboard (GET /api/admin/dashboard, beyond the spec): the figures staff look at
 * first, read from the modules that own them.
 *
 * - revenue: per UTC day of the last DASHBOARD_DAYS (zero days included, today last), net of refunds: the EUR
 *   paid that day (orders in states 2, 5 and 6 by the day they were paid: a refunded order's
 *   payment was revenue that day; an order's total is already net of its discount) less the EUR
 *   value of the part its buyer's credit paid (issue 37: money taken, not credit spent), less the
 *   EUR value of the money that went back that day (credit given back is not money; staff
 *   refunds, refunds at the provider, chargebacks), as the money ledger's rules count it (each
 *   payment's money back after the day's ledger rows less before them: a pending refund is not
 *   money back, a failed one never was). An order's `totalEur` is its options' EUR price before
 *   the discount, so its EUR revenue is round(totalEur × total / subtotal), and a refund's EUR
 *   value round(refund × totalEur / subtotal): a discounted order counts what it cost, and a
 *   partial refund or a KRW order's refund takes back what it is worth in EUR, not the whole order. A day whose refunds exceed
 *   its payments is negative;
 * - orders by state: how many orders are in each of the states 0 to 6;
 * - slot occupancy: per platform, the slots on its active accounts and how many are held now
 *   (every enabled platform, with 0 slots when it has no account yet, and any platform off sale
 *   that still has accounts);
 * - waiting past 24 hours: paid orders not yet activated a day after payment, the spec's promise
 *   broken, oldest payment first;
 * - waiting money events: refunds, disputes and chargebacks whose payment the shop does not know
 *   (or has not seen paid) yet, until that payment arrives and they apply;
 * - renewals (issue 28): the expected revenue of the automatic renewals of the next DASHBOARD_DAYS per
 *   currency, and the renewals that failed in the last DASHBOARD_DAYS (how many, the latest), as the
 *   renewal flow reckons them (docs/renewal.md);
 * - double payments (issue 34): second payments of an order the shop refunded at once, and those
 *   whose refund waits (no answer yet, CoinPal's by hand) or failed;
 * - outstanding credit (issue 37): what the shop owes its buyers in credit, per currency
 *   (CreditService.outstanding);
 * - discounts granted (issue 37): the welcome discount, then each promotion code that a paid order
 *   (paid, completed or refunded) carries, newest code first: how many paid orders got it and the
 *   discount they got per currency (the promotions module's list, and the orders module for the
 *   welcome discount, which is on the order alone).
 */
import { AccountHealthService } from '../modules/accounts/index.js';
import type { AccountHealthState } from '../validation/alert-rules.js';
import { inject, injectable } from 'inversify';
import { money, type Money } from '../shared/money.js';
import { CatalogService, type LanguageId } from '../modules/catalog/index.js';
import { OrdersService, type OrderState, type WaitingOrder } from '../modules/orders/index.js';
import { CreditService } from '../modules/credit/index.js';
import { PromotionsService } from '../modules/promotions/index.js';
import { type DoublePaymentTotals, type LedgerEventView, LedgerService, PaymentsService, RefundsService } from '../modules/payments/index.js';
import { SubscriptionsService } from '../modules/subscriptions/index.js';
import { RenewalViewsFlow, type RenewalSummary } from './renewal-views.flow.js';
import { ACTIVATION_HOURS, DASHBOARD_DAYS } from '../promises/index.js';

export const DASHBOARD_REVENUE_DAYS = DASHBOARD_DAYS;
/** The spec's promise: a paid order is completed within ACTIVATION_HOURS (core's promises). */
export const ACTIVATION_PROMISE_HOURS = ACTIVATION_HOURS;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface AdminDashboard {
  /** EUR paid each day less the EUR value of that day's refunds (see the file's comment). */
  revenueEur: Array<{ day: string; totalEur: Money }>;
  ordersByState: Record<OrderState, number>;
  slotOccupancy: Array<{ platformId: number; name: string; slots: number; used: number; free: number; broken: number }>;
  waitingPast24h: WaitingOrder[];
  /** Money events still waiting for their payment, oldest first. */
  waitingMoneyEvents: LedgerEventView[];
  /** Active platform accounts per health state (issue 29): broken and attention need staff. */
  accountHealth: Record<AccountHealthState, number>;
  /** Automatic renewals: the next DASHBOARD_DAYS' expected revenue, the failed ones of the last DASHBOARD_DAYS. */
  renewals: RenewalSummary;
  /** Second payments of an order refunded by the shop, and those whose refund waits or failed. */
  doublePayments: DoublePaymentTotals;
  /** What the shop owes its buyers in credit, per currency (issue 37): earned, returned and released, less spent and expired. */
  outstandingCredit: Money[];
  /** What discounts have cost the shop (issue 37): the welcome discount's line first, then each code a paid order carries. */
  discountsGranted: DiscountGranted[];
}

/** One line of the discounts granted: a promotion code (`code`) or the welcome discount (`code` null). */
export interface DiscountGranted {
  source: 'code' | 'welcome';
  code: string | null;
  /** Paid orders (paid, completed or refunded) that got this discount. */
  paidOrders: number;
  /** The discount those orders got, per currency (currencies without any left out). */
  granted: Money[];
}

@injectable()
export class AdminDashboardFlow {
  constructor(
    @inject(OrdersService) private readonly orders: OrdersService,
    @inject(SubscriptionsService) private readonly subscriptions: SubscriptionsService,
    @inject(CatalogService) private readonly catalog: CatalogService,
    @inject(LedgerService) private readonly ledger: LedgerService,
    @inject(AccountHealthService) private readonly health: AccountHealthService,
    @inject(RenewalViewsFlow) private readonly renewal: RenewalViewsFlow,
    @inject(RefundsService) private readonly refunds: RefundsService,
    @inject(PaymentsService) private readonly payments: PaymentsService,
    @inject(CreditService) private readonly credit: CreditService,
    @inject(PromotionsService) private readonly promotions: PromotionsService,
  ) {}

  /** The figures, platforms named in `languageId` (the staff member's language). */
  async dashboard(languageId: LanguageId = 1): Promise<AdminDashboard> {
    const [
      revenueEur,
      ordersByState,
      occupancy,
      platforms,
      waitingPast24h,
      waitingMoneyEvents,
      accountHealth,
      renewals,
      doublePayments,
      outstandingCredit,
      discountsGranted,
    ] = await Promise.all([
      this.netRevenueByDay(DASHBOARD_REVENUE_DAYS),
      this.orders.countByState(),
      this.subscriptions.occupancyByPlatform(),
      this.catalog.platformNames(languageId),
      this.orders.waitingLongerThan(ACTIVATION_PROMISE_HOURS),
      this.ledger.waiting(),
      this.health.counts(),
      this.renewal.summary(),
      this.refunds.doublePaymentTotals(),
      this.credit.outstanding(),
      this.discountsGranted(),
    ]);
    const byPlatform = new Map(occupancy.map((entry) => [entry.platformId, entry]));
    const slotOccupancy = platforms
      .filter((platform) => platform.isEnabled || byPlatform.has(platform.id))
      .map((platform) => ({
        platformId: platform.id,
        name: platform.name,
        slots: byPlatform.get(platform.id)?.slots ?? 0,
        used: byPlatform.get(platform.id)?.used ?? 0,
        free: byPlatform.get(platform.id)?.free ?? 0,
        broken: byPlatform.get(platform.id)?.broken ?? 0,
      }));
    return {
      revenueEur,
      ordersByState,
      slotOccupancy,
      waitingPast24h,
      waitingMoneyEvents,
      accountHealth,
      renewals,
      doublePayments,
      outstandingCredit,
      discountsGranted,
    };
  }

  private async discountsGranted(): Promise<DiscountGranted[]> {
    const [welcome, codes] = await Promise.all([this.orders.welcomeDiscountsGranted(), this.promotions.list((orderIds) => this.orders.paidAmong(orderIds))]);
    return [
      { source: 'welcome', code: null, ...welcome },
      ...codes
        .filter((code) => code.paidRedemptions > 0)
        .map((code): DiscountGranted => ({ source: 'code', code: code.code, paidOrders: code.paidRedemptions, granted: code.granted })),
    ];
  }

  private async netRevenueByDay(days: number): Promise<AdminDashboard['revenueEur']> {
    const paid = await this.orders.eurPaidByDay(days);
    const from = new Date(`${paid[0].day}T00:00:00.000Z`);
    const to = new Date(Date.parse(`${paid[paid.length - 1].day}T00:00:00.000Z`) + DAY_MS);
    // Money back that day, and credit that paid for orders that day (issue 37: credit spent is not money taken).
    const [refunds, credit] = await Promise.all([this.ledger.moneyBackByDay(from, to), this.payments.creditPaidByDay(from, to)]);
    const less = [
      ...refunds.map((refund) => ({ orderId: refund.orderId, day: refund.day, amount: refund.amount })),
      ...credit.map((paidBy) => ({ orderId: paidBy.orderId, day: paidBy.day, amount: paidBy.credit })),
    ];
    if (less.length === 0) return paid;
    const orders = new Map((await this.orders.findMany([...new Set(less.map((entry) => entry.orderId))])).map((order) => [order.id, order]));
    const lessEur = new Map<string, number>();
    for (const entry of less) {
      const order = orders.get(entry.orderId);
      if (!order || order.subtotal.amount <= 0) continue;
      // Its share of the order's EUR value (`totalEur` is the price before the discount, as `subtotal`): a KRW order's part is worth its share in EUR.
      const eur = Math.round((entry.amount.amount * order.totalEur.amount) / order.subtotal.amount);
      lessEur.set(entry.day, (lessEur.get(entry.day) ?? 0) + eur);
    }
    return paid.map(({ day, totalEur }) => ({ day, totalEur: money(totalEur.amount - (lessEur.get(day) ?? 0), 'EUR') }));
  }
}
