/**
 * Subscriptions: one buyer's slot on a platform account for a period. This module owns the
 * `subscriptions` table and the one hard rule about it: a slot is never held by two active
 * subscriptions at overlapping times. The database enforces that rule (the exclusion
 * constraint `subscriptions_no_shared_slot`); this service only proposes candidates and lets
 * the constraint decide every race.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { addMonths, type Clock } from '../../shared/clock.js';
import { ConflictError, translateDatabaseError, fail } from '../../shared/errors.js';
import { TOKENS } from '../../shared/tokens.js';
import { type AccountSlots, AccountsService } from '../accounts/index.js';
import type { SubscriptionModel, SubscriptionRow, SubscriptionStatus } from './models/subscription.model.js';
import { SubscriptionRepository } from './subscription.repository.js';

export interface SubscriptionView {
  id: number;
  userId: number;
  orderItemId: number;
  unit: number;
  platformAccountId: number;
  /** 0 is the whole account, otherwise the profile number. */
  slot: number;
  startsAt: Date;
  endsAt: Date;
  status: SubscriptionStatus;
  replacedFromId: number | null;
  /** Dunning: the slot is held (without access) until then while a renewal charge is retried. */
  heldUntil: Date | null;
}

export interface SlotRequest {
  userId: number;
  orderItemId: number;
  unit: number;
  platformId: number;
  startsAt: Date;
  endsAt: Date;
  /** Replacement: the subscription this one takes over from. */
  replacedFromId?: number;
  /** Replacement: an account the new slot must not be on. */
  excludeAccountId?: number;
  /**
   * Replacement: try this slot number first on each account (the buyer keeps their profile
   * number where an account has it free); otherwise any free slot.
   */
  preferSlot?: number;
  /**
   * Several slots in one transaction: only candidates after this one (in the global order) are
   * tried, so a transaction that holds a slot never waits for a lower one and no two
   * transactions can wait on each other.
   */
  after?: { accountId: number; slot: number };
  /**
   * The platform's accounts that take new subscriptions (`slotAccounts`), when the caller read them
   * already in this transaction; otherwise they are read here.
   */
  accounts?: AccountSlots[];
}

/** A platform's slots on its active accounts, and how many are held now. */
export interface SlotOccupancy {
  platformId: number;
  slots: number;
  used: number;
  /** Slots nobody holds on accounts that are not broken: what can be sold (issue 33). */
  free: number;
  /** Slots on broken accounts (held or not): never free. */
  broken: number;
}

export interface ClaimedSlot {
  subscription: SubscriptionView;
  /** The account the slot is on: its id and how many slots it has (one slot: the whole account). */
  account: AccountSlots;
}

const PG_EXCLUSION_VIOLATION = '23P01';
const PG_UNIQUE_VIOLATION = '23505';
const ONE_RENEWAL_PER_ORDER_ITEM = 'subscription_renewals_one_per_order_item_unit';
/** The first half of the two-key advisory lock on slot claims ("SU"); the second is the platform id. */
const CLAIM_LOCK_CLASS = 0x5355;
/** Free slots read at a time by a claim: under the claim lock the first one is almost always still free. */
const CANDIDATES_PER_READ = 8;

@injectable()
export class SubscriptionsService {
  constructor(
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(AccountsService) private readonly accounts: AccountsService,
    @inject(SubscriptionRepository) private readonly subscriptions: SubscriptionRepository,
  ) {}

  /**
   * The new slot of a move, claimed the one way both kinds of move claim it (staff's replacement,
   * and the shop's own when an account broke; the move is then recorded by the flows'
   * `SubscriptionMove`): the same buyer, order item and unit, from `startsAt` to the old end
   * date, on another account of the platform, linked to `old` by `replaced_from_id`. Undefined
   * when no other account has a free slot for that period.
   */
  claimMove(
    old: SubscriptionView,
    target: { platformId: number; startsAt: Date } & Pick<SlotRequest, 'preferSlot' | 'accounts'>,
    trx: Knex.Transaction,
  ): Promise<ClaimedSlot | undefined> {
    return this.claimSlot(
      {
        userId: old.userId,
        orderItemId: old.orderItemId,
        unit: old.unit,
        endsAt: old.endsAt,
        replacedFromId: old.id,
        excludeAccountId: old.platformAccountId,
        ...target,
      },
      trx,
    );
  }

  /**
   * Takes a free slot of an active account of the platform for the whole period, inside `trx`,
   * or answers undefined when there is none. Claims on one platform queue behind its claim lock
   * (see `lockPlatforms`), so candidates are usually exact. Still, candidates come from a read
   * (`freeSlots`, a few at a time, found in the database: the platform's subscriptions are not
   * read into the process); each is tried in one global order (account id, then slot), so a
   * candidate taken meanwhile by a concurrent transaction is refused by the exclusion constraint
   * and the next one is tried, and two transactions never wait on each other in a cycle.
   * An account with a single slot is given whole (slot 0); otherwise slots are 1..slots_count.
   * A second subscription for the same order item unit is a conflict (`already_activated`).
   */
  async claimSlot(request: SlotRequest, trx: Knex.Transaction): Promise<ClaimedSlot | undefined> {
    const accounts = (request.accounts ?? (await this.slotAccounts(request.platformId, trx))).filter((account) => account.id !== request.excludeAccountId);
    const now = this.clock.now();
    const wanted = {
      user_id: request.userId,
      order_item_id: request.orderItemId,
      unit: request.unit,
      starts_at: request.startsAt,
      ends_at: request.endsAt,
      replaced_from_id: request.replacedFromId ?? null,
      created_at: now,
      updated_at: now,
    };
    const claimed = (row: SubscriptionRow): ClaimedSlot => ({
      subscription: toView(row),
      account: accounts.find((account) => account.id === row.platform_account_id)!,
    });
    // The claim lock, and the first free slot read and taken under it, in one call: under the lock
    // that slot is almost always still free. Nothing free, or a conflict: the candidates one by one.
    const lock = { lockClass: CLAIM_LOCK_CLASS, platformId: request.platformId };
    if (request.preferSlot !== undefined) {
      await this.lockPlatforms([request.platformId], trx);
      for (const account of accounts) {
        // Slot 0 is a whole single-slot account; a profile number must exist on the account.
        const slot = account.slotsCount === 1 ? 0 : request.preferSlot;
        if (slot === 0 ? account.slotsCount !== 1 : slot > account.slotsCount) continue;
        const row = await this.tryClaim(request, () => this.subscriptions.insertUnlessConflict({ ...wanted, platform_account_id: account.id, slot }, trx), trx);
        if (row) return claimed(row);
      }
    }
    const first = await this.tryClaim(request, () => this.subscriptions.claimFirstFreeSlot(lock, wanted, accounts, request.after, trx), trx);
    if (first) return claimed(first);
    let after = request.after;
    for (;;) {
      const candidates = await this.subscriptions.freeSlots(accounts, request.startsAt, request.endsAt, { after, limit: CANDIDATES_PER_READ }, trx);
      for (const candidate of candidates) {
        const row = await this.tryClaim(request, () => this.subscriptions.insertUnlessConflict({ ...wanted, ...candidate }, trx), trx);
        if (row) return claimed(row);
      }
      if (candidates.length < CANDIDATES_PER_READ) return undefined;
      const last = candidates[candidates.length - 1];
      after = { accountId: last.platform_account_id, slot: last.slot };
    }
  }

  /**
   * One try (`insert`): the row, or undefined when no slot was free or the exclusion constraint
   * says a concurrent claim took it. The inserts do nothing on a conflict (instead of failing,
   * which would need a savepoint around every try: two more round trips while the platform's
   * claim lock is held); a conflict on the order item unit's own index then shows as that unit's
   * subscription existing.
   */
  private async tryClaim(
    request: SlotRequest,
    insert: () => Promise<SubscriptionRow | undefined>,
    trx: Knex.Transaction,
  ): Promise<SubscriptionRow | undefined> {
    try {
      const row = await insert();
      if (row) return row;
    } catch (error) {
      return translateDatabaseError(databaseError(error).native, 'subscription');
    }
    // subscriptions_one_per_order_item_unit covers first subscriptions only (a replacement names the one it replaces).
    if (request.replacedFromId === undefined && (await this.subscriptions.unitHasSubscription(request.orderItemId, request.unit, trx))) {
      throw fail('already_activated');
    }
    return undefined;
  }

  /**
   * Whether the platform has, at the moment of this read, `needed` slots free for the whole
   * period, read without the claim lock: a sold-out platform is told at once instead of after
   * every claim queued before it. Nothing is reserved; `claimSlot` decides under the lock.
   */
  async hasFreeSlots(accounts: AccountSlots[], needed: number, startsAt: Date, endsAt: Date, trx?: Knex.Transaction): Promise<boolean> {
    if (needed <= 0) return true;
    return (await this.subscriptions.freeSlots(accounts, startsAt, endsAt, { limit: needed }, trx)).length >= needed;
  }

  /**
   * Takes the platforms' slot-claim locks until the transaction ends, in ascending id order: a
   * transaction that claims on several platforms calls it first (a claim takes its own platform's
   * lock again, in `claim_first_free_slot`, which costs nothing more). Claims on one platform then
   * queue instead of colliding: without it, two transactions inserting conflicting rows at the
   * same instant wait on each other until PostgreSQL's deadlock detector aborts one, a second
   * later, and a burst of purchases turns into a queue of stalled connections. The lock is an
   * optimisation only; the exclusion constraint remains the guarantee (and decides any writer
   * that does not take it).
   */
  async lockPlatforms(platformIds: number[], trx: Knex.Transaction): Promise<void> {
    for (const platformId of [...new Set(platformIds)].sort((a, b) => a - b)) {
      await this.subscriptions.lockPlatformClaims({ lockClass: CLAIM_LOCK_CLASS, platformId }, trx);
    }
  }

  /**
   * The platform's accounts that take new subscriptions, with their slot counts: what `renewable`,
   * `hasFreeSlots` and `claimSlot` work on. A flow that does all three reads them once.
   */
  slotAccounts(platformId: number, trx?: Knex.Transaction): Promise<AccountSlots[]> {
    return this.accounts.activeSlotCounts(platformId, trx);
  }

  async get(id: number, trx?: Knex.Transaction): Promise<SubscriptionView> {
    const row = Number.isSafeInteger(id) && id > 0 ? await this.subscriptions.findById(id, trx) : undefined;
    if (!row) throw fail('subscription_not_found');
    return toView(row);
  }

  /** The subscription, locked for the rest of the transaction (replacement, expiry). */
  async lock(id: number, trx: Knex.Transaction): Promise<SubscriptionView | undefined> {
    const row = Number.isSafeInteger(id) && id > 0 ? await this.subscriptions.lock(id, trx) : undefined;
    return row ? toView(row) : undefined;
  }

  /** The account's subscriptions that hold a slot now, locked to the transaction (an account turned broken). */
  async activeOnAccount(accountId: number, trx: Knex.Transaction): Promise<SubscriptionView[]> {
    return (await this.subscriptions.activeOnAccount(accountId, this.clock.now(), trx)).map(toView);
  }

  /** The account's subscriptions that hold a slot now, read without locks (staff views). */
  async activeOnAccountRead(accountId: number): Promise<SubscriptionView[]> {
    return (await this.subscriptions.activeOnAccount(accountId, this.clock.now())).map(toView);
  }

  /**
   * Moves the end of an active subscription later by `ms` (staff give back time an account's
   * breakage cost), in a savepoint: undefined when the longer period meets another subscription
   * on the slot (the exclusion constraint), and nothing changed.
   */
  async extendBy(subscriptionId: number, ms: number, trx: Knex.Transaction): Promise<SubscriptionView | undefined> {
    const current = await this.subscriptions.lock(subscriptionId, trx);
    if (!current || current.status !== 'active') return undefined;
    try {
      const row = await trx.transaction((savepoint) =>
        this.subscriptions.extend(subscriptionId, new Date(current.ends_at.getTime() + ms), this.clock.now(), savepoint),
      );
      return toView(row);
    } catch (error) {
      const { native, code } = databaseError(error);
      if (code === PG_EXCLUSION_VIOLATION) return undefined;
      return translateDatabaseError(native, 'subscription');
    }
  }

  /** The old half of a replacement: the subscription stops holding its slot now. */
  async markReplaced(id: number, trx: Knex.Transaction): Promise<void> {
    await this.subscriptions.markReplaced(id, this.clock.now(), trx);
  }

  /**
   * The new half of a replacement takes over what the buyer was told of this period: the
   * reminder (the expiry pass does not remind them again) and the slot hold of a renewal in
   * dunning, when the new slot is free that long (otherwise the hold stays off: the renewal, once
   * paid, still extends the new subscription).
   */
  async takeOver(from: SubscriptionView, toId: number, trx: Knex.Transaction): Promise<void> {
    const now = this.clock.now();
    await this.subscriptions.carryReminder(from.id, toId, now, trx);
    if (!from.heldUntil) return;
    try {
      await trx.transaction((savepoint) => this.subscriptions.hold(toId, from.heldUntil, now, savepoint));
    } catch (error) {
      if (databaseError(error).code !== PG_EXCLUSION_VIOLATION) throw error;
    }
  }

  /**
   * The subscription that carries this one on now: itself, or where a move took it (the last of
   * its replacement chain). A renewal link names the subscription the reminder was about; the
   * buyer may have been moved since.
   */
  async current(id: number, trx?: Knex.Transaction): Promise<SubscriptionView | undefined> {
    if (!Number.isSafeInteger(id) || id <= 0) return undefined;
    const latest = await this.subscriptions.latestOf(id, trx);
    return latest === undefined ? undefined : this.byId(latest, trx);
  }

  /** The subscription each one continues (the first of its replacement chain), with its start: what the buyer knows. */
  async origins(ids: number[], trx?: Knex.Transaction): Promise<Map<number, { id: number; startsAt: Date }>> {
    const rows = await this.subscriptions.origins([...new Set(ids)], trx);
    return new Map(rows.map((row) => [row.id, { id: row.origin_id, startsAt: row.starts_at }]));
  }

  /** A user's subscriptions that hold a slot, oldest first. */
  async activeOfUser(userId: number, trx?: Knex.Transaction): Promise<SubscriptionView[]> {
    return (await this.subscriptions.activeOfUser(userId, this.clock.now(), trx)).map(toView);
  }

  /**
   * What a new purchase of the platform by this user renews: their subscriptions holding a slot
   * on an active account of the platform beyond now, soonest end first, locked to the transaction.
   */
  async renewable(userId: number, accounts: AccountSlots[], trx: Knex.Transaction): Promise<SubscriptionView[]> {
    const rows = await this.subscriptions.renewable(
      userId,
      accounts.map((account) => account.id),
      this.clock.now(),
      trx,
    );
    return rows.map(toView);
  }

  /**
   * Renewal: the subscription keeps its slot and runs `months` longer from its current end; the
   * extension is recorded for the order item unit that paid for it. In a savepoint: undefined
   * when the longer period meets another subscription on the slot (the exclusion constraint),
   * and nothing changed. A second extension for the same order item unit is `already_activated`.
   */
  async extend(
    subscriptionId: number,
    months: number,
    renewal: { orderItemId: number; unit: number },
    trx: Knex.Transaction,
  ): Promise<ClaimedSlot | undefined> {
    const current = await this.subscriptions.lock(subscriptionId, trx);
    if (!current || current.status !== 'active') return undefined;
    const now = this.clock.now();
    // A subscription renewed while its slot is held past the end (dunning) runs again from now:
    // the buyer had no access meanwhile and pays for whole months of it.
    const endsAt = addMonths(current.ends_at < now ? now : current.ends_at, months);
    try {
      const row = await trx.transaction(async (savepoint) => {
        const extended = await this.subscriptions.extend(subscriptionId, endsAt, now, savepoint);
        await this.subscriptions.recordRenewal(
          {
            subscription_id: subscriptionId,
            order_item_id: renewal.orderItemId,
            unit: renewal.unit,
            previous_ends_at: current.ends_at,
            ends_at: endsAt,
            created_at: now,
          },
          savepoint,
        );
        return extended;
      });
      const [account] = await this.accounts.accountsByIds([row.platform_account_id], trx);
      return { subscription: toView(row), account: { id: account.id, slotsCount: account.slotsCount } };
    } catch (error) {
      const { native, code, constraint } = databaseError(error);
      if (code === PG_EXCLUSION_VIOLATION) return undefined;
      if (code === PG_UNIQUE_VIOLATION && constraint === ONE_RENEWAL_PER_ORDER_ITEM) {
        throw new ConflictError('This order item already renewed its subscription.', 'already_activated', error);
      }
      return translateDatabaseError(native, 'subscription');
    }
  }

  /**
   * Takes back what these order items paid for (their money went back), inside the caller's
   * transaction. A subscription an item created ends at once (`refunded`, its slot free), unless
   * later renewals paid for more: then it keeps only their months, counted from its start. A
   * renewal an item paid for takes only its own months off the renewed subscription, which ends
   * when nothing is left. Answers the subscriptions ended and those shortened; a repeat does nothing.
   */
  async takeBack(orderItemIds: number[], trx: Knex.Transaction): Promise<{ ended: number[]; shortened: number[] }> {
    const now = this.clock.now();
    const { created, renewed } = await this.subscriptions.paidForBy(orderItemIds, trx);
    const ended = new Set<number>();
    const shortened = new Set<number>();
    const ends = new Map<number, { row: SubscriptionModel; endsAt: Date }>();
    for (const row of created) {
      ends.set(row.id, { row, endsAt: new Date(row.starts_at.getTime() + (await this.subscriptions.renewedLength(row.order_item_id, trx))) });
    }
    for (const { renewalId, length, subscription } of renewed) {
      const current = ends.get(subscription.id)?.endsAt ?? subscription.ends_at;
      ends.set(subscription.id, { row: subscription, endsAt: new Date(current.getTime() - length) });
      await this.subscriptions.markRenewalRefunded(renewalId, now, trx);
    }
    for (const { row, endsAt } of ends.values()) {
      if (endsAt.getTime() <= Math.max(now.getTime(), row.starts_at.getTime())) {
        await this.subscriptions.markRefunded(row.id, now, trx);
        ended.add(row.id);
      } else if (endsAt.getTime() !== row.ends_at.getTime()) {
        await this.subscriptions.shorten(row.id, endsAt, now, trx);
        shortened.add(row.id);
      }
    }
    return { ended: [...ended], shortened: [...shortened] };
  }

  /**
   * A dispute opened (`suspended`: true) or was won (false) on what these order items paid for:
   * access is withheld or given back. The slot stays held throughout, so a won dispute gives
   * the same slot back until the original end. Answers the subscriptions changed (none when they
   * already were so: the ledger's access is applied again and again, the same each time).
   */
  async setSuspended(orderItemIds: number[], suspended: boolean, trx: Knex.Transaction): Promise<number[]> {
    const now = this.clock.now();
    const { created, renewed } = await this.subscriptions.paidForBy(orderItemIds, trx);
    const ids = [...new Set([...created.map((row) => row.id), ...renewed.map((entry) => entry.subscription.id)])];
    return this.subscriptions.setSuspended(ids, suspended ? now : null, now, trx);
  }

  /**
   * The active subscriptions these order items paid for (created or renewed), each with every
   * order item that pays for it now (its creator and its renewals not taken back), locked: who
   * decides whether a dispute withholds it.
   */
  async payersOf(orderItemIds: number[], trx: Knex.Transaction): Promise<Array<{ subscriptionId: number; orderItemIds: number[] }>> {
    const { created, renewed } = await this.subscriptions.paidForBy(orderItemIds, trx);
    return this.payersOfSubscriptions([...new Set([...created.map((row) => row.id), ...renewed.map((entry) => entry.subscription.id)])], trx);
  }

  /** The same, for subscriptions named by id (those no longer active are left out). */
  async payersOfSubscriptions(ids: number[], trx: Knex.Transaction): Promise<Array<{ subscriptionId: number; orderItemIds: number[] }>> {
    const result: Array<{ subscriptionId: number; orderItemIds: number[] }> = [];
    for (const id of ids) {
      const row = await this.subscriptions.lock(id, trx);
      if (!row || row.status !== 'active') continue;
      result.push({ subscriptionId: row.id, orderItemIds: [row.order_item_id, ...(await this.subscriptions.renewalItems(row.id, trx))] });
    }
    return result;
  }

  /** Withholds (`suspended`) or gives back these subscriptions; answers the ids changed. */
  setSuspendedIds(ids: number[], suspended: boolean, trx: Knex.Transaction): Promise<number[]> {
    const now = this.clock.now();
    return this.subscriptions.setSuspended(ids, suspended ? now : null, now, trx);
  }

  /** One subscription by id (undefined when there is none). */
  async byId(id: number, trx?: Knex.Transaction): Promise<SubscriptionView | undefined> {
    const [row] = await this.subscriptions.byIds([id], trx);
    return row && toView(row);
  }

  /** Several subscriptions by id, in no particular order. */
  async byIds(ids: number[]): Promise<SubscriptionView[]> {
    return (await this.subscriptions.byIds(ids)).map(toView);
  }

  /** Active subscriptions whose period ends in [from, to), soonest first, at most `limit` (staff's upcoming renewals). */
  async endingBetween(from: Date, to: Date, limit = 500): Promise<SubscriptionView[]> {
    return (await this.subscriptions.endingBetween(from, to, limit)).map(toView);
  }

  /** Holds the slot past the end (dunning) until `until`, or lets it go (null); the exclusion constraint counts the hold. */
  async hold(id: number, until: Date | null, trx: Knex.Transaction): Promise<void> {
    await this.subscriptions.hold(id, until, this.clock.now(), trx);
  }

  /** Active subscriptions at or past their end, oldest first, locked (rows another run holds are skipped). */
  async dueToEnd(limit: number, trx: Knex.Transaction): Promise<SubscriptionView[]> {
    return (await this.subscriptions.dueToEnd(this.clock.now(), limit, trx)).map(toView);
  }

  /** The subscription ends (status `ended`, ended at its end time); its slot is free from then on. */
  async markEnded(id: number, trx: Knex.Transaction): Promise<void> {
    await this.subscriptions.markEnded(id, this.clock.now(), trx);
  }

  /** Active subscriptions ending within `withinMs` from now and not yet reminded of this period, locked. */
  async dueForReminder(withinMs: number, limit: number, trx: Knex.Transaction): Promise<SubscriptionView[]> {
    const now = this.clock.now();
    return (await this.subscriptions.dueForReminder(now, new Date(now.getTime() + withinMs), limit, trx)).map(toView);
  }

  async markReminded(id: number, trx: Knex.Transaction): Promise<void> {
    await this.subscriptions.markReminded(id, this.clock.now(), trx);
  }

  /** How many subscriptions each user holds now (the admin users list's `subscribersCount`); every id asked for is in the answer. */
  async activeCountsOfUsers(userIds: number[]): Promise<Map<number, number>> {
    const counts = await this.subscriptions.activeCountsOfUsers([...new Set(userIds)], this.clock.now());
    return new Map(userIds.map((id) => [id, counts.get(id) ?? 0]));
  }

  /**
   * Slot occupancy per platform, now: `slots` is the slot count of its active accounts, `used`
   * how many of them a subscription holds at this moment (slot 0, the whole account, counts as
   * all of the account's slots). Platforms without an active account are left out.
   */
  async occupancyByPlatform(): Promise<SlotOccupancy[]> {
    const accounts = await this.accounts.allActiveAccounts();
    const now = this.clock.now();
    const held = await this.subscriptions.occupied(
      accounts.map((account) => account.id),
      now,
      new Date(now.getTime() + 1),
    );
    const heldByAccount = new Map<number, Set<number>>();
    for (const row of held) heldByAccount.set(row.platform_account_id, (heldByAccount.get(row.platform_account_id) ?? new Set()).add(row.slot));
    const byPlatform = new Map<number, SlotOccupancy>();
    for (const account of accounts) {
      const slots = heldByAccount.get(account.id) ?? new Set<number>();
      const used = slots.has(0) ? account.slotsCount : Math.min(slots.size, account.slotsCount);
      const entry = byPlatform.get(account.platformId) ?? { platformId: account.platformId, slots: 0, used: 0, free: 0, broken: 0 };
      entry.slots += account.slotsCount;
      entry.used += used;
      if (account.health === 'broken') entry.broken += account.slotsCount;
      else entry.free += account.slotsCount - used;
      byPlatform.set(account.platformId, entry);
    }
    return [...byPlatform.values()];
  }

  /** A user's subscriptions in any of these statuses (every status when none is named), newest first. */
  async ofUser(userId: number, statuses: SubscriptionStatus[] = [], trx?: Knex.Transaction): Promise<SubscriptionView[]> {
    return (await this.subscriptions.ofUser(userId, statuses, trx)).map(toView);
  }
}

/** The driver's error under objection's wrapper, with the PostgreSQL code and constraint it carries. */
function databaseError(error: unknown): { native: unknown; code?: string; constraint?: string } {
  const native = (error as { nativeError?: unknown }).nativeError ?? error;
  const { code, constraint } = native as { code?: string; constraint?: string };
  return { native, code, constraint };
}

function toView(row: SubscriptionRow): SubscriptionView {
  return {
    id: row.id,
    userId: row.user_id,
    orderItemId: row.order_item_id,
    unit: row.unit,
    platformAccountId: row.platform_account_id,
    slot: row.slot,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    status: row.status,
    replacedFromId: row.replaced_from_id,
    heldUntil: row.held_until ?? null,
  };
}
