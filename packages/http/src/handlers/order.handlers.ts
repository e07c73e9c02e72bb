import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import type { Container } from 'inversify';
import * as yup from 'yup';
import { FLOWS, ORDERS, PAYMENTS, TOKENS, type AppConfig, type CheckoutFlow, type OrdersService, type OrderView, type PaymentsService } from '@subshare/core';
import { auditActor, currentUser, requestContext } from '../middleware/auth.js';
import { chooseCurrency } from '../middleware/visitor.js';
import { id, parse } from '../schemas/parse.js';
import { serializeOrder } from '../serializers/order.serializer.js';

export function orderHandlers(container: Container) {
  const orders = container.get<OrdersService>(ORDERS.Service);
  const payments = container.get<PaymentsService>(PAYMENTS.Service);
  const checkout = container.get<CheckoutFlow>(FLOWS.Checkout);
  const config = container.get<AppConfig>(TOKENS.Config);
  const serialize = (order: OrderView) => serializeOrder(order, payments.availableMethods(order.paymentMethods));

  return {
    /** POST /api/order/insert (verified): the order, priced on the server */
    insert: async (req: Request, res: Response) => serialize(await orders.createOrder(currentUser(res), req.body, chooseCurrency(req, config))),
    /** GET /api/order/getorder?id: the caller's own order (staff: any) */
    getOrder: async (req: Request, res: Response) =>
      serialize(await orders.getOrder(currentUser(res), parse(yup.object({ id: id('id').required('id is required') }), req.query).id)),
    /** POST /api/payment/process { orderId }: asks the provider, answers the order as it stands */
    process: async (req: Request, res: Response) => serialize(await checkout.refresh(currentUser(res), req.body)),
    /** POST /api/payment/createcheckoutsession { orderId }: card */
    checkoutCard: (req: Request, res: Response) => checkout.start(currentUser(res), req.body, 1, requestContext(req)),
    /** POST /api/payment/createcheckoutsessioncoinpal { orderId }: crypto */
    checkoutCrypto: (req: Request, res: Response) => checkout.start(currentUser(res), req.body, 2, requestContext(req)),
    /** POST /api/payment/createcheckoutsessionpayssion { orderId, pmId }: Korean methods 3 to 6 */
    checkoutPayssion: (req: Request, res: Response) => checkout.start(currentUser(res), req.body, 'payssion', requestContext(req)),
    /** POST /api/payment/checksessionpayssion { orderId, transactionId } → boolean */
    checkPayssion: (req: Request, res: Response) => checkout.checkPayssion(currentUser(res), req.body),

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
