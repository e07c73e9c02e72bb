/**
 * Orders: what a buyer pays for. Prices come from the catalog on the server, never from the
 * client; an order's items keep the names the buyer saw; states only move forward.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { Clock } from '../../shared/clock.js';
import { fail, NotFoundError } from '../../shared/errors.js';
import type { JobQueue } from '../../shared/jobs.js';
import { currencyById, money, type CurrencyCode, type Money } from '../../shared/money.js';
import { TOKENS } from '../../shared/tokens.js';
import { offsetOf, pagesOf, type PageCount } from '../../shared/paging.js';
import type { InsertOrderInput } from '../../wire/orders.js';
import type { InvitationEmailInput } from '../../wire/panel.js';
import type { ExportQuery, OrderPagesQuery, OrdersByStateQuery, OrdersQuery } from '../../wire/staff.js';
import { type AuditActor, AuditService } from '../audit/index.js';
import { CatalogService, type LanguageId } from '../catalog/index.js';
import { ROLES, type AuthenticatedUser } from '../identity/index.js';
import type { OrderRow } from './models/order.model.js';
import { ORDER_CSV_COLUMNS, csvLine, orderCsvLine } from './orders-csv.js';
import { OrderRepository, type OrderFilter } from './order.repository.js';
import { DEFAULT_PAYMENT_METHOD, isPaymentMethodId, PAYMENT_METHOD, REGIONAL_PAYMENT_METHODS, type PaymentMethodId } from '../../wire/enums.js';
import { canMove, ORDER_STATE, PAID_STATES, PAYABLE_STATES, statesBefore, type OrderState } from './order-states.js';
import { activationKey, ORDER_QUEUES } from './queues.js';

/** The default method (crypto) comes first; the Korean methods only for KRW orders. */
const METHODS_BY_CURRENCY: Record<CurrencyCode, PaymentMethodId[]> = {
  EUR: [DEFAULT_PAYMENT_METHOD, PAYMENT_METHOD.card],
  KRW: [DEFAULT_PAYMENT_METHOD, PAYMENT_METHOD.card, ...REGIONAL_PAYMENT_METHODS],
};
export { DEFAULT_PAYMENT_METHOD };

/** The export reads this many orders at a time. */
const EXPORT_BATCH = 500;
const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
/**
 * A new order for the same choice as an open one made this recently is a reload of the payment
 * page (or the back button), not a second purchase: the open one is answered again. An hour
 * keeps the reused order far from the expiry of unpaid orders (UNPAID_ORDER_HOURS).
 */
const REUSE_OPEN_ORDER_MS = HOUR_MS;
/** Advisory lock namespace (with the buyer's id) that makes "find an open order, else create" one step per buyer. */
const ORDER_CREATE_LOCK = 0x5e0d;

const BEFORE_COMPLETED = statesBefore(ORDER_STATE.completed);
const BEFORE_PAID = statesBefore(ORDER_STATE.paidNotCompleted);

/** A checkout can start while the order is unpaid (a failed payment may be tried again). */
/** An invitation e-mail can be given while the order is being paid for or waits for activation. */
const INVITATION_OPEN_STATES: readonly number[] = [ORDER_STATE.created, ORDER_STATE.awaitingPayment, ORDER_STATE.paymentFailed, ORDER_STATE.paidNotCompleted];

export interface OrderItemView {
  id: number;
  platformId: number;
  platformName: string;
  platformColorOne: string;
  platformLogoBase: string;
  platformCategory: number;
  typeId: number;
  typeName: string;
  durationId: number;
  durationName: string;
  months: number;
  quantity: number;
  unitPrice: Money;
  haveInvitation: boolean;
  invitationEmail: string | null;
  /** The subscription the item was activated into (its first unit's), once it is. */
  subscriptionId: number | null;
  /** A renewal order's item: the subscription it extends (activation extends this one). */
  renewsSubscriptionId: number | null;
}

/** Where an order's discount comes from (issue 37): a promotion code, or the welcome discount of a referred buyer's first order. */
export type DiscountSource = 'code' | 'welcome';

/**
 * A step run inside the transaction that makes (or reuses) a buyer's order, before it commits:
 * applying a promotion code given with the order, or the welcome discount. A refusal there
 * refuses the order too. It answers whether it changed the order (then the order is read again
 * for the answer; most orders get no discount, and pay no second read).
 */
export type WithinOrderCreation = (order: OrderView, trx: Knex.Transaction) => Promise<boolean>;

export interface OrderView {
  id: number;
  userId: number;
  email: string;
  state: OrderState;
  total: Money;
  /** Issue 37: the catalog price before the discount; total = subtotal − discount. */
  subtotal: Money;
  discount: Money;
  /** 'code' or 'welcome'; null without a discount. */
  discountSource: DiscountSource | null;
  /** The promotion code on the order (upper case), when the discount is one. */
  promoCode: string | null;
  /** What the same options sold for in EUR when the order was made (admin totals are in EUR). */
  totalEur: Money;
  paymentMethod: PaymentMethodId | null;
  paymentMethods: PaymentMethodId[];
  languageId: LanguageId;
  createdAt: Date;
  paidAt: Date | null;
  completedAt: Date | null;
  items: OrderItemView[];
}

/** Staff exports: a file name, and the CSV text produced a batch of orders at a time. */
export interface OrdersExport {
  filename: string;
  /** How many orders matched when the export started. */
  count: number;
  lines: AsyncIterable<string>;
}

/**
 * What the export asks its caller for, a batch of orders at a time: the amount refunded of each
 * order (ids without refunds may be left out), in minor units of the order's currency.
 */
export type RefundedAmounts = (orderIds: number[]) => Promise<Map<number, number>>;

/** A paid order still waiting for activation past the promise (spec: completed within 24 hours). */
export interface WaitingOrder {
  orderId: number;
  paidAt: Date;
  /** Whole hours since payment. */
  hours: number;
}

/** Payment-to-activation times of recently completed orders, in seconds, oldest completion first. */
export interface ActivationLatency {
  completed: number;
  seconds: number[];
}

/** One page of orders, newest first; `pages` and `count` are the spec's paged count response. */
export interface OrdersPage {
  items: OrderView[];
  count: number;
  pages: number;
  page: number;
  limit: number;
}

@injectable()
export class OrdersService {
  constructor(
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.JobQueue) private readonly jobs: JobQueue,
    @inject(OrderRepository) private readonly orders: OrderRepository,
    @inject(CatalogService) private readonly catalog: CatalogService,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  /**
   * POST /api/order/insert. The buyer is the token's user whatever `userId` the payload
   * carries, and the price is the catalog's sale price for the chosen options. The buyer's open
   * order (state 0, this last hour) for the same choice, price and language is answered again
   * instead of a new one: reloading /payment is not a new order.
   */
  async createOrder(buyer: AuthenticatedUser, payload: InsertOrderInput, defaultCurrency: CurrencyCode, within?: WithinOrderCreation): Promise<OrderView> {
    const currency: CurrencyCode = payload.currency ?? currencyById(payload.currencyId ?? 0) ?? defaultCurrency;
    return this.pricedOrder({ userId: buyer.id, email: buyer.email, languageId: payload.languageId, currency }, payload, undefined, undefined, within);
  }

  /**
   * A renewal order: one more period of the options `item` was bought with, for the buyer of the
   * subscription it extends, at the catalog's sale price now (state 0; automatic renewal pays it
   * off-session, or the buyer through a payment link). Inside the caller's transaction.
   */
  async createRenewalOrder(
    source: { userId: number; email: string; languageId: LanguageId; currency: CurrencyCode; item: OrderItemView; renewsSubscriptionId: number },
    trx?: Knex.Transaction,
  ): Promise<OrderView> {
    const { item } = source;
    return this.pricedOrder(
      source,
      { platformId: item.platformId, durationId: item.durationId, typeId: item.typeId, quantity: 1 },
      source.renewsSubscriptionId,
      trx,
    );
  }

  /** What one more period of the item's options costs in `currency` now; undefined when it is no longer sold so. */
  async renewalPrice(item: OrderItemView, currency: CurrencyCode, languageId: LanguageId): Promise<Money | undefined> {
    try {
      const platform = await this.catalog.getPlatform(item.platformId, languageId);
      if (!platform.durations.some((option) => option.id === item.durationId && option.isEnabled)) return undefined;
      if (!platform.types.some((option) => option.id === item.typeId && option.isEnabled)) return undefined;
      const price = platform.prices
        .find((entry) => entry.durationId === item.durationId && entry.typeId === item.typeId)
        ?.salePrice.find((p) => p.currency === currency);
      return price && money(price.amount, currency);
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  }

  private async pricedOrder(
    buyer: { userId: number; email: string; languageId: LanguageId; currency: CurrencyCode },
    payload: { platformId: number; durationId: number; typeId: number; quantity: number },
    renewsSubscriptionId?: number,
    trx?: Knex.Transaction,
    within?: WithinOrderCreation,
  ): Promise<OrderView> {
    const { languageId, currency } = buyer;
    const platform = await this.catalog.getPlatform(payload.platformId, languageId);
    // Every account broken (issue 33): a new order would only wait. A renewal keeps its slot, so it may.
    if (platform.offSale && renewsSubscriptionId === undefined) throw fail('platform_off_sale');
    const duration = platform.durations.find((option) => option.id === payload.durationId && option.isEnabled);
    const type = platform.types.find((option) => option.id === payload.typeId && option.isEnabled);
    const errors: Record<string, string> = {};
    if (!duration) errors.durationId = 'This duration is not available for this platform.';
    if (!type) errors.typeId = 'This type is not available for this platform.';
    if (payload.quantity > platform.maxQuantity) errors.quantity = `At most ${platform.maxQuantity} per order.`;
    if (Object.keys(errors).length > 0) throw fail('option_unavailable', undefined, { errors: errors });
    const salePrices = platform.prices.find((entry) => entry.durationId === duration!.id && entry.typeId === type!.id)?.salePrice ?? [];
    const price = salePrices.find((p) => p.currency === currency);
    if (!price) throw fail('price_unavailable', undefined, { errors: { currency: 'not priced' } });
    // Admin totals are in EUR: what this option sells for in EUR right now (0 if it has no EUR price).
    const eurPrice = salePrices.find((p) => p.currency === 'EUR');

    const now = this.clock.now();
    const item = {
      platform_id: platform.id,
      duration_id: duration!.id,
      plan_type_id: type!.id,
      months: duration!.months,
      quantity: payload.quantity,
      unit_price_minor: price.amount,
      currency,
      needs_invitation: platform.needsInvitation,
      invitation_email: null,
      platform_name: platform.name,
      type_name: type!.name,
      duration_name: duration!.name,
      platform_logo_base: platform.logoBase,
      platform_color_one: platform.colorOne,
      platform_category: platform.category,
      renews_subscription_id: renewsSubscriptionId ?? null,
    };
    const header = {
      user_id: buyer.userId,
      email: buyer.email,
      currency,
      total_minor: price.amount * payload.quantity,
      subtotal_minor: price.amount * payload.quantity,
      total_eur_minor: (eurPrice?.amount ?? 0) * payload.quantity,
      payment_method: DEFAULT_PAYMENT_METHOD,
      language_id: languageId,
      created_at: now,
    };
    // A renewal order is made once per period by the renewal pass, inside its transaction.
    if (renewsSubscriptionId !== undefined) return toView(await this.orders.create(header, [item], trx));
    // A buyer's order requests are taken one at a time, so two reloads at once cannot both miss
    // the open order and make two.
    const order = await this.knex.transaction(async (own) => {
      await own.raw('select pg_advisory_xact_lock(?, ?)', [ORDER_CREATE_LOCK, buyer.userId]);
      const open = await this.orders.openUnpaidOf(buyer.userId, { ...item, language_id: languageId }, new Date(now.getTime() - REUSE_OPEN_ORDER_MS), own);
      const made = open ?? (await this.orders.create(header, [item], own));
      if (!within || !(await within(toView(made), own))) return made;
      return (await this.orders.findWithItems(made.id, own))!;
    });
    return toView(order);
  }

  /** A buyer sees only their own orders (others look missing); staff see every order. */
  async getOrder(viewer: AuthenticatedUser, orderId: number): Promise<OrderView> {
    const order = Number.isSafeInteger(orderId) && orderId > 0 ? await this.orders.findWithItems(orderId) : undefined;
    if (!order || (order.user_id !== viewer.id && viewer.role < ROLES.moderator)) throw fail('order_not_found');
    return toView(order);
  }

  /**
   * The buyer's own order, when it can still be paid (created, awaiting payment, or its payment
   * failed): staff cannot pay someone else's order, so it looks missing to them too.
   */
  async payableOrder(buyer: AuthenticatedUser, orderId: number): Promise<OrderView> {
    const order = await this.getOrder(buyer, orderId);
    if (order.userId !== buyer.id) throw fail('order_not_found');
    if (!PAYABLE_STATES.includes(order.state)) throw fail('order_not_payable');
    return order;
  }

  /** Any order by id, for staff's tools and flows (undefined when there is none). */
  async find(orderId: number, trx?: Knex.Transaction): Promise<OrderView | undefined> {
    const order = await this.orders.findWithItems(orderId, trx);
    return order && toView(order);
  }

  /** Several orders by id, in no particular order (unknown ids are left out). */
  async findMany(orderIds: number[]): Promise<OrderView[]> {
    if (orderIds.length === 0) return [];
    return (await this.orders.findManyWithItems([...new Set(orderIds)])).map(toView);
  }

  /** For flows inside their transaction: the order, locked until it commits. */
  async lockForUpdate(orderId: number, trx: Knex.Transaction): Promise<OrderView | undefined> {
    const locked = await this.orders.lockWithItems(orderId, trx);
    return locked && toView(locked);
  }

  /** Moves an order to a new state if that is a forward move; returns whether it moved. */
  async moveTo(orderId: number, state: OrderState, trx: Knex.Transaction, patch: { paymentMethod?: PaymentMethodId } = {}): Promise<boolean> {
    const order = await this.orders.lock(orderId, trx);
    if (!order) return false;
    if (order.state === state) {
      if (patch.paymentMethod) await this.orders.update(orderId, { payment_method: patch.paymentMethod, updated_at: this.clock.now() }, trx);
      return false;
    }
    if (!canMove(order.state, state)) return false;
    await this.orders.update(orderId, { state, updated_at: this.clock.now(), ...(patch.paymentMethod ? { payment_method: patch.paymentMethod } : {}) }, trx);
    return true;
  }

  /**
   * The money arrived (a verified provider signal, applied by the payment-notification flow in
   * its transaction): state 6, and the activation job is sent in the same transaction. Returns
   * false when the order was already paid (nothing happens twice).
   */
  async markPaid(orderId: number, paymentMethod: PaymentMethodId, trx: Knex.Transaction): Promise<boolean> {
    const now = this.clock.now();
    const patch = { state: ORDER_STATE.paidNotCompleted, paid_at: now, payment_method: paymentMethod, updated_at: now };
    if (!(await this.orders.updateIfIn(orderId, BEFORE_PAID, patch, trx))) return false;
    await this.jobs.send(ORDER_QUEUES.activate.name, { orderId }, { trx, singletonKey: activationKey(orderId) });
    return true;
  }

  /**
   * Activation's last step, inside the activation's transaction: each item points at its
   * subscription, and the order is completed (6 → 2). False when the order was not waiting.
   */
  async complete(orderId: number, items: Array<{ itemId: number; subscriptionId: number }>, trx: Knex.Transaction): Promise<boolean> {
    const now = this.clock.now();
    // One statement: the activation holds its platforms' claim lock meanwhile.
    return this.orders.completeIfIn(orderId, BEFORE_COMPLETED, { state: ORDER_STATE.completed, completed_at: now, updated_at: now }, items, trx);
  }

  /** Orders paid but not completed, oldest payment first; only those with an item of `platformId` when given. */
  waitingOrderIds(options: { platformId?: number; limit?: number } = {}): Promise<number[]> {
    return this.orders.waitingIds(options.platformId, options.limit ?? 500);
  }

  /** A user's paid orders (completed, waiting, refunded) with their items, newest first: the panel's source. */
  async paidOrdersOfUser(userId: number): Promise<OrderView[]> {
    return (await this.orders.ofUserInStates(userId, PAID_STATES)).map(toView);
  }

  /** The order an order item belongs to, with its items (a subscription names only its order item). */
  async orderOfItem(orderItemId: number, trx?: Knex.Transaction): Promise<OrderView | undefined> {
    const order = await this.orders.findByItemId(orderItemId, trx);
    return order ? toView(order) : undefined;
  }

  /**
   * POST /api/order/setinvatiotaionemail { email, orderId }: the buyer's platform login e-mail for
   * a family-group invitation, on their own order's items that need one. Once given it is
   * read-only: the same e-mail again answers it; another one is a conflict.
   */
  async setInvitationEmail(buyer: AuthenticatedUser, { email, orderId }: InvitationEmailInput): Promise<{ email: string }> {
    return this.knex.transaction(async (trx) => {
      const order = await this.orders.lock(orderId, trx);
      if (!order || order.user_id !== buyer.id) throw fail('order_not_found');
      const items = (await this.orders.findWithItems(orderId, trx))!.items ?? [];
      const invited = items.filter((item) => item.needs_invitation);
      if (invited.length === 0) throw fail('invitation_not_needed');
      const existing = invited.find((item) => item.invitation_email !== null)?.invitation_email;
      if (existing) {
        if (existing === email) return { email: existing };
        throw fail('invitation_email_set');
      }
      if (!INVITATION_OPEN_STATES.includes(order.state)) throw fail('order_closed');
      await this.orders.setInvitationEmail(orderId, email, trx);
      await this.orders.update(orderId, { updated_at: this.clock.now() }, trx);
      return { email };
    });
  }

  /**
   * Sets an unpaid order's discount (issue 37) inside the caller's transaction, which holds the
   * order's lock: the total becomes subtotal − discount. The caller checks the order may change
   * (unpaid, no checkout open for the old amount).
   */
  async setDiscount(orderId: number, discount: { amount: Money; source: DiscountSource; promoCode?: string } | null, trx: Knex.Transaction): Promise<void> {
    const minor = discount?.amount.amount ?? 0;
    await this.orders.setDiscount(
      orderId,
      minor > 0 ? { minor, source: discount!.source, promoCode: discount!.promoCode ?? null } : null,
      this.clock.now(),
      trx,
    );
  }

  /** Whether the buyer has paid for an order (paid, completed or refunded) other than `exceptOrderId`: "first order only". */
  hasPaidOrder(userId: number, exceptOrderId: number, trx?: Knex.Transaction): Promise<boolean> {
    return this.orders.hasPaidOrder(userId, exceptOrderId, PAID_STATES, trx);
  }

  /** The buyer's orders other than `exceptOrderId` whose discount comes from `source`, in any state, read in the caller's transaction. */
  carryingDiscount(userId: number, source: DiscountSource, exceptOrderId: number, trx: Knex.Transaction): Promise<number[]> {
    return this.orders.idsWithDiscountSource(userId, source, exceptOrderId, trx);
  }

  /** Which of these orders are paid (paid, completed or refunded). */
  async paidAmong(orderIds: number[]): Promise<Set<number>> {
    return new Set(await this.orders.idsInStates(orderIds, PAID_STATES));
  }

  /** Which of these orders can still be paid (created, awaiting payment, payment failed), read in the caller's transaction. */
  async payableAmong(orderIds: number[], trx: Knex.Transaction): Promise<Set<number>> {
    return new Set(await this.orders.idsInStates(orderIds, PAYABLE_STATES, trx));
  }

  unpaidCreatedBefore(before: Date, limit = 200): Promise<number[]> {
    return this.orders.unpaidCreatedBefore(before, limit);
  }

  /**
   * Staff and operators: the orders in one state, newest first, one page at a time (`{ state,
   * page = 1, limit = 20 }`, limit 1 to 100). The admin area's `getbystate` and the CLI's
   * `list-orders` read this; `listOrders` is the same list without the state (`getorders`).
   */
  async listByState({ state, page, limit }: OrdersByStateQuery): Promise<OrdersPage> {
    return this.pageOf({ state }, page, limit);
  }

  /** Every order, newest first, a page at a time (`{ page = 1, limit = 20 }`): the admin area's `getorders`. */
  async listOrders({ page, limit }: OrdersQuery): Promise<OrdersPage> {
    return this.pageOf({}, page, limit);
  }

  /** `getorderspages { state?, limit = 20 }`: how many orders (in that state, or in all) and how many pages of `limit`. */
  async countPages({ state, limit }: OrderPagesQuery): Promise<PageCount> {
    const count = await this.orders.count({ state });
    return { pages: pagesOf(count, limit), count };
  }

  /**
   * Staff and operators: the orders (in one state, or all) as CSV, newest first. The export is
   * audited (`orders.export`) before the first line goes out; the lines are produced a batch of
   * orders at a time, so a long history never sits in memory. The `refunded` column comes from
   * the caller (refunds are the payments module's), asked once a batch.
   */
  async exportCsv(actor: AuditActor, { state }: ExportQuery, refundedOf: RefundedAmounts): Promise<OrdersExport> {
    const count = await this.orders.count({ state });
    await this.audit.record(actor, { action: 'orders.export', targetType: 'orders', details: { state: state ?? null, count, format: 'csv' } });
    const day = this.clock.now().toISOString().slice(0, 10);
    return { filename: `orders-${state === undefined ? 'all' : `state-${state}`}-${day}.csv`, count, lines: this.csvLines({ state }, refundedOf) };
  }

  /**
   * Dashboard: the EUR paid on each of the last `days` UTC days (today last): the orders paid that
   * day, refunded ones included (their payment was revenue the day it came; what went back is the
   * refund's day's business, which the orders module does not know).
   */
  async eurPaidByDay(days: number): Promise<Array<{ day: string; totalEur: Money }>> {
    const now = this.clock.now();
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const from = new Date(today - (days - 1) * DAY_MS);
    const totals = await this.orders.eurTotalsByPaidDay(from, new Date(today + DAY_MS), PAID_STATES);
    return Array.from({ length: days }, (_, index) => {
      const day = new Date(from.getTime() + index * DAY_MS).toISOString().slice(0, 10);
      return { day, totalEur: money(totals.get(day) ?? 0, 'EUR') };
    });
  }

  /** Dashboard (issue 37): the paid orders (paid, completed or refunded) that got the welcome discount, and that discount per currency. */
  async welcomeDiscountsGranted(): Promise<{ paidOrders: number; granted: Money[] }> {
    const rows = await this.orders.discountTotals('welcome', PAID_STATES);
    return {
      paidOrders: rows.reduce((sum, row) => sum + row.count, 0),
      granted: rows.map((row) => money(row.discount, row.currency as CurrencyCode)),
    };
  }

  /** Dashboard: how many orders are in each state, every state present. */
  async countByState(): Promise<Record<OrderState, number>> {
    const counts = await this.orders.countByState();
    return Object.fromEntries(Object.values(ORDER_STATE).map((state) => [state, counts.get(state) ?? 0])) as Record<OrderState, number>;
  }

  /** Dashboard: paid orders waiting for activation longer than `hours`, oldest payment first. */
  async waitingLongerThan(hours: number, limit = 500): Promise<WaitingOrder[]> {
    const now = this.clock.now().getTime();
    const rows = await this.orders.waitingPaidBefore(new Date(now - hours * HOUR_MS), limit);
    return rows.map((row) => ({ orderId: row.id, paidAt: row.paid_at, hours: Math.floor((now - row.paid_at.getTime()) / HOUR_MS) }));
  }

  /** Metrics: how many paid orders wait for activation longer than `hours`. */
  async countWaitingLongerThan(hours: number, trx?: Knex.Transaction): Promise<number> {
    return this.orders.countWaitingPaidBefore(new Date(this.clock.now().getTime() - hours * HOUR_MS), trx);
  }

  /**
   * Metrics: how long the orders completed in the last `hours` waited from payment to activation
   * (automatic or by staff): each one's wait in seconds.
   */
  async activationLatency(hours: number, trx?: Knex.Transaction): Promise<ActivationLatency> {
    const since = new Date(this.clock.now().getTime() - hours * HOUR_MS);
    const seconds = await this.orders.completionLatencies(since, trx);
    return { completed: seconds.length, seconds };
  }

  /**
   * The catalog editor: which of a platform's durations and types orders name (any state), so
   * that those are disabled rather than removed. Order items keep their own snapshot of names
   * and prices; the ids still point at the shared duration and type rows.
   */
  async orderedOptions(platformId: number, trx?: Knex.Transaction): Promise<{ durationIds: Set<number>; typeIds: Set<number> }> {
    const rows = await this.orders.orderedOptions(platformId, trx);
    return { durationIds: new Set(rows.map((row) => row.duration_id)), typeIds: new Set(rows.map((row) => row.plan_type_id)) };
  }

  /** How many orders name each platform (the catalog editor's list). */
  async orderCountsByPlatform(): Promise<Map<number, number>> {
    const rows = await this.orders.orderCountsByPlatform();
    return new Map(rows.map((row) => [row.platform_id, Number(row.count)]));
  }

  private async pageOf(filter: OrderFilter, page: number, limit: number): Promise<OrdersPage> {
    const { rows, count } = await this.orders.page(filter, offsetOf(page, limit), limit);
    return { items: rows.map(toView), count, pages: pagesOf(count, limit), page, limit };
  }

  private async *csvLines(filter: OrderFilter, refundedOf: RefundedAmounts): AsyncGenerator<string> {
    yield csvLine([...ORDER_CSV_COLUMNS]);
    let afterId: number | undefined;
    for (;;) {
      const batch = await this.orders.batchAfter(filter, afterId, EXPORT_BATCH);
      const refunded = batch.length > 0 ? await refundedOf(batch.map((order) => order.id)) : new Map<number, number>();
      for (const order of batch) yield orderCsvLine(toView(order), refunded.get(order.id));
      if (batch.length < EXPORT_BATCH) return;
      afterId = batch[batch.length - 1].id;
    }
  }
}

function toView(order: OrderRow): OrderView {
  const currency = order.currency as CurrencyCode;
  return {
    id: order.id,
    userId: order.user_id,
    email: order.email,
    state: order.state as OrderState,
    total: money(order.total_minor, currency),
    subtotal: money(order.subtotal_minor ?? order.total_minor, currency),
    discount: money(order.discount_minor ?? 0, currency),
    discountSource: order.discount_source === 'code' || order.discount_source === 'welcome' ? order.discount_source : null,
    promoCode: order.promo_code ?? null,
    totalEur: money(order.total_eur_minor, 'EUR'),
    paymentMethod: isPaymentMethodId(order.payment_method) ? order.payment_method : null,
    paymentMethods: METHODS_BY_CURRENCY[currency] ?? [DEFAULT_PAYMENT_METHOD],
    languageId: order.language_id === 2 ? 2 : 1,
    createdAt: order.created_at,
    paidAt: order.paid_at,
    completedAt: order.completed_at,
    items: (order.items ?? []).map((item) => ({
      id: item.id,
      platformId: item.platform_id,
      platformName: item.platform_name,
      platformColorOne: item.platform_color_one,
      platformLogoBase: item.platform_logo_base,
      platformCategory: item.platform_category,
      typeId: item.plan_type_id,
      typeName: item.type_name,
      durationId: item.duration_id,
      durationName: item.duration_name,
      months: item.months,
      quantity: item.quantity,
      unitPrice: money(item.unit_price_minor, currency),
      haveInvitation: item.needs_invitation,
      invitationEmail: item.invitation_email,
      subscriptionId: item.subscription_id,
      renewsSubscriptionId: item.renews_subscription_id ?? null,
    })),
  };
}
