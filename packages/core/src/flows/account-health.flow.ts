/**
 * Accounts that heal themselves (issue 29): the platforms' own alert mails mark an account
 * broken, and its buyers are moved to a healthy account before they notice.
 *
 *   watcher (the mailbox's one owner in the cluster, mailbox-reader.service.ts)
 *     │ every mail it reads or hears → heard(mailboxId, mails)
 *     ▼
 *   heard: the account whose platform's senders match → classifyAlert(mail, platform rules)
 *     │ one transaction: lock the account → the mail's action (alert-mail-action.ts: unverified
 *     │ mail changes nothing; a verified one worsens ok < attention < broken, or does nothing,
 *     │ or is unclassified) → record the mail with it (unique per mailbox + UIDVALIDITY + UID,
 *     │ and per Message-ID: a second sighting anywhere stops here) → past the platform's
 *     │ allowance of breaks the circuit breaker holds a break (circuit-breaker.ts: the mail is
 *     │ `held`, the account attention at most) → audit with subject, sender, time → broken: send
 *     │ `account-health-move` in the same transaction → every account of the platform broken:
 *     │ off sale (platform-sale.ts)
 *     ▼
 *   moveBuyers (worker): lock the account; for each active subscription on it, one
 *     │ `account_health_moves` row (unique per subscription); claim a slot on a healthy account
 *     │ of the platform (same slot number first), the move recorded (subscription-move.ts: the
 *     │ old subscription `replaced`, the end date, reminder and renewal charge kept, the buyer
 *     │ e-mailed in their language); none free → the row waits (the panel says
 *     │ "being repaired") and is tried again by each run of the watch job and when staff add
 *     │ an account; staff e-mailed once per broken account
 *     ▼
 *   staff: list by health with recent mails, set ok or broken (audited, with a reason), give
 *   back lost time once.
 *
 * Nothing here reads or stores a mail's body beyond classifying it: codes and links stay out of
 * the database, the logs and the audit.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { AppConfig } from '../shared/config.js';
import type { Clock } from '../shared/clock.js';
import { UnavailableError, fail } from '../shared/errors.js';
import type { JobQueue } from '../shared/jobs.js';
import type { Logger } from '../shared/logger.js';
import { TOKENS } from '../shared/tokens.js';
import type { AccountHealthState, AlertKind } from '../validation/alert-rules.js';
import { ACCOUNT_QUEUES, AccountHealthService, type AccountHealthView, AccountsService, type AlertMailView } from '../modules/accounts/index.js';
import { type AuditActor, AuditService } from '../modules/audit/index.js';
import { CatalogService, type LanguageId } from '../modules/catalog/index.js';
import {
  classifyAlert,
  fromSender,
  linkDropped,
  subjectToKeep,
  type HeardMail,
  type HeardMailSink,
  type MailboxReaderService,
} from '../modules/mailboxes/index.js';
import { EMAIL_KIND, NotificationsService } from '../modules/notifications/index.js';
import { OrdersService } from '../modules/orders/index.js';
import { HealthMovesService, type HealthMoveView, SubscriptionsService } from '../modules/subscriptions/index.js';
import { alertMailAction } from './alert-mail-action.js';
import { CircuitBreaker } from './circuit-breaker.js';
import { PlatformSale } from './platform-sale.js';
import { SubscriptionMove } from './subscription-move.js';

/** How far back the watcher reads when it (re)opens a mailbox: mail that came while nobody watched still counts, once. */
export const ALERT_LOOKBACK_MS = 24 * 3600_000;

const WATCHER: AuditActor = { label: 'mailbox watcher' };
const MOVER: AuditActor = { label: 'account health' };

/** One buyer of an account as staff see it: still on it, waiting, or moved (and where). */
export interface HealthBuyer {
  subscriptionId: number;
  userId: number;
  slot: number;
  endsAt: Date;
  status: 'onAccount' | 'waiting' | 'moved';
  toSubscriptionId: number | null;
  toAccountId: number | null;
  toSlot: number | null;
  movedAt: Date | null;
  /** From the breakage to the move (or until now while waiting), ms. */
  lostMs: number | null;
  /** Given back by staff, once. */
  extendedMs: number | null;
}

export interface AccountHealthEntry extends AccountHealthView {
  platformName: string;
  buyers: HealthBuyer[];
  /** Its newest recorded platform mails with their verdicts (issue 33); never a code, link or body. */
  mails: AlertMailView[];
}

/** What the buyer's panel says of one subscription. */
export type PanelHealth = 'ok' | 'repairing' | 'moved';

@injectable()
export class AccountHealthFlow implements HeardMailSink {
  constructor(
    @inject(TOKENS.Config) private readonly config: AppConfig,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.JobQueue) private readonly jobs: JobQueue,
    @inject(AccountHealthService) private readonly health: AccountHealthService,
    @inject(AccountsService) private readonly accounts: AccountsService,
    @inject(CatalogService) private readonly catalog: CatalogService,
    @inject(SubscriptionsService) private readonly subscriptions: SubscriptionsService,
    @inject(HealthMovesService) private readonly moves: HealthMovesService,
    @inject(OrdersService) private readonly orders: OrdersService,
    @inject(NotificationsService) private readonly notifications: NotificationsService,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(CircuitBreaker) private readonly breaker: CircuitBreaker,
    @inject(PlatformSale) private readonly platformSale: PlatformSale,
    @inject(SubscriptionMove) private readonly move: SubscriptionMove,
  ) {}

  /** The watcher's hand-over: each mail from an account's platform is classified and recorded once. */
  async heard(mailboxId: number, mails: HeardMail[]): Promise<void> {
    if (mails.length === 0) return;
    const accounts = await this.health.ofMailbox(mailboxId);
    if (accounts.length === 0) return;
    const rules = await this.catalog.alertRules([...new Set(accounts.map((account) => account.platformId))]);
    for (const mail of mails) {
      const candidates = accounts.filter((account) => fromSender(mail.from, rules.get(account.platformId)?.senders ?? []));
      // Several accounts of that platform on one mailbox: the one the mail was addressed to.
      const account = candidates.find((candidate) => mail.recipients.includes(candidate.email)) ?? candidates[0];
      if (!account) continue;
      const verdict = classifyAlert(mail, rules.get(account.platformId)!);
      if (!verdict) continue;
      await this.apply(mailboxId, account.id, mail, verdict, linkDropped(mail, rules.get(account.platformId)!));
    }
  }

  private async apply(mailboxId: number, accountId: number, mail: HeardMail, verdict: AlertKind | 'unrecognised', droppedLink: boolean): Promise<void> {
    await this.health.transaction(async (trx) => {
      const account = await this.health.lock(accountId, trx);
      if (!account) return;
      const action = alertMailAction(mail.authentication, verdict, account.state);
      const recorded = await this.health.recordMail(
        {
          mailboxId,
          accountId,
          uid_validity: mail.uidValidity,
          uid: mail.uid,
          message_id: mail.messageId ?? null,
          sender: mail.from,
          subject: subjectToKeep(mail),
          received_at: mail.receivedAt,
          kind: verdict,
          action,
          authentication: mail.authentication,
          link_dropped: droppedLink,
        },
        trx,
      );
      if (recorded === undefined) return; // seen before, by this process or another
      if (action !== 'attention' && action !== 'broken') {
        this.logger.info({ accountId, kind: verdict, action, authentication: mail.authentication }, 'account alert mail recorded');
        return;
      }
      let wanted: AccountHealthState = action;
      const now = this.clock.now();
      const cause = { kind: verdict, subject: subjectToKeep(mail), sender: mail.from, receivedAt: mail.receivedAt.toISOString(), alertMailId: recorded };
      // No single voice empties the shelf: past the platform's allowance of breaks, staff decide.
      if (wanted === 'broken' && (await this.breaker.holds(account, cause, WATCHER, trx))) {
        await this.breaker.markMailHeld(recorded, trx);
        if (account.state !== 'ok') return; // attention already: nothing more to mark
        wanted = 'attention';
      }
      await this.health.set(accountId, wanted, now, cause, trx);
      await this.audit.record(
        WATCHER,
        { action: 'account.health', targetType: 'platform_account', targetId: accountId, details: { from: account.state, to: wanted, mail: cause } },
        trx,
      );
      if (wanted === 'broken') await this.jobs.send(ACCOUNT_QUEUES.healthMove.name, { accountId }, { trx });
      await this.platformSale.afterHealthChange(account.platformId, trx);
      this.logger.info({ accountId, from: account.state, to: wanted, kind: verdict }, 'account health changed by a platform mail');
    });
  }

  /**
   * Moves the active buyers of a broken account to free slots of healthy accounts of its
   * platform (the job `account-health-move`, and the retries). Safe to run any number of times,
   * in any number of processes: the account row is locked for the whole move, and each
   * subscription's move is one row.
   */
  async moveBuyers(accountId: number): Promise<{ moved: number; waiting: number }> {
    const result = await this.health.transaction(async (trx) => {
      const account = await this.health.lock(accountId, trx);
      if (!account || account.state !== 'broken') return undefined;
      const lostFrom = account.since ?? this.clock.now();
      const candidates = (await this.subscriptions.slotAccounts(account.platformId, trx)).filter((slots) => slots.id !== accountId);
      let moved = 0;
      let waiting = 0;
      for (const subscription of await this.subscriptions.activeOnAccount(accountId, trx)) {
        const move = await this.moves.openOrGet(accountId, subscription.id, lostFrom, trx);
        if (move.movedAt) continue;
        if (await this.moveOne(account, subscription, move, candidates, trx)) moved += 1;
        else waiting += 1;
      }
      await this.alertStaff(account, trx);
      return { moved, waiting };
    });
    if (result) this.logger.info({ accountId, ...result }, 'buyers of a broken account moved');
    return result ?? { moved: 0, waiting: 0 };
  }

  private async moveOne(
    account: AccountHealthView,
    old: Awaited<ReturnType<SubscriptionsService['activeOnAccount']>>[number],
    move: HealthMoveView,
    candidates: Awaited<ReturnType<SubscriptionsService['slotAccounts']>>,
    trx: Knex.Transaction,
  ): Promise<boolean> {
    const now = this.clock.now();
    const claimed = await this.subscriptions.claimMove(old, { platformId: account.platformId, startsAt: now, preferSlot: old.slot, accounts: candidates }, trx);
    if (!claimed) return false;
    await this.moves.markMoved(move.id, claimed.subscription.id, now, trx);
    const order = await this.orders.orderOfItem(old.orderItemId, trx);
    await this.move.record({ actor: MOVER, old, claimed, order, reason: 'account broken' }, trx);
    return true;
  }

  /** One e-mail per broken account (per time it broke) to each staff alert address, with what happened so far. */
  private async alertStaff(account: AccountHealthView, trx: Knex.Transaction): Promise<void> {
    // No staff alert address: nothing to read for the e-mail.
    if (this.config.mailbox.staffAlertEmails.length === 0) return;
    const moves = await this.moves.ofAccounts([account.id], trx);
    const names = await this.platformNames();
    const cause = account.cause ?? {};
    const text = (value: unknown, fallback: string) => (typeof value === 'string' && value.trim() ? value : fallback);
    await this.notifications.alertStaff(
      EMAIL_KIND.accountBroken,
      {
        accountId: account.id,
        platformName: names.get(account.platformId) ?? `#${account.platformId}`,
        accountEmail: account.email,
        kind: text(cause.kind, 'set by staff'),
        subject: text(cause.subject, text(cause.reason, '-')),
        sender: text(cause.sender, text(cause.by, '-')),
        receivedAt: text(cause.receivedAt, (account.since ?? this.clock.now()).toISOString()),
        moved: moves.filter((move) => move.movedAt).length,
        waiting: moves.filter((move) => !move.movedAt).length,
      },
      `account:${account.id}:broken:${(account.since ?? new Date(0)).getTime()}`,
      trx,
    );
  }

  /**
   * The watch job (`account-health-watch`, on a worker): every active account's mailbox is kept watched,
   * and buyers still waiting on a broken account are tried again. Answers how many mailboxes
   * this process owns and how many buyers moved.
   */
  async keepWatching(reader: MailboxReaderService): Promise<{ mailboxes: number; owned: number; moved: number }> {
    let owned = 0;
    const watched = reader.enabled ? await this.health.watchedMailboxes() : [];
    const since = new Date(this.clock.now().getTime() - ALERT_LOOKBACK_MS);
    for (const { accountId, mailboxId } of watched) {
      try {
        const login = await this.accounts.mailboxLogin(accountId);
        if (!login || login.mailboxId !== mailboxId) continue;
        const target = { mailboxId, login: { address: login.address, password: login.password }, recipients: [login.address, login.accountEmail] };
        if (await reader.keepWatched(target, since)) owned += 1;
      } catch (error) {
        // One mailbox that cannot be read must not stop the others; the reader logged why.
        if (!(error instanceof UnavailableError)) this.logger.warn({ err: error, mailboxId }, 'mailbox not kept watched');
      }
    }
    await this.platformSale.reconcile();
    return { mailboxes: watched.length, owned, moved: await this.retryWaiting() };
  }

  /** Buyers still waiting on broken accounts get another try (a slot freed, an account was added). */
  async retryWaiting(platformId?: number): Promise<number> {
    // An account added: the platform may be back on sale.
    if (platformId !== undefined) await this.health.transaction((trx) => this.platformSale.afterHealthChange(platformId, trx));
    let moved = 0;
    for (const accountId of await this.moves.accountsWaiting()) {
      if (platformId !== undefined) {
        const [account] = await this.accounts.accountsByIds([accountId]);
        if (account?.platformId !== platformId) continue;
      }
      moved += (await this.moveBuyers(accountId)).moved;
    }
    return moved;
  }

  /**
   * GET /api/subscribe/accounthealth?platformId=&languageId= (staff): accounts by health, broken
   * first, with their buyers and where they went; platform names in the staff member's language.
   */
  async list(platformId?: number, languageId: LanguageId = 1): Promise<AccountHealthEntry[]> {
    const accounts = await this.health.list(platformId);
    const moves = await this.moves.ofAccounts(accounts.map((account) => account.id));
    const names = await this.platformNames(languageId);
    const now = this.clock.now().getTime();
    const movedTo = await this.subscriptionsById(moves.map((move) => move.toSubscriptionId).filter((id): id is number => id !== null));
    const movedFrom = await this.subscriptionsById(moves.map((move) => move.subscriptionId));
    const mails = await this.health.recentMails(accounts.map((account) => account.id));
    const entries: AccountHealthEntry[] = [];
    for (const account of accounts) {
      const buyers: HealthBuyer[] = [];
      const own = moves.filter((move) => move.accountId === account.id);
      for (const move of own) {
        const from = movedFrom.get(move.subscriptionId);
        const to = move.toSubscriptionId === null ? undefined : movedTo.get(move.toSubscriptionId);
        if (!from) continue;
        buyers.push({
          subscriptionId: from.id,
          userId: from.userId,
          slot: from.slot,
          endsAt: to?.endsAt ?? from.endsAt,
          status: move.movedAt ? 'moved' : 'waiting',
          toSubscriptionId: move.toSubscriptionId,
          toAccountId: to?.platformAccountId ?? null,
          toSlot: to?.slot ?? null,
          movedAt: move.movedAt,
          lostMs: (move.movedAt?.getTime() ?? now) - move.lostFrom.getTime(),
          extendedMs: move.extendedMs,
        });
      }
      const listed = new Set(own.map((move) => move.subscriptionId));
      for (const subscription of await this.subscriptions.activeOnAccountRead(account.id)) {
        if (listed.has(subscription.id)) continue;
        buyers.push({
          subscriptionId: subscription.id,
          userId: subscription.userId,
          slot: subscription.slot,
          endsAt: subscription.endsAt,
          status: 'onAccount',
          toSubscriptionId: null,
          toAccountId: null,
          toSlot: null,
          movedAt: null,
          lostMs: null,
          extendedMs: null,
        });
      }
      const platformName = names.get(account.platformId) ?? `#${account.platformId}`;
      entries.push({ ...account, platformName, buyers, mails: mails.filter((mail) => mail.accountId === account.id) });
    }
    return entries;
  }

  /**
   * POST /api/subscribe/setaccounthealth { accountId, state, reason } (staff). Back to ok (or
   * attention): buyers still waiting stay on the repaired account. Broken: its buyers are moved
   * as if a platform mail had said so. Audited with the reason.
   */
  async setHealth(actor: AuditActor, input: { accountId: number; state: AccountHealthState; reason: string }): Promise<AccountHealthView> {
    return this.health.transaction(async (trx) => {
      const account = await this.health.lock(input.accountId, trx);
      if (!account) throw fail('account_not_found');
      const now = this.clock.now();
      const cause = { kind: 'staff', reason: input.reason, by: actor.label };
      if (account.state !== input.state) {
        await this.health.set(account.id, input.state, now, cause, trx);
        if (input.state === 'broken') await this.jobs.send(ACCOUNT_QUEUES.healthMove.name, { accountId: account.id }, { trx });
        if (account.state === 'broken') await this.moves.dropWaiting(account.id, trx);
        await this.platformSale.afterHealthChange(account.platformId, trx);
      }
      await this.audit.record(
        actor,
        {
          action: 'account.health.set',
          targetType: 'platform_account',
          targetId: account.id,
          details: { from: account.state, to: input.state, reason: input.reason },
        },
        trx,
      );
      return {
        ...account,
        state: input.state,
        since: account.state === input.state ? account.since : now,
        cause: account.state === input.state ? account.cause : cause,
      };
    });
  }

  /**
   * POST /api/subscribe/extendlosttime { accountId } (staff): every buyer moved off this account
   * gets the time they lost (from the breakage to the move) added to their new subscription's
   * end, once per move; one audit entry lists them. Subscriptions whose longer period would meet
   * another on the slot are left out and named.
   */
  async extendLostTime(actor: AuditActor, accountId: number): Promise<{ extended: Array<{ subscriptionId: number; ms: number }>; skipped: number[] }> {
    return this.health.transaction(async (trx) => {
      const account = await this.health.lock(accountId, trx);
      if (!account) throw fail('account_not_found');
      const extended: Array<{ subscriptionId: number; ms: number }> = [];
      const skipped: number[] = [];
      const now = this.clock.now();
      for (const move of await this.moves.movedNotExtended(accountId, trx)) {
        // Whole minutes, rounded up: the buyer never gets less than they lost.
        const ms = Math.ceil(Math.max(0, move.movedAt!.getTime() - move.lostFrom.getTime()) / 60_000) * 60_000;
        if (ms === 0) {
          await this.moves.markExtended(move.id, 0, now, trx);
          continue;
        }
        const done = await this.subscriptions.extendBy(move.toSubscriptionId!, ms, trx);
        if (!done) {
          skipped.push(move.toSubscriptionId!);
          continue;
        }
        await this.moves.markExtended(move.id, ms, now, trx);
        extended.push({ subscriptionId: move.toSubscriptionId!, ms });
      }
      if (extended.length === 0 && skipped.length === 0) throw fail('nothing_to_extend');
      await this.audit.record(
        actor,
        { action: 'account.health.extend', targetType: 'platform_account', targetId: accountId, details: { extended, skipped } },
        trx,
      );
      return { extended, skipped };
    });
  }

  /** The panel's health of these subscriptions (the buyer's own): being repaired, moved, or ok. */
  async panelHealth(subscriptions: Array<{ id: number; platformAccountId: number }>): Promise<Map<number, PanelHealth>> {
    const moves = await this.moves.ofSubscriptions(subscriptions.map((subscription) => subscription.id));
    const answer = new Map<number, PanelHealth>();
    for (const subscription of subscriptions) {
      const waiting = moves.some((move) => move.subscriptionId === subscription.id && !move.movedAt);
      const arrived = moves.some((move) => move.toSubscriptionId === subscription.id);
      answer.set(subscription.id, waiting ? 'repairing' : arrived ? 'moved' : 'ok');
    }
    return answer;
  }

  /** English unless asked: staff alert mails are written in English (languageId 1). */
  private async platformNames(languageId: LanguageId = 1): Promise<Map<number, string>> {
    return new Map((await this.catalog.platformNames(languageId)).map((platform) => [platform.id, platform.name]));
  }

  private async subscriptionsById(ids: number[]) {
    const found = new Map<number, Awaited<ReturnType<SubscriptionsService['get']>>>();
    for (const id of [...new Set(ids)]) found.set(id, await this.subscriptions.get(id));
    return found;
  }
}
