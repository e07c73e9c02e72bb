/**
 * Automatic renewal (issue 28): opt-in at card payment, a reminder before every charge, the
 * charge itself off-session, dunning that holds the slot, one-click cancel. docs/renewal.md has
 * the whole story; this is the sequence.
 *
 *   checkout (card, "Renew automatically") ──▶ CheckoutFlow: payment with save_card, auto_renewals
 *       rows for the order's units (Checkout on the buyer's Stripe Customer, setup_future_usage)
 *   renewal pass, every 10 min (`renewals-due`, `subshare renew-due`) ──▶ renewDue:
 *       1. learnCards: the card each paid opt-in saved (its PaymentIntent's payment method, last 4)
 *       2. charges due, one at a time, each:
 *            tx 1 (row locked, SKIP LOCKED): still on? reminder delivered? ─▶ renewal order (the
 *                 buyer's own renewal path: same options, renews_subscription_id) + payment
 *                 opened, row `charging`, attempt n ─▶ commit
 *            tx 2 holds the row while Stripe is asked: PaymentIntent off_session + confirm,
 *                 Idempotency-Key renewal-<subscription>-<period end>-<n>
 *              succeeded ─▶ PaymentNotificationFlow.applyVerified (the normal payment path: order
 *                 paid, activation job extends the same subscription on its slot) ─▶ receipt
 *              declined ─▶ the same path records the failure ─▶ retry in 1, then 3 days after
 *                 the end, e-mail with a card-update page; after the third: slot let go, ended
 *              authentication_required ─▶ e-mail with a link to pay on-session (slot held)
 *              provider error (Stripe's 400, 5xx, 429, no answer: not the card) ─▶ retried on the
 *                 same days, slot held, staff e-mailed once; after the third: the buyer gets the
 *                 pay link (slot held while it works), never an end
 *       3. followBuyers: charges waiting on the buyer whose order got paid meanwhile
 *   expiry's reminder pass, 3 days before the end ──▶ planReminder: an auto-renewing subscription
 *       gets the renewal reminder (amount, date, card, cancel link) and its period's charge row
 *       (nothing is charged without one, nor before its e-mail was delivered) and the slot held
 *       through the dunning days; others get the expiry reminder with a one-click payment link.
 *
 * A worker killed mid-charge leaves its row `charging`: the next pass sends the same attempt with
 * the same key and Stripe answers the charge it made. An exception of the shop's own in tx 2 is
 * recorded like a provider error (shopFailed): bounded by the dunning schedule, staff alerted, and
 * the next attempt asks the provider about the previous one before charging again. Two workers:
 * the row lock (SKIP LOCKED) gives each row to one; the unique (subscription, period end) row and
 * the key stop the rest.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { addMonths, type Clock } from '../shared/clock.js';
import type { AppConfig } from '../shared/config.js';
import { fail } from '../shared/errors.js';
import type { Logger } from '../shared/logger.js';
import { money, type CurrencyCode, type Money } from '../shared/money.js';
import { TOKENS } from '../shared/tokens.js';
import { AUDIT, type AuditActor, type AuditService } from '../modules/audit/index.js';
import { ROLES, type AuthenticatedUser, type RequestContext } from '../modules/identity/index.js';
import {
  EMAIL_KIND,
  NOTIFICATIONS,
  emailDate,
  type AutoRenewalEmailData,
  type EmailLanguageId as LanguageId,
  type NotificationsService,
} from '../modules/notifications/index.js';
import { ORDER_STATE, ORDERS, PAID_STATES, type OrderItemView, type OrdersService, type OrderView } from '../modules/orders/index.js';
import {
  PAYMENTS,
  type PaymentMethodId,
  type PaymentsService,
  type PaymentView,
  type ProviderRequestFailure,
  type SavedCardsService,
} from '../modules/payments/index.js';
import {
  OPEN_CHARGE_STATUSES,
  readRenewalLink,
  RENEWALS,
  signRenewalLink,
  type AutoRenewal,
  type RenewalCharge,
  type RenewalsService,
} from '../modules/renewals/index.js';
import { SUBSCRIPTIONS, type SubscriptionsService, type SubscriptionView } from '../modules/subscriptions/index.js';
import type { AutoRenewInput, CardSavedInput, SaveCardInput } from '../wire/renewals.js';
import { CheckoutFlow } from './checkout.flow.js';
import { moneyLabel } from './order-access.js';
import { PaymentNotificationFlow } from './payment-notification.flow.js';
import { RENEWAL_ATTEMPTS, RENEWAL_HOLD_EXTRA_HOURS, RENEWAL_LAST_RETRY_DAYS, RENEWAL_RETRY_DAYS } from '../promises/index.js';
import { RENEWAL_LINK_TEXTS, type RenewalLinkFacts, type RenewalLinkTexts } from './renewal-link-texts.js';

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;
/** Retries after the end date: the first try is at the end, then these (core's promises). */
export const RETRY_AFTER_DAYS = RENEWAL_RETRY_DAYS;
export const MAX_ATTEMPTS = RENEWAL_ATTEMPTS;
/** The slot is held this long past the end: through the last retry, and one pass (10 min) more to run it. */
const HOLD_MS = RENEWAL_LAST_RETRY_DAYS * DAY_MS + RENEWAL_HOLD_EXTRA_HOURS * HOUR_MS;
/** A charge whose reminder has not been delivered yet is looked at again after this. */
const REMINDER_WAIT_MS = 10 * 60_000;
/** One pass handles at most this many charges (the next pass goes on). */
const MAX_CHARGES_PER_PASS = 200;
const BATCH = 50;
/** A save-a-card page is read by the renewal pass this long (Stripe's Checkout Sessions expire after 24 hours). */
const SAVE_CARD_PAGE_MS = 25 * HOUR_MS;
/** A payment link works this long past the end of the period it was sent for. */
const PAY_LINK_MS = 7 * DAY_MS;

/** What the expiry reminder pass writes for one subscription: the renewal reminder, or the expiry reminder with a payment link. */
export type ReminderPlan = { kind: 'auto'; data: AutoRenewalEmailData; idempotencyKey: string } | { kind: 'manual'; renewUrl: string };

export type ChargeOutcome =
  | 'succeeded'
  | 'declined'
  | 'failed'
  | 'requires_action'
  | 'processing'
  | 'provider_error'
  | 'cancelled'
  | 'waiting_reminder'
  | 'waiting_notice'
  | 'waiting_provider'
  | 'skipped';

/** The decline code a charge row keeps when the provider, not the card, failed it (staff see it in the renewal lists). */
export const PROVIDER_ERROR_CODE = 'provider_error';
/** The decline code (and the staff alert's error type) of a charge the shop itself failed (an exception of ours while charging). */
export const SHOP_ERROR_CODE = 'shop_error';

export interface RenewalRunResult {
  cardsLearnt: number;
  attempted: number;
  succeeded: number;
  declined: number;
  failed: number;
  requiresAction: number;
  /** Charges the provider failed (not the card): retried on the dunning schedule, staff alerted. */
  providerErrors: number;
  charges: Array<{ chargeId: number; subscriptionId: number; outcome: ChargeOutcome }>;
}

/** A charge due, as the dry run lists it. */
export interface DueCharge {
  chargeId: number;
  subscriptionId: number;
  periodEnd: Date;
  attempt: number;
  amount: Money;
  cardLast4: string | null;
}

/** A subscription's renewal as the panel shows it. */
export interface RenewalState {
  /** card: renews by the saved card (switchable); link: the buyer's method cannot be charged without them, a payment link comes by e-mail. */
  mode: 'card' | 'link';
  enabled: boolean;
  /** Whether the switch can turn it on: a card is saved for it, or was paid with at an opt-in (learnt at the next pass). */
  canEnable: boolean;
  /** A card is saved for it (what a charge needs); not on the wire. */
  cardSaved: boolean;
  status: RenewalCharge['status'] | null;
  nextChargeAt: Date | null;
  amount: Money | null;
  cardLast4: string | null;
}

/** Staff: one upcoming or failed renewal. */
export interface StaffRenewal {
  subscriptionId: number;
  userId: number;
  endsAt: Date;
  mode: 'card' | 'link';
  enabled: boolean;
  status: RenewalCharge['status'] | null;
  attempts: number;
  nextChargeAt: Date | null;
  amount: Money | null;
  cardLast4: string | null;
  declineCode: string | null;
}

export interface StaffRenewals {
  /** Expected renewal revenue of the next 30 days, per currency (automatic renewals switched on, card saved). */
  expected: Money[];
  upcoming: StaffRenewal[];
  failed: StaffRenewal[];
}

/** The dashboard's renewal figures: the expected revenue, how many renewals failed (30 days) and the latest of them. */
export interface RenewalSummary {
  expected: Money[];
  failedCount: number;
  latestFailed: StaffRenewal[];
  /** Automatic renewal is offered but its reminders reach nobody (no SMTP_URL outside demo mode), so no renewal is charged. */
  remindersUndelivered: boolean;
}

/** What the start says when renewals cannot be charged (RenewalFlow.remindersUndelivered); the dashboard says it in the buyer's words too. */
export const REMINDERS_UNDELIVERED_WARNING =
  'WARNING: Stripe is configured but SMTP_URL is not: renewal reminders will not be delivered, so automatic renewals will not be charged (set SMTP_URL).';

/** How many failed renewals the dashboard lists (the rest are in GET /api/admin/renewals). */
export const DASHBOARD_FAILED_RENEWALS = 5;
/** What counts as a failed renewal for staff: declined and given up, declined and retrying, waiting on the buyer's bank. */
const FAILED_STATUSES: Array<RenewalCharge['status']> = ['failed', 'retrying', 'requires_action'];

/** The HTML page a link answers (http renders it in the shop's frame): its status, language and words. */
export interface LinkPage {
  status: number;
  /** The order's language (the e-mail's), or the visitor's when the link names no order. */
  languageId: LanguageId;
  title: string;
  message: string;
  /** Label and value rows: platform, period, amount, end of access. */
  facts?: Array<[label: string, value: string]>;
  /** Said just above the confirm button (what will be charged). */
  note?: string;
  /** A confirm form (POST to the same address, the token in a hidden field). */
  confirm?: { token: string; label: string };
  /** Where to go from here (the panel, the shop); paths of this site. */
  links?: Array<{ href: string; label: string }>;
  /** Where the browser goes next (a provider's checkout page). */
  redirect?: string;
}

const methodOf = (order: OrderView | undefined): PaymentMethodId => (order?.paymentMethod ?? 1) as PaymentMethodId;

@injectable()
export class RenewalFlow {
  private readonly logger: Logger;

  constructor(
    @inject(TOKENS.Config) private readonly config: AppConfig,
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) logger: Logger,
    @inject(ORDERS.Service) private readonly orders: OrdersService,
    @inject(PAYMENTS.Service) private readonly payments: PaymentsService,
    @inject(PAYMENTS.SavedCards) private readonly savedCards: SavedCardsService,
    @inject(SUBSCRIPTIONS.Service) private readonly subscriptions: SubscriptionsService,
    @inject(RENEWALS.Service) private readonly renewals: RenewalsService,
    @inject(NOTIFICATIONS.Service) private readonly notifications: NotificationsService,
    @inject(AUDIT.Service) private readonly audit: AuditService,
    @inject(PaymentNotificationFlow) private readonly paymentPath: PaymentNotificationFlow,
    @inject(CheckoutFlow) private readonly checkout: CheckoutFlow,
  ) {
    this.logger = logger.child({ flow: 'renewal' });
  }

  // ── Reminder (called by the expiry reminder pass, in its transaction) ──────────────────────────

  /**
   * The reminder for a subscription 3 days before its end. Renewing automatically (switched on,
   * a card saved, still sold): the period's charge row is written with the reminder, which is the
   * only way a charge comes to exist, and the slot is held through the dunning days. Otherwise the
   * expiry reminder, with a one-click link to pay the renewal.
   */
  async planReminder(subscription: SubscriptionView, order: OrderView, item: OrderItemView, trx: Knex.Transaction): Promise<ReminderPlan> {
    const setting = await this.renewals.settingOf(keyOf(subscription), trx);
    const price = await this.orders.renewalPrice(item, order.total.currency, order.languageId);
    const periodEnd = subscription.endsAt;
    if (setting?.enabled && setting.card && price && this.savedCards.available) {
      const reminderKey = `subscription:${subscription.id}:autorenew-reminder:${periodEnd.toISOString()}`;
      const charge =
        (await this.renewals.createCharge(
          {
            subscriptionId: subscription.id,
            periodEnd,
            kind: 'auto',
            status: 'scheduled',
            amountMinor: price.amount,
            currency: price.currency,
            cardLast4: setting.card.last4,
            nextAttemptAt: periodEnd,
            reminderKey,
          },
          trx,
        )) ?? (await this.renewals.chargeOfPeriod(subscription.id, periodEnd, trx))!;
      await this.subscriptions.hold(subscription.id, new Date(periodEnd.getTime() + HOLD_MS), trx);
      return {
        kind: 'auto',
        idempotencyKey: charge.reminderKey,
        data: {
          event: 'reminder',
          subscriptionId: subscription.id,
          platformName: item.platformName,
          amount: moneyLabel(money(charge.amountMinor, charge.currency as CurrencyCode)),
          date: periodEnd,
          cardLast4: charge.cardLast4,
          cancelUrl: this.link('cancel', subscription.id, periodEnd, new Date(periodEnd.getTime() + HOLD_MS)),
        },
      };
    }
    return { kind: 'manual', renewUrl: this.link('pay', subscription.id, periodEnd, new Date(periodEnd.getTime() + PAY_LINK_MS)) };
  }

  // ── The renewal pass ───────────────────────────────────────────────────────────────────────

  /** The charges the pass would make now (`renew-due --dry-run`): nothing is changed, nobody is asked. */
  async dueNow(): Promise<DueCharge[]> {
    return (await this.renewals.dueBy(this.clock.now(), MAX_CHARGES_PER_PASS)).map((charge) => ({
      chargeId: charge.id,
      subscriptionId: charge.subscriptionId,
      periodEnd: charge.periodEnd,
      attempt: charge.status === 'charging' ? charge.attempts : charge.attempts + 1,
      amount: money(charge.amountMinor, charge.currency as CurrencyCode),
      cardLast4: charge.cardLast4,
    }));
  }

  /** The `renewals-due` job and `subshare renew-due`: safe to run at any time, from any number of processes. */
  async renewDue(): Promise<RenewalRunResult> {
    const result: RenewalRunResult = {
      cardsLearnt: await this.learnCards(),
      attempted: 0,
      succeeded: 0,
      declined: 0,
      failed: 0,
      requiresAction: 0,
      providerErrors: 0,
      charges: [],
    };
    const seen: number[] = [];
    for (let round = 0; round < MAX_CHARGES_PER_PASS; round += 1) {
      const done = await this.chargeNext(seen);
      if (!done) break;
      seen.push(done.chargeId);
      result.charges.push(done);
      if (['succeeded', 'declined', 'failed', 'requires_action', 'processing', 'provider_error'].includes(done.outcome)) result.attempted += 1;
      if (done.outcome === 'succeeded') result.succeeded += 1;
      if (done.outcome === 'declined') result.declined += 1;
      if (done.outcome === 'failed') result.failed += 1;
      if (done.outcome === 'requires_action') result.requiresAction += 1;
      if (done.outcome === 'provider_error') result.providerErrors += 1;
    }
    await this.followBuyers();
    if (result.charges.length > 0) this.logger.info({ ...result, charges: result.charges.length }, 'renewal pass');
    return result;
  }

  /** Learns the card each paid opt-in saved, and the new card of each finished card-update page. */
  private async learnCards(): Promise<number> {
    if (!this.savedCards.available) return 0;
    let learnt = 0;
    for (const setting of await this.renewals.cardsToLearn(BATCH)) {
      try {
        const card = await this.savedCards.cardOfPayment(setting.sourcePaymentId!);
        if (card) {
          await this.renewals.rememberCard(setting, card);
          learnt += 1;
        }
      } catch (error) {
        this.logger.warn({ err: error, orderItemId: setting.orderItemId }, 'could not learn a saved card; the next pass tries again');
      }
    }
    // A new card saved on a card-update page (dunning) replaces the declined one for the next try.
    for (const setting of await this.renewals.cardUpdatesToRead(BATCH)) {
      try {
        const card = await this.savedCards.cardOfUpdate(setting.cardUpdateSessionId!);
        if (card) {
          await this.renewals.rememberCard(setting, card);
          learnt += 1;
        }
      } catch (error) {
        this.logger.warn({ err: error, orderItemId: setting.orderItemId }, 'could not read a card-update page; the next pass tries again');
      }
    }
    // A first card saved to turn renewal on, by a buyer who did not come back to the panel: on, as they asked.
    for (const setting of await this.renewals.saveCardPagesToRead(new Date(this.clock.now().getTime() - SAVE_CARD_PAGE_MS), BATCH)) {
      try {
        if (!(await this.learnSavedCard(setting))) continue;
        learnt += 1;
        const subscription = (await this.subscriptions.activeOfUser(setting.userId)).find(
          (candidate) => candidate.orderItemId === setting.orderItemId && candidate.unit === setting.unit,
        );
        if (subscription) await this.change(subscription, true, { userId: subscription.userId, label: 'buyer (card saved)' }, 'card_saved');
      } catch (error) {
        this.logger.warn({ err: error, orderItemId: setting.orderItemId }, 'could not read a save-a-card page; the next pass tries again');
      }
    }
    return learnt;
  }

  /** The next due charge, from the lock to the outcome; undefined when none is due. */
  private async chargeNext(exclude: number[]): Promise<{ chargeId: number; subscriptionId: number; outcome: ChargeOutcome } | undefined> {
    const prepared = await this.knex.transaction(async (trx) => {
      const charge = await this.renewals.lockNextDue(trx, exclude);
      if (!charge) return undefined;
      if (charge.status === 'charging') return { charge };
      return { charge, ...(await this.prepare(charge, trx)) };
    });
    if (!prepared) return undefined;
    const { charge } = prepared;
    if ('previous' in prepared && prepared.previous) {
      // The provider answered the previous attempt but the shop failed to record it: ask the
      // provider what came of it (applied like a notification) before any new attempt is sent.
      await this.paymentPath
        .askProvider(prepared.previous)
        .catch((error: unknown) => this.logger.warn({ err: error, chargeId: charge.id }, 'could not ask the provider about the previous renewal attempt'));
    }
    if ('outcome' in prepared && prepared.outcome) return { chargeId: charge.id, subscriptionId: charge.subscriptionId, outcome: prepared.outcome };
    let outcome: ChargeOutcome;
    try {
      outcome = await this.send(charge.id);
    } catch (error) {
      outcome = await this.shopFailed(charge.id, error);
    }
    return { chargeId: charge.id, subscriptionId: charge.subscriptionId, outcome };
  }

  /**
   * An exception of the shop's own while a charge was sent or recorded (not the provider's error,
   * not the card): tx 2 rolled back and the row is still `charging`. Left so, every pass would send
   * the same attempt again and fail the same way. It is recorded like a provider error instead: the
   * attempt counts, the next one follows the dunning schedule with the slot held, staff get the one
   * alert (decline code `shop_error`). If the provider did charge before the shop failed, the
   * payment keeps its PaymentIntent, and the next attempt asks the provider about it first
   * (`prepare`): it is never charged twice. A database that is down makes this fail too; the row
   * then stays `charging` until it is back, which is the crash case.
   */
  private async shopFailed(chargeId: number, error: unknown): Promise<ChargeOutcome> {
    this.logger.error({ err: error, chargeId }, 'renewal charge failed in the shop (not the provider, not the card)');
    const name = error instanceof Error ? error.name : 'Error';
    const text = error instanceof Error ? error.message : String(error);
    return this.knex.transaction(async (trx) => {
      const [locked] = (await trx('renewal_charges').where({ id: chargeId, status: 'charging' }).forUpdate().skipLocked().select('id')) as Array<{
        id: number;
      }>;
      if (!locked) return 'skipped';
      const charge = (await this.renewals.chargeById(chargeId, trx))!;
      const subscription = await this.subscriptions.byId(charge.subscriptionId, trx);
      if (!subscription) {
        await this.renewals.update(charge.id, { status: 'cancelled' }, trx);
        return 'cancelled';
      }
      const failure: ProviderRequestFailure = {
        httpStatus: 0,
        type: SHOP_ERROR_CODE,
        code: name,
        message: `the shop failed while charging or recording the charge: ${text}`.slice(0, 500),
        requestId: null,
      };
      return this.providerFailed(charge, subscription, failure, trx, SHOP_ERROR_CODE);
    });
  }

  /**
   * Tx 1: everything a charge needs, committed before Stripe is asked: the checks, the renewal
   * order and its payment, the attempt number. Answers an outcome when there is nothing to charge.
   */
  private async prepare(charge: RenewalCharge, trx: Knex.Transaction): Promise<{ outcome?: ChargeOutcome; previous?: PaymentView }> {
    const now = this.clock.now();
    const subscription = await this.subscriptions.byId(charge.subscriptionId, trx);
    if (!subscription || subscription.status !== 'active') {
      await this.renewals.update(charge.id, { status: 'cancelled' }, trx);
      return { outcome: 'cancelled' };
    }
    if (subscription.endsAt > charge.periodEnd) {
      // Renewed meanwhile another way (the buyer paid the payment link): nothing to charge.
      await this.renewals.update(charge.id, { status: 'succeeded' }, trx);
      return { outcome: 'skipped' };
    }
    const setting = await this.renewals.settingOf(keyOf(subscription), trx);
    if (!setting?.enabled || !setting.card) {
      await this.renewals.update(charge.id, { status: 'cancelled' }, trx);
      await this.subscriptions.hold(subscription.id, null, trx);
      return { outcome: 'cancelled' };
    }
    // No charge without a delivered reminder: the buyer must have had the chance to cancel.
    // (Demo mode without SMTP: the reminder printed on the console counts as delivered.)
    const remindedAt = await this.notifications.deliveredAt(charge.reminderKey, trx);
    if (!remindedAt) {
      await this.renewals.update(charge.id, { nextAttemptAt: new Date(now.getTime() + REMINDER_WAIT_MS) }, trx);
      return { outcome: 'waiting_reminder' };
    }
    // And the time to answer it: a reminder that went out late moves the charge, the slot held until then.
    const chargeAt = new Date(remindedAt.getTime() + this.config.renewals.noticeHours * HOUR_MS);
    if (chargeAt > now) {
      await this.renewals.update(charge.id, { nextAttemptAt: chargeAt }, trx);
      await this.subscriptions.hold(subscription.id, new Date(chargeAt.getTime() + HOLD_MS), trx);
      return { outcome: 'waiting_notice' };
    }
    let order = charge.orderId ? await this.orders.find(charge.orderId, trx) : undefined;
    if (order && PAID_STATES.includes(order.state)) {
      await this.renewals.update(charge.id, { status: 'succeeded' }, trx);
      return { outcome: 'skipped' };
    }
    // The provider answered the previous attempt (its payment has the provider's id) and the shop
    // failed before recording what: no second charge until the provider says (chargeNext asks it).
    // The demo has nobody to ask, and its charges move no money.
    const previous = charge.paymentId ? await this.payments.byId(charge.paymentId) : undefined;
    if (previous?.status === 'pending' && previous.providerReference && previous.provider !== 'demo') {
      await this.renewals.update(charge.id, { nextAttemptAt: new Date(now.getTime() + REMINDER_WAIT_MS) }, trx);
      return { outcome: 'waiting_provider', previous };
    }
    if (!order || ![ORDER_STATE.created, ORDER_STATE.awaitingPayment, ORDER_STATE.paymentFailed].includes(order.state as 0 | 1 | 3)) {
      const source = await this.orders.orderOfItem(subscription.orderItemId, trx);
      const item = source?.items.find((candidate) => candidate.id === subscription.orderItemId);
      if (!source || !item) {
        await this.renewals.update(charge.id, { status: 'cancelled' }, trx);
        return { outcome: 'cancelled' };
      }
      order = await this.orders.createRenewalOrder(
        {
          userId: subscription.userId,
          email: source.email,
          languageId: source.languageId,
          currency: source.total.currency,
          item,
          renewsSubscriptionId: subscription.id,
        },
        trx,
      );
    }
    if (order.total.amount !== charge.amountMinor || order.total.currency !== charge.currency) {
      // The price changed since the reminder: never charge what the buyer was not told. They pay through the link.
      await this.renewals.update(charge.id, { status: 'requires_action', orderId: order.id, declineCode: 'price_changed' }, trx);
      await this.tellBuyer(charge, subscription, 'action_required', { orderId: order.id }, trx);
      return { outcome: 'requires_action' };
    }
    await this.orders.moveTo(order.id, ORDER_STATE.awaitingPayment, trx, { paymentMethod: 1 });
    const payment = await this.payments.open({ orderId: order.id, method: 1, amount: order.total }, trx);
    await this.renewals.update(charge.id, { status: 'charging', orderId: order.id, paymentId: payment.id, attempts: charge.attempts + 1 }, trx);
    return {};
  }

  /**
   * Tx 2: holds the charge row while Stripe is asked (another worker skips it), then records what
   * came of it. Sent again after a crash with the same attempt and key: Stripe replays its answer.
   */
  private send(chargeId: number): Promise<ChargeOutcome> {
    return this.knex.transaction(async (trx) => {
      const [locked] = (await trx('renewal_charges').where({ id: chargeId, status: 'charging' }).forUpdate().skipLocked().select('id')) as Array<{
        id: number;
      }>;
      if (!locked) return 'skipped';
      const charge = (await this.renewals.chargeById(chargeId, trx))!;
      const subscription = (await this.subscriptions.byId(charge.subscriptionId, trx))!;
      const setting = await this.renewals.settingOf(keyOf(subscription), trx);
      const payment = charge.paymentId ? await this.payments.byId(charge.paymentId) : undefined;
      const order = charge.orderId ? await this.orders.find(charge.orderId) : undefined;
      if (!setting?.card || !payment || !order) {
        await this.renewals.update(charge.id, { status: 'cancelled' }, trx);
        return 'cancelled';
      }
      const item = order.items[0];
      const attemptKey = renewalAttemptKey(charge.subscriptionId, charge.periodEnd, charge.attempts);
      // The provider's own failures come back as `provider_error`; anything thrown here or below is the shop's (chargeNext → shopFailed).
      const result = await this.savedCards.charge(payment, setting.card, `${item?.platformName ?? 'Subscription'} renewal`, attemptKey);
      if (result.verified) await this.paymentPath.applyVerified(result.verified);
      const patch = { paymentIntentId: result.paymentIntentId ?? null };
      switch (result.status) {
        case 'succeeded': {
          await this.renewals.update(charge.id, { ...patch, status: 'succeeded', declineCode: null }, trx);
          const renewedUntil = addMonths(charge.periodEnd < this.clock.now() ? this.clock.now() : charge.periodEnd, item?.months ?? 1);
          // The card charged (a new one saved on a card-update page since the reminder, maybe).
          await this.tellBuyer(
            { ...charge, cardLast4: setting.card.last4 ?? charge.cardLast4 },
            subscription,
            'renewed',
            { date: renewedUntil, orderId: order.id },
            trx,
          );
          return 'succeeded';
        }
        case 'requires_action':
          await this.renewals.update(charge.id, { ...patch, status: 'requires_action', declineCode: result.declineCode ?? 'authentication_required' }, trx);
          await this.tellBuyer(charge, subscription, 'action_required', { orderId: order.id }, trx);
          return 'requires_action';
        case 'provider_error':
          return this.providerFailed(charge, subscription, result.providerError, trx);
        case 'processing':
          // Stripe tells by webhook; until then the row stays `charging` and the next pass asks again (same key).
          await this.renewals.update(charge.id, patch, trx);
          return 'processing';
        case 'declined': {
          const failures = charge.failures + 1;
          if (charge.attempts >= MAX_ATTEMPTS) {
            await this.renewals.update(charge.id, { ...patch, status: 'failed', failures, declineCode: result.declineCode ?? null }, trx);
            // The slot goes: the expiry pass ends the subscription as any other end, and tells the buyer.
            await this.subscriptions.hold(subscription.id, null, trx);
            await this.tellBuyer(charge, subscription, 'final', { payUrl: `${this.config.publicUrl}/platform/${item?.platformId ?? ''}` }, trx);
            return 'failed';
          }
          // Retries count from the first try: the end date, or later when the reminder went out late.
          const first = this.firstChargeAt(charge, await this.notifications.deliveredAt(charge.reminderKey, trx));
          const next = new Date(first.getTime() + RETRY_AFTER_DAYS[charge.attempts - 1] * DAY_MS);
          await this.renewals.update(
            charge.id,
            {
              ...patch,
              status: 'retrying',
              failures,
              declineCode: result.declineCode ?? null,
              nextAttemptAt: next < this.clock.now() ? this.clock.now() : next,
            },
            trx,
          );
          const cardUpdateUrl = await this.cardUpdateUrl(setting, charge, subscription, trx);
          await this.tellBuyer(charge, subscription, 'declined', { date: next, cardUpdateUrl }, trx);
          return 'declined';
        }
      }
    });
  }

  /**
   * The provider failed the charge for a reason other than the card (a 400 of ours, a 5xx, 429, no
   * answer): not a decline. The attempt counts and the next one follows the dunning schedule with
   * the slot held; staff get one alert for the period's charge with the provider's words; the buyer
   * is told nothing until the last attempt, which sends them the payment link (the slot held as long
   * as it works) instead of an end. A charge Stripe made without answering in time is paid by its
   * `payment_intent.succeeded` webhook meanwhile, and the next attempt then finds the order paid.
   */
  private async providerFailed(
    charge: RenewalCharge,
    subscription: SubscriptionView,
    failure: ProviderRequestFailure | undefined,
    trx: Knex.Transaction,
    declineCode: string = PROVIDER_ERROR_CODE,
  ): Promise<ChargeOutcome> {
    const problem: ProviderRequestFailure = failure ?? { httpStatus: 0, type: 'unknown', code: null, message: 'no answer', requestId: null };
    this.logger.error({ chargeId: charge.id, attempt: charge.attempts, ...problem }, 'renewal charge failed at the provider (not a decline)');
    await this.alertStaff(charge, subscription, problem, trx);
    if (charge.attempts >= MAX_ATTEMPTS) {
      const payLinkEnd = new Date(charge.periodEnd.getTime() + PAY_LINK_MS);
      await this.renewals.update(charge.id, { status: 'requires_action', declineCode }, trx);
      await this.subscriptions.hold(subscription.id, payLinkEnd, trx);
      await this.tellBuyer(charge, subscription, 'pay_link', { date: payLinkEnd }, trx);
      return 'provider_error';
    }
    const next = new Date(charge.periodEnd.getTime() + RETRY_AFTER_DAYS[charge.attempts - 1] * DAY_MS);
    await this.renewals.update(charge.id, { status: 'retrying', declineCode, nextAttemptAt: next < this.clock.now() ? this.clock.now() : next }, trx);
    return 'provider_error';
  }

  /** One e-mail per period's charge to each staff alert address (STAFF_ALERT_EMAILS): the provider's message and request id. */
  private async alertStaff(charge: RenewalCharge, subscription: SubscriptionView, problem: ProviderRequestFailure, trx: Knex.Transaction): Promise<void> {
    for (const to of this.config.mailbox.staffAlertEmails) {
      await this.notifications.enqueue(
        {
          kind: EMAIL_KIND.renewalProviderError,
          to,
          languageId: 1,
          data: {
            subscriptionId: subscription.id,
            chargeId: charge.id,
            attempt: charge.attempts,
            maxAttempts: MAX_ATTEMPTS,
            httpStatus: problem.httpStatus,
            errorType: problem.type,
            errorCode: problem.code,
            message: problem.message,
            requestId: problem.requestId,
            at: this.clock.now(),
          },
          idempotencyKey: `renewal:${charge.id}:provider-error:${to}`,
        },
        trx,
      );
    }
  }

  /**
   * When a period's first charge may be made: at its end, and never sooner than
   * RENEWAL_NOTICE_HOURS after its reminder was sent (the buyer's time to cancel).
   */
  private firstChargeAt(charge: RenewalCharge, reminderSentAt: Date | null): Date {
    const notice = reminderSentAt ? reminderSentAt.getTime() + this.config.renewals.noticeHours * HOUR_MS : 0;
    return new Date(Math.max(charge.periodEnd.getTime(), notice));
  }

  /** A setup-mode Checkout for a new card, remembered so the next try uses what the buyer saved there. */
  private async cardUpdateUrl(setting: AutoRenewal, charge: RenewalCharge, subscription: SubscriptionView, trx: Knex.Transaction): Promise<string | undefined> {
    try {
      const page = await this.savedCards.cardUpdatePage(
        setting.card!.customerId,
        charge.currency,
        `${subscription.id}-${charge.periodEnd.getTime()}-${charge.attempts}`,
        { success: `/user/${subscription.userId}`, cancel: `/user/${subscription.userId}` },
      );
      await this.renewals.rememberCardUpdateSession(setting, page.sessionId, trx);
      return page.url;
    } catch (error) {
      this.logger.warn({ err: error, chargeId: charge.id }, 'no card-update page for the dunning e-mail; it links to the panel');
      return undefined;
    }
  }

  /** Charges waiting on the buyer (SCA, price change) whose renewal order was paid meanwhile are done; those whose subscription ended, failed. */
  private async followBuyers(): Promise<void> {
    for (const charge of await this.renewals.waitingOnBuyer(BATCH)) {
      const order = await this.orders.find(charge.orderId!);
      const subscription = await this.subscriptions.byId(charge.subscriptionId);
      if (order && PAID_STATES.includes(order.state)) await this.renewals.update(charge.id, { status: 'succeeded' });
      else if (!subscription || subscription.status !== 'active')
        await this.renewals.update(charge.id, { status: charge.kind === 'auto' ? 'failed' : 'cancelled' });
    }
  }

  /** One renewal e-mail about this charge, in the language and to the address of the order that bought the subscription. */
  private async tellBuyer(
    charge: RenewalCharge,
    subscription: SubscriptionView,
    event: Exclude<AutoRenewalEmailData['event'], 'reminder'>,
    extra: { date?: Date; orderId?: number; cardUpdateUrl?: string; payUrl?: string },
    trx: Knex.Transaction,
  ): Promise<void> {
    const source = await this.orders.orderOfItem(subscription.orderItemId, trx);
    const item = source?.items.find((candidate) => candidate.id === subscription.orderItemId);
    if (!source || !item) return;
    const heldUntil = new Date(charge.periodEnd.getTime() + HOLD_MS);
    const payUrl = extra.payUrl ?? this.link('pay', subscription.id, charge.periodEnd, new Date(charge.periodEnd.getTime() + PAY_LINK_MS));
    await this.notifications.enqueue(
      {
        kind: EMAIL_KIND.autoRenewal,
        to: source.email,
        languageId: source.languageId,
        userId: subscription.userId,
        data: {
          event,
          subscriptionId: subscription.id,
          platformName: item.platformName,
          amount: moneyLabel(money(charge.amountMinor, charge.currency as CurrencyCode)),
          date: extra.date ?? heldUntil,
          cardLast4: charge.cardLast4,
          ...(extra.orderId ? { orderId: extra.orderId } : {}),
          ...(extra.cardUpdateUrl ? { cardUpdateUrl: extra.cardUpdateUrl } : {}),
          ...(event === 'action_required' || event === 'final' || event === 'pay_link' ? { payUrl } : {}),
        },
        idempotencyKey: `renewal:${charge.id}:${event}:${charge.attempts}`,
      },
      trx,
    );
  }

  // ── The buyer's switch and links ───────────────────────────────────────────────────────────

  /**
   * POST /api/subscribe/autorenew { subscriptionId, enabled }: the holder turns automatic renewal
   * on or off (audited as `subscription.autorenew`). Off also cancels a charge not yet made and
   * lets the held slot go; on needs a card saved for it (409 `no_saved_card`).
   */
  async setAutoRenew(holder: AuthenticatedUser, { subscriptionId, enabled }: AutoRenewInput, actor: AuditActor): Promise<RenewalState> {
    const subscription = await this.subscriptions.byId(subscriptionId);
    if (!subscription || subscription.userId !== holder.id || subscription.status !== 'active') {
      throw fail('subscription_not_found');
    }
    if (enabled) {
      // Paid with a method Stripe cannot charge (or no Stripe): no switch to turn on, whatever the card.
      if ((await this.states([subscription])).get(subscription.id)!.mode === 'link') throw fail('autorenew_unavailable');
      // Back from the save-a-card page: the card saved there is what turning it on needs.
      await this.learnSavedCard(await this.renewals.settingOf(keyOf(subscription)));
    }
    await this.change(subscription, enabled, actor, 'panel');
    return (await this.states([subscription])).get(subscription.id)!;
  }

  /**
   * A holder without a saved card (paid by card without "Renew automatically") saves one: the
   * setup-mode Checkout of the card-update page, on their Stripe Customer. The page is remembered
   * on the unit's renewal setting (still off); the card saved there turns renewal on, when the
   * buyer comes back (the panel switches it on) or at the next renewal pass, whichever is first.
   */
  async saveCardPage(holder: AuthenticatedUser, { subscriptionId }: SaveCardInput): Promise<{ url: string }> {
    const subscription = await this.subscriptions.byId(subscriptionId);
    if (!subscription || subscription.userId !== holder.id || subscription.status !== 'active') {
      throw fail('subscription_not_found');
    }
    // A card saved on an earlier page already (the buyer did not come back): no second page.
    if (await this.learnSavedCard(await this.renewals.settingOf(keyOf(subscription)))) throw fail('card_already_saved');
    const order = await this.orders.orderOfItem(subscription.orderItemId);
    const state = (await this.states([subscription], order && new Map([[subscription.orderItemId, order]]))).get(subscription.id)!;
    if (!this.savedCards.available || state.mode !== 'card' || !order) throw fail('autorenew_unavailable');
    if (state.canEnable) throw fail('card_already_saved');
    const customerId = await this.savedCards.customerOf(holder);
    // A new page each time asked (an abandoned one may have expired): the key names the moment.
    const page = await this.savedCards.cardUpdatePage(
      customerId,
      order.total.currency,
      `save-${subscription.id}-${this.clock.now().getTime()}`,
      // Back with the card saved, the panel hands the returned session to `cardSaved`, which turns
      // renewal on only for this page; cancelled, it only shows the panel.
      { success: `/user/${holder.id}?cardSaved=${subscription.id}&cardSession={CHECKOUT_SESSION_ID}`, cancel: `/user/${holder.id}` },
    );
    await this.renewals.rememberSaveCardPage(keyOf(subscription), holder.id, page.sessionId);
    return { url: page.url };
  }

  /**
   * Back from Stripe's card page (`?cardSaved=&cardSession=`): renewal turns on only when the
   * returned Checkout Session is the save-a-card page this holder opened for this subscription,
   * finished with a card, and not used before (learning the card forgets the page). Anything else,
   * a crafted or replayed return among them, changes nothing (409 `card_session_invalid`).
   */
  async cardSaved(holder: AuthenticatedUser, { subscriptionId, sessionId }: CardSavedInput, actor: AuditActor): Promise<RenewalState> {
    const subscription = await this.subscriptions.byId(subscriptionId);
    if (!subscription || subscription.userId !== holder.id || subscription.status !== 'active') {
      throw fail('subscription_not_found');
    }
    const setting = await this.renewals.settingOf(keyOf(subscription));
    if (!setting || setting.userId !== holder.id || setting.card || setting.cardUpdateSessionId !== sessionId) throw fail('card_session_invalid');
    if (!(await this.learnSavedCard(setting))) throw fail('card_session_invalid');
    await this.change(subscription, true, actor, 'card_saved');
    return (await this.states([subscription])).get(subscription.id)!;
  }

  /** The card of a finished save-a-card page, remembered on the setting; false when there is none (yet). */
  private async learnSavedCard(setting: AutoRenewal | undefined): Promise<boolean> {
    if (!setting || setting.card || !setting.cardUpdateSessionId || !this.savedCards.available) return false;
    const card = await this.savedCards.cardOfUpdate(setting.cardUpdateSessionId);
    if (!card) return false;
    await this.renewals.rememberCard(setting, card);
    return true;
  }

  /**
   * What a link's page says about its subscription, in the language of the order that bought it
   * (the e-mail's language): the platform, the period, the amount of the period's charge (or the
   * renewal price) in the order's currency, and the end of access as the e-mail writes dates.
   */
  private async linkSubject(subscription: SubscriptionView, periodEnd: number) {
    const source = await this.orders.orderOfItem(subscription.orderItemId);
    const item = source?.items.find((candidate) => candidate.id === subscription.orderItemId);
    if (!source || !item) return undefined;
    const languageId = source.languageId === 2 ? 2 : 1;
    const charge = await this.renewals.chargeOfPeriod(subscription.id, new Date(periodEnd));
    const amount = charge
      ? money(charge.amountMinor, charge.currency as CurrencyCode)
      : ((await this.orders.renewalPrice(item, source.total.currency, source.languageId)) ?? item.unitPrice);
    const texts = RENEWAL_LINK_TEXTS[languageId];
    const facts: RenewalLinkFacts = {
      subscriptionId: await this.knownId(subscription.id),
      platform: item.platformName,
      period: texts.period(item.months),
      amount: moneyLabel(amount),
      endsAt: emailDate(languageId, subscription.endsAt),
    };
    return { languageId, texts, facts, source, item } as const;
  }

  /** The facts rows of a link's page. */
  private static factRows(texts: RenewalLinkTexts, facts: RenewalLinkFacts, amountLabel: 'amount' | 'toPay'): Array<[string, string]> {
    return [
      [texts.labels.platform, facts.platform],
      [texts.labels.period, facts.period],
      [texts.labels[amountLabel], facts.amount],
      [texts.labels.endsAt, facts.endsAt],
    ];
  }

  private invalidLink(languageId: LanguageId, message: (texts: RenewalLinkTexts) => string, status = 404): LinkPage {
    const texts = RENEWAL_LINK_TEXTS[languageId];
    return { status, languageId, title: texts.invalidTitle, message: message(texts), links: [{ href: '/', label: texts.shop }] };
  }

  /** GET of the cancel link: a page that asks to confirm (a link prefetcher's GET changes nothing). `visitorLanguage` answers a link that names no order. */
  async cancelLinkPage(token: string, visitorLanguage: LanguageId): Promise<LinkPage> {
    const link = readRenewalLink(token, 'cancel', this.config.tokenSecret, this.clock.now());
    if (!link) return this.invalidLink(visitorLanguage, (texts) => texts.invalidCancel);
    // Moved since the e-mail (issue 33): the link follows the buyer to the subscription that carries it on.
    const subscription = await this.subscriptions.current(link.subscriptionId);
    const subject = subscription && (await this.linkSubject(subscription, link.periodEnd));
    if (!subscription || !subject) return this.invalidLink(visitorLanguage, (texts) => texts.gone);
    const { languageId, texts, facts } = subject;
    const panel = { href: `/user/${subscription.userId}`, label: texts.panel };
    const setting = await this.renewals.settingOf(keyOf(subscription));
    if (!setting?.enabled) return { status: 200, languageId, title: texts.offTitle, message: texts.off(facts), links: [panel] };
    return {
      status: 200,
      languageId,
      title: texts.cancelTitle,
      message: texts.cancel(facts),
      facts: RenewalFlow.factRows(texts, facts, 'amount'),
      confirm: { token, label: texts.cancelLabel },
      links: [panel],
    };
  }

  /** POST of the cancel link's page: turns automatic renewal off (audited, the buyer as actor). */
  async cancelByLink(token: string, context: RequestContext, visitorLanguage: LanguageId): Promise<LinkPage> {
    const link = readRenewalLink(token, 'cancel', this.config.tokenSecret, this.clock.now());
    if (!link) return this.invalidLink(visitorLanguage, (texts) => texts.invalidCancel);
    const subscription = await this.subscriptions.current(link.subscriptionId);
    if (!subscription) return this.invalidLink(visitorLanguage, (texts) => texts.gone);
    await this.change(subscription, false, { userId: subscription.userId, label: 'buyer (e-mail link)', ip: context.ip }, 'email_link');
    const subject = await this.linkSubject(subscription, link.periodEnd);
    if (!subject) return this.invalidLink(visitorLanguage, (texts) => texts.gone);
    const { languageId, texts, facts } = subject;
    return {
      status: 200,
      languageId,
      title: texts.cancelledTitle,
      message: texts.cancelled(facts),
      links: [{ href: `/user/${subscription.userId}`, label: texts.panel }],
    };
  }

  /** GET of the payment link: a page with one button (a prefetcher starts nothing); it says what will be charged. */
  async payLinkPage(token: string, visitorLanguage: LanguageId): Promise<LinkPage> {
    const link = readRenewalLink(token, 'pay', this.config.tokenSecret, this.clock.now());
    if (!link) return this.invalidLink(visitorLanguage, (texts) => texts.invalidPay);
    const subscription = await this.subscriptions.current(link.subscriptionId);
    const subject = subscription && (await this.linkSubject(subscription, link.periodEnd));
    if (!subscription || !subject) return this.invalidLink(visitorLanguage, (texts) => texts.gone);
    const { languageId, texts, facts, item } = subject;
    const panel = { href: `/user/${subscription.userId}`, label: texts.panel };
    if (subscription.endsAt.getTime() > link.periodEnd)
      return { status: 200, languageId, title: texts.renewedTitle, message: texts.renewed(facts), links: [panel] };
    if (subscription.status !== 'active')
      return { status: 200, languageId, title: texts.invalidTitle, message: texts.ended, links: [{ href: `/platform/${item.platformId}`, label: texts.shop }] };
    return {
      status: 200,
      languageId,
      title: texts.payTitle(facts),
      message: texts.pay(facts),
      facts: RenewalFlow.factRows(texts, facts, 'toPay'),
      note: texts.payNote(facts),
      confirm: { token, label: texts.payLabel(facts) },
      links: [panel],
    };
  }

  /**
   * POST of the payment link's page: the renewal order of that period (made once, a new one when
   * the previous expired), and the checkout of the method the subscription was bought with; the
   * browser goes on to the provider's page. Paid, the order extends the same subscription.
   */
  async payByLink(token: string, context: RequestContext, visitorLanguage: LanguageId): Promise<LinkPage> {
    const link = readRenewalLink(token, 'pay', this.config.tokenSecret, this.clock.now());
    if (!link) return this.invalidLink(visitorLanguage, (texts) => texts.invalidPay);
    const subscription = await this.subscriptions.current(link.subscriptionId);
    if (!subscription || subscription.status !== 'active') return this.invalidLink(visitorLanguage, (texts) => texts.ended);
    const subject = await this.linkSubject(subscription, link.periodEnd);
    if (!subject) return this.invalidLink(visitorLanguage, (texts) => texts.notHere);
    const { source, item } = subject;
    if (subscription.endsAt.getTime() > link.periodEnd) {
      const { languageId, texts, facts } = subject;
      return {
        status: 200,
        languageId,
        title: texts.renewedTitle,
        message: texts.renewed(facts),
        links: [{ href: `/user/${subscription.userId}`, label: texts.panel }],
      };
    }
    const periodEnd = new Date(link.periodEnd);
    const order = await this.knex.transaction(async (trx) => {
      const price = await this.orders.renewalPrice(item, source.total.currency, source.languageId);
      // Parallel POSTs of one link: the charge row (unique per period) is made once and then locked,
      // so they take turns here and find its order; its checkout is then shared (checkout.flow.ts).
      const charge =
        (await this.renewals.chargeOfPeriod(subscription.id, periodEnd, trx)) ??
        (await this.renewals.createCharge(
          {
            subscriptionId: subscription.id,
            periodEnd,
            kind: 'manual',
            status: 'manual',
            amountMinor: price?.amount ?? item.unitPrice.amount,
            currency: source.total.currency,
            cardLast4: null,
            nextAttemptAt: null,
            reminderKey: `subscription:${subscription.id}:reminder:${periodEnd.toISOString()}`,
          },
          trx,
        )) ??
        // Another POST made it first (the insert waited for it and was ignored): that one, locked.
        (await this.renewals.chargeOfPeriod(subscription.id, periodEnd, trx))!;
      const existing = charge.orderId ? await this.orders.find(charge.orderId, trx) : undefined;
      if (existing && [ORDER_STATE.created, ORDER_STATE.awaitingPayment, ORDER_STATE.paymentFailed].includes(existing.state as 0 | 1 | 3)) return existing;
      const made = await this.orders.createRenewalOrder(
        {
          userId: subscription.userId,
          email: source.email,
          languageId: source.languageId,
          currency: source.total.currency,
          item,
          renewsSubscriptionId: subscription.id,
        },
        trx,
      );
      await this.renewals.update(charge.id, { orderId: made.id }, trx);
      return made;
    });
    const buyer: AuthenticatedUser = {
      id: subscription.userId,
      email: source.email,
      name: null,
      photoUrl: null,
      role: ROLES.user,
      isEmailVerified: true,
      languageId: source.languageId,
      sessionId: 'renewal-link',
    };
    const methods = this.payments.availableMethods(order.paymentMethods);
    const method = methods.includes(methodOf(source)) ? methodOf(source) : methods[0];
    if (method === undefined) return this.invalidLink(subject.languageId, (texts) => texts.notHere, 409);
    const { url } = await this.checkout.start(buyer, { orderId: order.id }, method, context);
    return {
      status: 303,
      languageId: subject.languageId,
      title: subject.texts.payTitle(subject.facts),
      message: subject.texts.payNote(subject.facts),
      redirect: url,
    };
  }

  /** Turns one subscription's automatic renewal on or off, in one transaction with its audit entry and the charge it cancels. */
  private async change(subscription: SubscriptionView, enabled: boolean, actor: AuditActor, via: 'panel' | 'email_link' | 'card_saved'): Promise<void> {
    const key = keyOf(subscription);
    await this.knex.transaction(async (trx) => {
      const setting = await this.renewals.settingOf(key, trx);
      // An opt-in whose card the pass has not learnt yet may be switched on again: its card comes with the next pass.
      if (enabled && !setting?.card && !setting?.sourcePaymentId) {
        throw fail('no_saved_card');
      }
      const open = await this.renewals.chargeOfPeriod(subscription.id, subscription.endsAt, trx);
      if (!enabled && open?.status === 'charging') throw fail('renewal_in_progress');
      const changed = await this.renewals.setEnabled(key, subscription.userId, enabled, trx);
      if (!changed) return;
      if (!enabled && open && OPEN_CHARGE_STATUSES.includes(open.status)) {
        await this.renewals.update(open.id, { status: 'cancelled' }, trx);
        await this.subscriptions.hold(subscription.id, null, trx);
      }
      // Back on before the end, after the reminder of this period: its charge is made after all
      // (the buyer was reminded; turning it on again is their answer).
      if (enabled && open?.status === 'cancelled' && open.attempts === 0 && subscription.endsAt > this.clock.now()) {
        await this.renewals.update(open.id, { status: 'scheduled', nextAttemptAt: open.periodEnd }, trx);
        await this.subscriptions.hold(subscription.id, new Date(open.periodEnd.getTime() + HOLD_MS), trx);
      }
      await this.audit.record(
        actor,
        { action: 'subscription.autorenew', targetType: 'subscription', targetId: subscription.id, details: { subscriptionId: subscription.id, enabled, via } },
        trx,
      );
    });
  }

  // ── What the panel and staff see ───────────────────────────────────────────────────────────

  /** Each subscription's renewal as the panel shows it. */
  async states(subscriptions: SubscriptionView[], ordersByItem?: Map<number, OrderView>): Promise<Map<number, RenewalState>> {
    const settings = new Map((await this.renewals.settingsOf(subscriptions.map(keyOf))).map((setting) => [`${setting.orderItemId}:${setting.unit}`, setting]));
    const charges = await this.renewals.latestOf(subscriptions.map((subscription) => subscription.id));
    const states = new Map<number, RenewalState>();
    for (const subscription of subscriptions) {
      const setting = settings.get(`${subscription.orderItemId}:${subscription.unit}`);
      const order = ordersByItem?.get(subscription.orderItemId) ?? (await this.orders.orderOfItem(subscription.orderItemId));
      const item = order?.items.find((candidate) => candidate.id === subscription.orderItemId);
      const charge = charges.get(subscription.id);
      const current = charge && charge.periodEnd.getTime() >= subscription.endsAt.getTime() ? charge : undefined;
      // Paid by card without the opt-in: switchable only where a card can be saved on a page (not in the demo).
      const card =
        this.savedCards.available && (setting?.card || setting?.enabled || setting?.sourcePaymentId || (methodOf(order) === 1 && this.savedCards.cardPages));
      const enabled = Boolean(setting?.enabled && card);
      const price = current
        ? money(current.amountMinor, current.currency as CurrencyCode)
        : item && order
          ? await this.orders.renewalPrice(item, order.total.currency, order.languageId)
          : undefined;
      states.set(subscription.id, {
        mode: card ? 'card' : 'link',
        enabled,
        canEnable: Boolean(this.savedCards.available && (setting?.card || setting?.sourcePaymentId)),
        cardSaved: Boolean(setting?.card),
        status: current?.status ?? null,
        nextChargeAt: enabled ? (current && OPEN_CHARGE_STATUSES.includes(current.status) ? current.nextAttemptAt : subscription.endsAt) : null,
        amount: price ?? null,
        cardLast4: setting?.card?.last4 ?? null,
      });
    }
    return states;
  }

  /** Staff: the next 30 days' renewals (expected revenue per currency) and the renewals that failed in the last 30 days. */
  async forStaff(options: { userId?: number } = {}): Promise<StaffRenewals> {
    const now = this.clock.now();
    const ending = (await this.subscriptions.endingBetween(new Date(now.getTime() - HOLD_MS), new Date(now.getTime() + 30 * DAY_MS))).filter(
      (subscription) => options.userId === undefined || subscription.userId === options.userId,
    );
    const states = await this.states(ending);
    const charges = await this.renewals.latestOf(ending.map((subscription) => subscription.id));
    const view = (subscription: SubscriptionView, state: RenewalState, charge: RenewalCharge | undefined): StaffRenewal => ({
      subscriptionId: subscription.id,
      userId: subscription.userId,
      endsAt: subscription.endsAt,
      mode: state.mode,
      enabled: state.enabled,
      status: state.status,
      attempts: charge && charge.periodEnd.getTime() >= subscription.endsAt.getTime() ? charge.attempts : 0,
      nextChargeAt: state.nextChargeAt,
      amount: state.amount,
      cardLast4: state.cardLast4,
      declineCode: charge?.declineCode ?? null,
    });
    const upcoming = ending.map((subscription) => view(subscription, states.get(subscription.id)!, charges.get(subscription.id)));
    // What the charges of the next 30 days bring if they succeed: renewal on with a card saved (an
    // opt-in whose card is not learnt yet cannot be charged), at the amount it would be charged
    // (this period's reminded amount, else the catalog price now); dunning ones are in `failed`.
    const expected = new Map<string, number>();
    for (const entry of upcoming) {
      const state = states.get(entry.subscriptionId)!;
      if (!entry.enabled || !state.cardSaved || !entry.amount || entry.endsAt < now) continue;
      expected.set(entry.amount.currency, (expected.get(entry.amount.currency) ?? 0) + entry.amount.amount);
    }
    const failedCharges = await this.renewals.withStatus(FAILED_STATUSES, new Date(now.getTime() - 30 * DAY_MS), 200);
    const failedSubscriptions = await this.subscriptions.byIds(failedCharges.map((charge) => charge.subscriptionId));
    const failedStates = await this.states(failedSubscriptions);
    const failed: StaffRenewal[] = [];
    for (const charge of failedCharges) {
      const subscription = failedSubscriptions.find((candidate) => candidate.id === charge.subscriptionId);
      if (!subscription || (options.userId !== undefined && subscription.userId !== options.userId)) continue;
      failed.push({
        ...view(subscription, failedStates.get(subscription.id)!, charge),
        status: charge.status,
        attempts: charge.attempts,
        declineCode: charge.declineCode,
      });
    }
    return { expected: [...expected].map(([currency, amount]) => money(amount, currency as CurrencyCode)), upcoming, failed };
  }

  /** The dashboard's renewal figures: the next 30 days' expected revenue and the failed renewals of the last 30 days (count, latest first). */
  async summary(): Promise<RenewalSummary> {
    const now = this.clock.now();
    const [{ expected, failed }, failedCount] = await Promise.all([
      this.forStaff(),
      this.renewals.countWithStatus(FAILED_STATUSES, new Date(now.getTime() - 30 * DAY_MS)),
    ]);
    return { expected, failedCount, latestFailed: failed.slice(0, DASHBOARD_FAILED_RENEWALS), remindersUndelivered: this.remindersUndelivered };
  }

  /**
   * No charge is made before its reminder was delivered (the buyer's chance to cancel). Without
   * SMTP_URL outside demo mode (whose console counts as delivery), reminders are only kept in the
   * outbox: every renewal waits for a delivery that never comes. The start and the dashboard say so.
   */
  get remindersUndelivered(): boolean {
    return this.savedCards.available && !this.notifications.delivers;
  }

  /** Figures for /metrics. */
  counts(trx?: Knex.Transaction) {
    return this.renewals.counts(trx);
  }

  /** A signed link for e-mails (`/r/…` pages answer it; see docs/renewal.md for why GET only shows a page). */
  /** The ID the buyer knows for this subscription: the first of its replacement chain (issue 33). */
  private async knownId(subscriptionId: number): Promise<number> {
    return (await this.subscriptions.origins([subscriptionId])).get(subscriptionId)?.id ?? subscriptionId;
  }

  private link(purpose: 'cancel' | 'pay', subscriptionId: number, periodEnd: Date, expiresAt: Date): string {
    const token = signRenewalLink({ purpose, subscriptionId, periodEnd: periodEnd.getTime(), expiresAt: expiresAt.getTime() }, this.config.tokenSecret);
    return `${this.config.publicUrl}/api/subscribe/autorenew/${purpose}?token=${encodeURIComponent(token)}`;
  }
}

/** A subscription's key in `auto_renewals`: the order item unit it serves (kept through renewals and replacements). */
function keyOf(subscription: Pick<SubscriptionView, 'orderItemId' | 'unit'>) {
  return { orderItemId: subscription.orderItemId, unit: subscription.unit };
}

/** The part of a renewal charge's Idempotency-Key that names it: the subscription, the period (its end), the attempt. */
export function renewalAttemptKey(subscriptionId: number, periodEnd: Date, attempt: number): string {
  return `${subscriptionId}-${periodEnd.getTime()}-${attempt}`;
}
