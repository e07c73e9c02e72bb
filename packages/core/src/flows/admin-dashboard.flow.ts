/**
 * The admin dashboard (GET /api/admin/dashboard, beyond the spec): the figures staff look at
 * first, read from the modules that own them.
 *
 * - revenue: EUR totals of the orders paid on each of the last 30 UTC days (completed or still
 *   waiting for activation; refunded orders are left out), zero days included, today last;
 * - orders by state: how many orders are in each of the states 0 to 6;
 * - slot occupancy: per platform, the slots on its active accounts and how many are held now
 *   (every enabled platform, with 0 slots when it has no account yet, and any platform off sale
 *   that still has accounts);
 * - waiting past 24 hours: paid orders not yet activated a day after payment, the spec's promise
 *   broken, oldest payment first.
 */
import { inject, injectable } from 'inversify';
import type { Money } from '../shared/money.js';
import { CATALOG, type CatalogService } from '../modules/catalog/index.js';
import { ORDERS, type OrdersService, type OrderState, type WaitingOrder } from '../modules/orders/index.js';
import { SUBSCRIPTIONS, type SubscriptionsService } from '../modules/subscriptions/index.js';

export const DASHBOARD_REVENUE_DAYS = 30;
/** The spec's promise: a paid order is completed within 24 hours. */
export const ACTIVATION_PROMISE_HOURS = 24;

export interface AdminDashboard {
  revenueEur: Array<{ day: string; totalEur: Money }>;
  ordersByState: Record<OrderState, number>;
  slotOccupancy: Array<{ platformId: number; name: string; slots: number; used: number }>;
  waitingPast24h: WaitingOrder[];
}

@injectable()
export class AdminDashboardFlow {
  constructor(
    @inject(ORDERS.Service) private readonly orders: OrdersService,
    @inject(SUBSCRIPTIONS.Service) private readonly subscriptions: SubscriptionsService,
    @inject(CATALOG.Service) private readonly catalog: CatalogService,
  ) {}

  async dashboard(): Promise<AdminDashboard> {
    const [revenueEur, ordersByState, occupancy, platforms, waitingPast24h] = await Promise.all([
      this.orders.eurRevenueByDay(DASHBOARD_REVENUE_DAYS),
      this.orders.countByState(),
      this.subscriptions.occupancyByPlatform(),
      this.catalog.platformNames(1),
      this.orders.waitingLongerThan(ACTIVATION_PROMISE_HOURS),
    ]);
    const byPlatform = new Map(occupancy.map((entry) => [entry.platformId, entry]));
    const slotOccupancy = platforms
      .filter((platform) => platform.isEnabled || byPlatform.has(platform.id))
      .map((platform) => ({
        platformId: platform.id,
        name: platform.name,
        slots: byPlatform.get(platform.id)?.slots ?? 0,
        used: byPlatform.get(platform.id)?.used ?? 0,
      }));
    return { revenueEur, ordersByState, slotOccupancy, waitingPast24h };
  }
}
