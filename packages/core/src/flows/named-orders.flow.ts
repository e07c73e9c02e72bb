/**
 * Orders as a reader reads them (GET /api/order/getbystate, getorders, getorder): the orders
 * module's orders, with what each bought named in the reader's language (`languageId`) from the
 * catalog. An order keeps the names in its buyer's language (order-names.ts), so an admin working
 * in English would otherwise read a Korean buyer's order in Korean. Without `languageId`, the
 * names the order keeps.
 *
 *   orders (orders module) ─ languageId? ─► items named from the catalog in it (the snapshot for what is no longer sold)
 */
import { inject, injectable } from 'inversify';
import { CatalogService, type LanguageId } from '../modules/catalog/index.js';
import type { AuthenticatedUser } from '../modules/identity/index.js';
import { type OrdersPage, OrdersService, type OrderView } from '../modules/orders/index.js';
import type { GetOrderQuery } from '../wire/orders.js';
import type { OrdersByStateQuery, OrdersQuery } from '../wire/staff.js';
import { ordersNamedIn } from './order-names.js';

@injectable()
export class NamedOrdersFlow {
  constructor(
    @inject(OrdersService) private readonly orders: OrdersService,
    @inject(CatalogService) private readonly catalog: CatalogService,
  ) {}

  /** Staff: `{ state, page = 1, limit = 20, languageId? }`, one page of the orders in a state, newest first. */
  async listByState(input: OrdersByStateQuery): Promise<OrdersPage> {
    return this.namedPage(await this.orders.listByState(input), input.languageId);
  }

  /** Staff: `{ page = 1, limit = 20, languageId? }`, one page of every order, newest first. */
  async listOrders(input: OrdersQuery): Promise<OrdersPage> {
    return this.namedPage(await this.orders.listOrders(input), input.languageId);
  }

  /** `{ id, languageId? }`: one of the viewer's orders (staff: any). */
  async getOrder(viewer: AuthenticatedUser, input: GetOrderQuery): Promise<OrderView> {
    const [order] = await this.named([await this.orders.getOrder(viewer, input.id)], input.languageId);
    return order!;
  }

  private async namedPage(page: OrdersPage, languageId: LanguageId | undefined): Promise<OrdersPage> {
    return { ...page, items: await this.named(page.items, languageId) };
  }

  private named(orders: OrderView[], languageId: LanguageId | undefined): Promise<OrderView[]> {
    return languageId ? ordersNamedIn(this.catalog, orders, languageId) : Promise.resolve(orders);
  }
}
