/**
 * The orders as CSV, for staff (GET /api/order/export.csv) and operators (`subshare
 * export-orders`): the orders module writes the file (columns, quoting, batches, the audit entry);
 * the `refunded` column comes from the payments module, which owns refunds and which the orders
 * module does not import, asked once a batch of orders.
 */
import { inject, injectable } from 'inversify';
import type { AuditActor } from '../modules/audit/index.js';
import { type OrdersExport, OrdersService } from '../modules/orders/index.js';
import { RefundsService } from '../modules/payments/index.js';
import type { ExportQuery } from '../wire/staff.js';

@injectable()
export class OrdersExportFlow {
  constructor(
    @inject(OrdersService) private readonly orders: OrdersService,
    @inject(RefundsService) private readonly refunds: RefundsService,
  ) {}

  /** See OrdersService.exportCsv: audited as `orders.export` before the first line. */
  exportCsv(actor: AuditActor, query: ExportQuery): Promise<OrdersExport> {
    return this.orders.exportCsv(actor, query, (orderIds) => this.refunds.refundedByOrder(orderIds));
  }
}
