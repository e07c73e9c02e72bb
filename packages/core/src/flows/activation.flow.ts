/**
 * Activation: a paid order (state 6) becomes subscriptions, or waits.
 *
 *   payments ──markPaid──▶ orders (state 6) + job `order-activate` (same transaction)
 *   worker ──▶ activate(orderId), one transaction:
 *       lock the order ─▶ still 6? ─▶ invitation needed? ─▶ wait
 *                                  └▶ claim a slot per item unit (subscriptions; the exclusion
 *                                     constraint decides races: a taken candidate is skipped)
 *                                       ├ all claimed ─▶ items → subscriptions, order 2,
 *                                       │                e-mail purchasedActiveSubscribe
 *                                       └ none free ──▶ claims undone (savepoint; one unit: none
 *                                                        made), order stays 6,
 *                                                        e-mail purchasedNotActiveSubscribe
 *   new capacity (`account-created`, `subscriptions-activate-waiting`) ──▶ activateWaiting: every waiting
 *       order tried again, oldest payment first (capacity that comes during the pass goes to
 *       the older orders of that platform it passed over first: a younger one that finds it yields)
 *   staff ──▶ activateNow(orderId): the same, invitations included; no free slot is a 409.
 *
 * Renewal: when the buyer already holds a subscription of the item's platform (on an active
 * account, not past its end, or its slot held for a renewal charge being retried), the item's unit extends that subscription on the same slot from
 * its current end date instead of claiming a new slot (one subscription per unit, soonest end
 * first; recorded in `subscription_renewals`, unique per order item unit). The buyer is already
 * on the account or in the family group, so a renewal never waits for an invitation. Should the
 * longer period meet another subscription on that slot, the unit gets a new slot from now.
 *
 * Every step runs in the one transaction, so a crash anywhere leaves nothing behind and the
 * job's retry starts from scratch; e-mails carry idempotency keys, so a repeat writes nothing.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { moneyLabel, OrderAccess } from './order-access.js';
import { addMonths, type Clock } from '../shared/clock.js';
import { ConflictError, fail } from '../shared/errors.js';
import type { JobQueue } from '../shared/jobs.js';
import type { Logger } from '../shared/logger.js';
import { TOKENS } from '../shared/tokens.js';
import type { AccountSlots } from '../modules/accounts/index.js';
import { type AuditActor, AuditService } from '../modules/audit/index.js';
import { EMAIL_KIND, type EmailPrice, NotificationsService } from '../modules/notifications/index.js';
import { activationKey, ORDER_QUEUES, ORDER_STATE, type OrderItemView, OrdersService, type OrderView } from '../modules/orders/index.js';
import { type ClaimedSlot, SubscriptionsService, type SubscriptionView } from '../modules/subscriptions/index.js';
import type { ActivateInput } from '../wire/subscriptions.js';

/** `yielded`: free slots were found, but older waiting orders come first (activateWaiting only; nothing changed). */
export type ActivationOutcome = 'activated' | 'waiting' | 'not_waiting' | 'missing' | 'yielded';

export interface ActivatedSlot {
  subscriptionId: number;
  orderItemId: number;
  platformAccountId: number;
  slot: number;
  accountSlotsCount: number;
  startsAt: Date;
  endsAt: Date;
  /** True when the unit extended the buyer's existing subscription (renewal) rather than claiming a slot. */
  renewed: boolean;
}

export interface ActivationResult {
  orderId: number;
  outcome: ActivationOutcome;
  /** The order's state after the call (undefined when the order does not exist). */
  state?: number;
  /** Why a waiting order waits: no free slot for it, or staff must invite the buyer first. */
  waitsFor?: 'slots' | 'invitation';
  /** The platforms a waiting or yielding order needs slots on. */
  platformIds?: number[];
  subscriptions: ActivatedSlot[];
}

/** Deadlock or serialization failure: the whole transaction is safe to run again. */
const RETRYABLE = new Set(['40P01', '40001']);
const ATTEMPTS = 3;

class NoFreeSlot extends Error {}
class Yielded extends Error {}
const YIELDED = Symbol('yielded');
const NO_YIELD: ReadonlySet<number> = new Set();

@injectable()
export class ActivationFlow {
  private readonly logger: Logger;

  constructor(
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.JobQueue) private readonly jobs: JobQueue,
    @inject(TOKENS.Logger) logger: Logger,
    @inject(OrdersService) private readonly orders: OrdersService,
    @inject(SubscriptionsService) private readonly subscriptions: SubscriptionsService,
    @inject(NotificationsService) private readonly notifications: NotificationsService,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(OrderAccess) private readonly access: OrderAccess,
  ) {
    this.logger = logger.child({ flow: 'activation' });
  }

  /** The `order-activate` job: activates the order if it waits and slots are free; safe to run any number of times. */
  async activate(orderId: number): Promise<ActivationResult> {
    const result = await this.withRetry(() => this.run(orderId));
    this.logger.info({ orderId, outcome: result.outcome, subscriptionIds: result.subscriptions.map((s) => s.subscriptionId) }, 'activation ran');
    return result;
  }

  /**
   * POST /api/webhook/activatesubscribe { orderId } (staff): activates a waiting order now, also
   * when its platform needs an invitation (staff have invited the buyer). 404 unknown order,
   * 409 `order_not_waiting` or `no_free_slot`; audited as `order.activate`.
   */
  async activateNow(actor: AuditActor, { orderId }: ActivateInput): Promise<ActivationResult> {
    const result = await this.withRetry(() => this.run(orderId, { staff: actor }));
    if (result.outcome === 'missing') throw fail('order_not_found');
    if (result.outcome === 'not_waiting') throw new ConflictError(`This order is not waiting for activation (state ${result.state}).`, 'order_not_waiting');
    this.logger.info({ orderId, subscriptionIds: result.subscriptions.map((s) => s.subscriptionId) }, 'order activated by staff');
    return result;
  }

  /**
   * Tries the waiting orders again (those with an item of one platform, or all), one by one,
   * oldest payment first, so that new capacity goes to whoever has waited longest. Each try is
   * the job's own transaction; an order whose try fails gets its activation job queued instead
   * (key `order:<id>`), which retries with backoff. Safe to run at any time, from any process.
   */
  async activateWaiting(options: { platformId?: number } = {}): Promise<{ waiting: number; activated: number; queued: number }> {
    const ids = await this.orders.waitingOrderIds({ platformId: options.platformId });
    let activated = 0;
    let queued = 0;
    const tryOrder = async (orderId: number, yieldOn: ReadonlySet<number>): Promise<ActivationResult | undefined> => {
      try {
        const result = await this.withRetry(() => this.run(orderId, { yieldOn }));
        if (result.outcome === 'activated') activated += 1;
        return result;
      } catch (error) {
        this.logger.warn({ err: error, orderId }, 'activation of a waiting order failed; its job will retry it');
        if (await this.jobs.send(ORDER_QUEUES.activate.name, { orderId }, { singletonKey: activationKey(orderId) })) queued += 1;
        return undefined;
      }
    };
    // The orders this pass found without a free slot, oldest first, with their platforms. Capacity
    // can come while a pass runs (an account added, a refund, another pass): a younger order that
    // finds slots free under the claim lock on one of those platforms yields (its claim undone),
    // and the pass offers them to the older orders of that platform first.
    let passedOver: Array<{ orderId: number; platformIds: number[] }> = [];
    const waitingForSlots = (orderId: number, result: ActivationResult | undefined) =>
      result?.outcome === 'waiting' && result.waitsFor === 'slots' ? [{ orderId, platformIds: result.platformIds ?? [] }] : [];
    for (const orderId of ids) {
      let result = await tryOrder(orderId, new Set(passedOver.flatMap((entry) => entry.platformIds)));
      if (result?.outcome === 'yielded') {
        // The older ones of those platforms first; those that still wait cannot use these slots
        // (an order of more units than are free), so neither they nor this order yields to them again.
        const platforms = new Set(result.platformIds);
        const kept: typeof passedOver = [];
        for (const entry of passedOver) {
          if (entry.platformIds.some((id) => platforms.has(id))) kept.push(...waitingForSlots(entry.orderId, await tryOrder(entry.orderId, NO_YIELD)));
          else kept.push(entry);
        }
        passedOver = kept;
        result = await tryOrder(orderId, NO_YIELD);
      }
      passedOver.push(...waitingForSlots(orderId, result));
    }
    if (ids.length > 0) this.logger.info({ platformId: options.platformId, waiting: ids.length, activated, queued }, 'waiting orders tried again');
    return { waiting: ids.length, activated, queued };
  }

  /**
   * One try, in one transaction. `staff`: activateNow (invitations count as done; audited).
   * `yieldOn`: activateWaiting, the platforms on which older orders of its pass found no slot;
   * slots found there now are capacity that came during the pass, and this order leaves them to
   * those first.
   */
  private run(orderId: number, { staff, yieldOn = NO_YIELD }: { staff?: AuditActor; yieldOn?: ReadonlySet<number> } = {}): Promise<ActivationResult> {
    return this.knex.transaction(async (trx) => {
      const order = await this.orders.lockForUpdate(orderId, trx);
      if (!order) return { orderId, outcome: 'missing', subscriptions: [] };
      if (order.state !== ORDER_STATE.paidNotCompleted) return { orderId, outcome: 'not_waiting', state: order.state, subscriptions: [] };

      const pending = order.items.filter((item) => item.subscriptionId === null);
      const accounts = await this.slotAccountsOf(pending, trx);
      const renewals = await this.renewalsFor(order, pending, accounts, trx);
      // Only a unit that needs a new slot on a family-group platform waits for the invitation.
      const needsInvitation = pending.some((item) => item.haveInvitation && (renewals.get(item.id)?.length ?? 0) < item.quantity);
      const needsStaff = !staff && needsInvitation;
      const platformIds = [...new Set(pending.map((item) => item.platformId))];
      const claimed = needsStaff || pending.length === 0 ? undefined : await this.claimAll(order, pending, accounts, renewals, trx, yieldOn);
      if (claimed === YIELDED) return { orderId, outcome: 'yielded', state: order.state, platformIds, subscriptions: [] };

      if (!claimed) {
        if (staff) throw fail('no_free_slot');
        await this.notifications.enqueue(
          {
            kind: EMAIL_KIND.purchasedNotActiveSubscribe,
            to: order.email,
            languageId: order.languageId,
            userId: order.userId,
            data: { orderId: order.id, platformName: pending[0]?.platformName ?? '', needsInvitation, ...emailPriceOf(order) },
            idempotencyKey: `order:${order.id}:purchased`,
          },
          trx,
        );
        return { orderId, outcome: 'waiting', state: order.state, waitsFor: needsStaff ? 'invitation' : 'slots', platformIds, subscriptions: [] };
      }

      const firstOfItem = new Map<number, number>();
      for (const unit of claimed) if (!firstOfItem.has(unit.orderItemId)) firstOfItem.set(unit.orderItemId, unit.subscription.id);
      await this.orders.complete(
        order.id,
        [...firstOfItem].map(([itemId, subscriptionId]) => ({ itemId, subscriptionId })),
        trx,
      );
      // A dispute that arrived before the payment (and waited for it) withholds the new slot too.
      await this.access.follow(order.id, 'ledger', trx);
      const [first] = claimed;
      const item = order.items.find((candidate) => candidate.id === first.orderItemId)!;
      await this.notifications.enqueue(
        {
          kind: EMAIL_KIND.purchasedActiveSubscribe,
          to: order.email,
          languageId: order.languageId,
          userId: order.userId,
          data: {
            orderId: order.id,
            platformName: item.platformName,
            endTime: first.subscription.endsAt,
            profileNumber: first.account.slotsCount > 1 ? first.subscription.slot : null,
            ...emailPriceOf(order),
          },
          idempotencyKey: `order:${order.id}:activated`,
        },
        trx,
      );
      const subscriptions = claimed.map(toActivatedSlot);
      if (staff) {
        await this.audit.record(
          staff,
          {
            action: 'order.activate',
            targetType: 'order',
            targetId: order.id,
            details: {
              orderId: order.id,
              subscriptions: subscriptions.map((s) => ({ id: s.subscriptionId, platformAccountId: s.platformAccountId, slot: s.slot })),
            },
          },
          trx,
        );
      }
      return { orderId, outcome: 'activated', state: ORDER_STATE.completed, subscriptions };
    });
  }

  /**
   * The buyer's subscriptions each pending item renews, by item id (at most one per unit, each
   * subscription at most once per order), locked to the transaction. Taken before the platforms'
   * claim locks, the same order as replacement takes them (subscription row, then claim lock).
   */
  private async renewalsFor(
    order: OrderView,
    pending: OrderItemView[],
    accounts: SlotAccounts,
    trx: Knex.Transaction,
  ): Promise<Map<number, SubscriptionView[]>> {
    const renewals = new Map<number, SubscriptionView[]>();
    const taken = new Set<number>();
    for (const item of pending) {
      const candidates = (await this.subscriptions.renewable(order.userId, accounts.get(item.platformId)!, trx))
        .filter((subscription) => !taken.has(subscription.id))
        // A renewal order (automatic renewal, its payment link) extends the subscription it names first.
        .sort((a, b) => Number(b.id === item.renewsSubscriptionId) - Number(a.id === item.renewsSubscriptionId));
      const chosen = candidates.slice(0, item.quantity);
      for (const subscription of chosen) taken.add(subscription.id);
      if (chosen.length > 0) renewals.set(item.id, chosen);
    }
    return renewals;
  }

  /**
   * One subscription per unit of every pending item, all or none (a savepoint holds them until
   * all are found): the renewed subscription extended, otherwise a new slot claimed.
   */
  private async claimAll(
    order: OrderView,
    pending: OrderItemView[],
    accounts: SlotAccounts,
    renewals: Map<number, SubscriptionView[]>,
    trx: Knex.Transaction,
    yieldOn: ReadonlySet<number>,
  ): Promise<ClaimedUnit[] | undefined | typeof YIELDED> {
    const startsAt = this.clock.now();
    if (!(await this.slotsMayBeFree(pending, accounts, renewals, startsAt, trx))) return undefined;
    // One unit that must not yield has nothing to undo when it finds no slot (its failed try wrote
    // nothing): no savepoint, two round trips fewer (its release came while the claim lock was held).
    const units = pending.reduce((sum, item) => sum + item.quantity, 0);
    const allOrNone = <T>(work: (savepoint: Knex.Transaction) => Promise<T>) => (units === 1 && yieldOn.size === 0 ? work(trx) : trx.transaction(work));
    try {
      return await allOrNone(async (savepoint) => {
        // Several platforms: their claim locks in one order first, so two such orders never wait
        // on each other. One platform: its first claim takes the lock (in the same call as the slot).
        const platforms = new Set(pending.map((item) => item.platformId));
        if (platforms.size > 1) await this.subscriptions.lockPlatforms([...platforms], savepoint);
        const claimed: ClaimedUnit[] = [];
        for (const item of pending) {
          for (let unit = 0; unit < item.quantity; unit += 1) {
            const renewing = renewals.get(item.id)?.[unit];
            const extended = renewing && (await this.subscriptions.extend(renewing.id, item.months, { orderItemId: item.id, unit }, savepoint));
            if (extended) {
              claimed.push({ ...extended, orderItemId: item.id, renewed: true });
              continue;
            }
            const last = claimed.findLast((candidate) => !candidate.renewed);
            const slot = await this.subscriptions.claimSlot(
              {
                userId: order.userId,
                orderItemId: item.id,
                unit,
                platformId: item.platformId,
                accounts: accounts.get(item.platformId),
                startsAt,
                endsAt: addMonths(startsAt, item.months),
                after: last ? { accountId: last.account.id, slot: last.subscription.slot } : undefined,
              },
              savepoint,
            );
            if (!slot) throw new NoFreeSlot();
            claimed.push({ ...slot, orderItemId: item.id, renewed: false });
          }
        }
        // Undone with the savepoint: the slots stay free for the older orders.
        const platformOf = new Map(pending.map((item) => [item.id, item.platformId]));
        if (claimed.some((unit) => !unit.renewed && yieldOn.has(platformOf.get(unit.orderItemId)!))) throw new Yielded();
        return claimed;
      });
    } catch (error) {
      if (error instanceof NoFreeSlot) return undefined;
      if (error instanceof Yielded) return YIELDED;
      throw error;
    }
  }

  /**
   * A sold-out platform, told without queueing on its claim lock: the lock is held until the
   * claiming transaction commits (its e-mail included), so during a rush every paid order of a
   * full platform would otherwise wait for each one before it only to learn that it waits. The
   * read is not locked: a slot freed after it is offered to the waiting orders by whoever freed
   * it (refund, expiry, a new account: activateWaiting) and by the `subscriptions-activate-waiting` job.
   */
  private async slotsMayBeFree(
    pending: OrderItemView[],
    accounts: SlotAccounts,
    renewals: Map<number, SubscriptionView[]>,
    startsAt: Date,
    trx: Knex.Transaction,
  ): Promise<boolean> {
    const needed = new Map<string, { platformId: number; months: number; units: number }>();
    for (const item of pending) {
      const units = item.quantity - (renewals.get(item.id)?.length ?? 0);
      if (units <= 0) continue;
      const key = `${item.platformId}:${item.months}`;
      const entry = needed.get(key) ?? { platformId: item.platformId, months: item.months, units: 0 };
      entry.units += units;
      needed.set(key, entry);
    }
    for (const { platformId, months, units } of needed.values()) {
      if (!(await this.subscriptions.hasFreeSlots(accounts.get(platformId)!, units, startsAt, addMonths(startsAt, months), trx))) return false;
    }
    return true;
  }

  /**
   * The accounts of each pending item's platform, read once for the renewals, the free-slot probe
   * and the claims of this transaction. An account added meanwhile is capacity like any other
   * (its `account-created` job tries the waiting orders again); one deactivated meanwhile can still
   * be claimed on, as between any read of the accounts and the insert (deactivating takes no claim lock).
   */
  private async slotAccountsOf(pending: OrderItemView[], trx: Knex.Transaction): Promise<SlotAccounts> {
    const accounts: SlotAccounts = new Map();
    for (const platformId of new Set(pending.map((item) => item.platformId))) accounts.set(platformId, await this.subscriptions.slotAccounts(platformId, trx));
    return accounts;
  }

  private async withRetry<T>(task: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await task();
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (attempt >= ATTEMPTS || !code || !RETRYABLE.has(code)) throw error;
        this.logger.warn({ code, attempt }, 'activation transaction aborted by the database; running it again');
      }
    }
  }
}

/** Each platform's accounts that take new subscriptions (`SubscriptionsService.slotAccounts`). */
type SlotAccounts = Map<number, AccountSlots[]>;

/** A unit's subscription: a new slot, or the buyer's subscription it renewed (whose own order item is an older one). */
type ClaimedUnit = ClaimedSlot & { orderItemId: number; renewed: boolean };

function toActivatedSlot(claimed: ClaimedUnit): ActivatedSlot {
  return {
    subscriptionId: claimed.subscription.id,
    orderItemId: claimed.orderItemId,
    platformAccountId: claimed.subscription.platformAccountId,
    slot: claimed.subscription.slot,
    accountSlotsCount: claimed.account.slotsCount,
    startsAt: claimed.subscription.startsAt,
    endsAt: claimed.subscription.endsAt,
    renewed: claimed.renewed,
  };
}

/**
 * The order e-mail's price lines (issue 37): the price, the discount (its code, or the welcome
 * discount) and the total, for an order a discount lowered; nothing otherwise (the e-mail's data
 * and text are as before).
 */
export function emailPriceOf(order: OrderView): { price?: EmailPrice } {
  if (order.discount.amount <= 0) return {};
  return {
    price: {
      subtotal: moneyLabel(order.subtotal),
      discount: moneyLabel(order.discount),
      discountSource: order.discountSource,
      promoCode: order.promoCode,
      total: moneyLabel(order.total),
    },
  };
}
