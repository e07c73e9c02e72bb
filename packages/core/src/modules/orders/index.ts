export { ordersModule } from './orders.module.js';
export {
  OrdersService,
  type OrderView,
  type OrderItemView,
  type OrdersPage,
  type OrdersExport,
  type RefundedAmounts,
  type WaitingOrder,
  type ActivationLatency,
  type DiscountSource,
  type WithinOrderCreation,
} from './orders.service.js';
export { DEFAULT_PAYMENT_METHOD } from './orders.service.js';
export { ORDER_STATE, PAID_STATES, PAYABLE_STATES, type OrderState } from './order-states.js';
export { ORDER_QUEUES, activationKey, type ActivateOrderJobData } from './queues.js';
export { ORDER_CSV_COLUMNS, PAYMENT_METHOD_NAMES, csvCell } from './orders-csv.js';
