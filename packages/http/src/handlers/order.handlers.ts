import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import type { Container } from 'inversify';
import { ORDERS, PAYMENTS, type OrdersService, type OrderView, type PaymentsService } from '@subshare/core';
import { auditActor } from '../middleware/auth.js';
import { serializeOrder } from '../serializers/order.serializer.js';

export function orderHandlers(container: Container) {
  const orders = container.get<OrdersService>(ORDERS.Service);
  const payments = container.get<PaymentsService>(PAYMENTS.Service);
  const serialize = (order: OrderView) => serializeOrder(order, payments.availableMethods(order.paymentMethods));

  return {
    /** GET /api/order/getbystate?state&page&limit (staff) → the orders in that state, newest first */
    getByState: async (req: Request) => (await orders.listByState(req.query)).items.map(serialize),
    /** GET /api/order/getorders?page&limit (staff) → every order, newest first */
    getOrders: async (req: Request) => (await orders.listOrders(req.query)).items.map(serialize),
    /** GET /api/order/getorderspages?state&limit (staff, state optional) → { pages, count } */
    getOrdersPages: (req: Request) => orders.countPages(req.query),
    /**
     * GET /api/order/export.csv?state (staff, state optional): the orders as a CSV download,
     * streamed a batch at a time (audited as `orders.export`). It starts with a byte-order mark
     * so spreadsheet programs read the Korean names as UTF-8.
     */
    exportCsv: async (req: Request, res: Response) => {
      const exported = await orders.exportCsv(auditActor(req, res), req.query);
      res.status(200);
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="${exported.filename}"`);
      async function* withBom() {
        yield '\uFEFF';
        yield* exported.lines;
      }
      await pipeline(Readable.from(withBom()), res);
    },
  };
}
