/**
 * Automatic renewal (issue 28): opt-in at card payment, a reminder before every charge, the
 * charge itself off-session, dunning that holds the slot, one-click cancel. docs/renewal.md has
 * the whole story; this is the sequence of the charge pass and the reminder's charge plan. The
 * buyer's switch is renewal-switch.flow.ts, the e-mails' cancel and pay links' pages
 * renewal-links.flow.ts, what the panel and staff see renewal-views.flow.ts, the schedule they
 * share renewal-terms.ts.
 *
 *   checkout (card, "Renew automatically") ──▶ CheckoutFlow: payment with save_card, auto_renewals
 *       rows for the order's units (Checkout on the buyer's Stripe Customer, setup_future_usage)
 *   renewal pass (`renewals-due`, `subshare renew-due`) ──▶ renewDue:
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
import type { Logger } from '../shared/logger.js';
import { money, type CurrencyCode, type Money } from '../shared/money.js';
import { TOKENS } from '../shared/tokens.js';
import { EMAIL_KIND, type AutoRenewalEmailData, NotificationsService } from '../modules/notifications/index.js';
import { ORDER_STATE, PAID_STATES, PAYABLE_STATES, type OrderItemView, OrdersService, type OrderView } from '../modules/orders/index.js';
import { PaymentsService, type PaymentView, type ProviderRequestFailure, SavedCardsService } from '../modules/payments/index.js';
import { signRenewalLink, type AutoRenewal, type RenewalCharge, RenewalsService } from '../modules/renewals/index.js';
import { SubscriptionsService, type SubscriptionView } from '../modules/subscriptions/index.js';
import { PAYMENT_METHOD } from '../wire/enums.js';
import { moneyLabel } from './order-access.js';
import { PaymentCredit } from './payment-credit.js';
import { PaymentNotificationFlow } from './payment-notification.flow.js';
import { DAY_MS, HOLD_MS, HOUR_MS, keyOf, MAX_ATTEMPTS, RETRY_AFTER_DAYS, renewalOrderOf } from './renewal-terms.js';
import { RenewalSwitchFlow } from './renewal-switch.flow.js';
import { pagePath } from '../pages/index.js';

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

@injectable()
export class RenewalFlow {
  private readonly logger: Logger;

  constructor(
    @inject(TOKENS.Config) private readonly config: AppConfig,
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) logger: Logger,
    @inject(OrdersService) private readonly orders: OrdersService,
    @inject(PaymentsService) private readonly payments: PaymentsService,
    @inject(SavedCardsService) private readonly savedCards: SavedCardsService,
    @inject(SubscriptionsService) private readonly subscriptions: SubscriptionsService,
    @inject(RenewalsService) private readonly renewals: RenewalsService,
    @inject(NotificationsService) private readonly notifications: NotificationsService,
    @inject(PaymentNotificationFlow) private readonly paymentPath: PaymentNotificationFlow,
    @inject(PaymentCredit) private readonly paymentCredit: PaymentCredit,
    @inject(RenewalSwitchFlow) private readonly renewalSwitch: RenewalSwitchFlow,
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
          cancelUrl: await this.link('cancel', subscription.id, periodEnd, new Date(periodEnd.getTime() + HOLD_MS)),
          // Credit pays first at the renewal (issue 37): the buyer's credit today, up to the amount.
          ...creditPrice(
            money(charge.amountMinor, charge.currency as CurrencyCode),
            await this.paymentCredit.wouldCover(subscription.userId, money(charge.amountMinor, charge.currency as CurrencyCode), PAYMENT_METHOD.card, trx),
          ),
        },
      };
    }
    return { kind: 'manual', renewUrl: await this.link('pay', subscription.id, periodEnd, new Date(periodEnd.getTime() + PAY_LINK_MS)) };
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
    let learnt = await this.rememberCards(
      await this.renewals.cardsToLearn(BATCH),
      (setting) => this.savedCards.cardOfPayment(setting.sourcePaymentId!),
      'could not learn a saved card; the next pass tries again',
    );
    // A new card saved on a card-update page (dunning) replaces the declined one for the next try.
    learnt += await this.rememberCards(
      await this.renewals.cardUpdatesToRead(BATCH),
      (setting) => this.savedCards.cardOfUpdate(setting.cardUpdateSessionId!),
      'could not read a card-update page; the next pass tries again',
    );
    // A first card saved to turn renewal on, by a buyer who did not come back to the panel: on, as they asked.
    for (const setting of await this.renewals.saveCardPagesToRead(new Date(this.clock.now().getTime() - SAVE_CARD_PAGE_MS), BATCH)) {
      try {
        if (!(await this.renewalSwitch.learnSavedCard(setting))) continue;
        learnt += 1;
        const subscription = (await this.subscriptions.activeOfUser(setting.userId)).find(
          (candidate) => candidate.orderItemId === setting.orderItemId && candidate.unit === setting.unit,
        );
        if (subscription) await this.renewalSwitch.change(subscription, true, { userId: subscription.userId, label: 'buyer (card saved)' }, 'card_saved');
      } catch (error) {
        this.logger.warn({ err: error, orderItemId: setting.orderItemId }, 'could not read a save-a-card page; the next pass tries again');
      }
    }
    return learnt;
  }

  /**
   * Reads each setting's card from the provider (`read`) and remembers it for the next charge;
   * counts those remembered. A setting whose read fails is logged and read again next pass.
   */
  private async rememberCards<S extends Parameters<RenewalsService['rememberCard']>[0]>(
    settings: S[],
    read: (setting: S) => ReturnType<SavedCardsService['cardOfPayment']>,
    failure: string,
  ): Promise<number> {
    let remembered = 0;
    for (const setting of settings) {
      try {
        const card = await read(setting);
        if (card) {
          await this.renewals.rememberCard(setting, card);
          remembered += 1;
        }
      } catch (error) {
        this.logger.warn({ err: error, orderItemId: setting.orderItemId }, failure);
      }
    }
    return remembered;
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
      const charge = await this.renewals.lockCharging(chargeId, trx);
      if (!charge) return 'skipped';
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
    if (!order || !PAYABLE_STATES.includes(order.state)) {
      const source = await this.orders.orderOfItem(subscription.orderItemId, trx);
      const item = source?.items.find((candidate) => candidate.id === subscription.orderItemId);
      if (!source || !item) {
        await this.renewals.update(charge.id, { status: 'cancelled' }, trx);
        return { outcome: 'cancelled' };
      }
      order = await this.orders.createRenewalOrder(renewalOrderOf(subscription, source, item), trx);
    }
    if (order.total.amount !== charge.amountMinor || order.total.currency !== charge.currency) {
      // The price changed since the reminder: never charge what the buyer was not told. They pay through the link.
      await this.renewals.update(charge.id, { status: 'requires_action', orderId: order.id, declineCode: 'price_changed' }, trx);
      await this.tellBuyer(charge, subscription, 'action_required', { orderId: order.id }, trx);
      return { outcome: 'requires_action' };
    }
    await this.orders.moveTo(order.id, ORDER_STATE.awaitingPayment, trx, { paymentMethod: PAYMENT_METHOD.card });
    // Earlier attempts that failed give their credit back, to be spent on this one.
    await this.paymentCredit.release(order.id, trx);
    // Credit first (issue 37): the card is charged only for the rest.
    const payment = await this.paymentCredit.spend(
      await this.payments.open({ orderId: order.id, method: PAYMENT_METHOD.card, amount: order.total }, trx),
      subscription.userId,
      trx,
    );
    await this.renewals.update(charge.id, { status: 'charging', orderId: order.id, paymentId: payment.id, attempts: charge.attempts + 1 }, trx);
    if (payment.provider !== 'credit') return {};
    // All of it covered by credit: paid now without Stripe, through the normal payment path (activation extends the subscription).
    await this.paymentPath.applyIn(this.paymentCredit.coveredReport(payment), trx);
    await this.renewals.update(charge.id, { status: 'succeeded', declineCode: null }, trx);
    const item = order.items[0];
    const renewedUntil = addMonths(charge.periodEnd < now ? now : charge.periodEnd, item?.months ?? 1);
    await this.tellBuyer(charge, subscription, 'renewed', { date: renewedUntil, orderId: order.id, credit: payment.credit }, trx);
    return { outcome: 'succeeded' };
  }

  /**
   * Tx 2: holds the charge row while Stripe is asked (another worker skips it), then records what
   * came of it. Sent again after a crash with the same attempt and key: Stripe replays its answer.
   */
  private send(chargeId: number): Promise<ChargeOutcome> {
    return this.knex.transaction(async (trx) => {
      const charge = await this.renewals.lockCharging(chargeId, trx);
      if (!charge) return 'skipped';
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
            { date: renewedUntil, orderId: order.id, credit: payment.credit },
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
            await this.tellBuyer(charge, subscription, 'final', { payUrl: `${this.config.publicUrl}${pagePath.platform(item?.platformId ?? '')}` }, trx);
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
    await this.notifications.alertStaff(
      EMAIL_KIND.renewalProviderError,
      {
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
      `renewal:${charge.id}:provider-error`,
      trx,
    );
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
        { success: pagePath.user(subscription.userId), cancel: pagePath.user(subscription.userId) },
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
    extra: { date?: Date; orderId?: number; cardUpdateUrl?: string; payUrl?: string; credit?: Money },
    trx: Knex.Transaction,
  ): Promise<void> {
    const source = await this.orders.orderOfItem(subscription.orderItemId, trx);
    const item = source?.items.find((candidate) => candidate.id === subscription.orderItemId);
    if (!source || !item) return;
    const heldUntil = new Date(charge.periodEnd.getTime() + HOLD_MS);
    const payUrl = extra.payUrl ?? (await this.link('pay', subscription.id, charge.periodEnd, new Date(charge.periodEnd.getTime() + PAY_LINK_MS)));
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
          ...(extra.credit ? creditPrice(money(charge.amountMinor, charge.currency as CurrencyCode), extra.credit) : {}),
          ...(event === 'action_required' || event === 'final' || event === 'pay_link' ? { payUrl } : {}),
        },
        idempotencyKey: `renewal:${charge.id}:${event}:${charge.attempts}`,
      },
      trx,
    );
  }

  /** A signed link for e-mails (`/r/…` pages answer it; see docs/renewal.md for why GET only shows a page). */
  private async link(purpose: 'cancel' | 'pay', subscriptionId: number, periodEnd: Date, expiresAt: Date): Promise<string> {
    const token = await signRenewalLink({ purpose, subscriptionId, periodEnd: periodEnd.getTime(), expiresAt: expiresAt.getTime() }, this.config.tokenSecret);
    return `${this.config.publicUrl}/api/subscribe/autorenew/${purpose}?token=${encodeURIComponent(token)}`;
  }
}

/** The part of a renewal charge's Idempotency-Key that names it: the subscription, the period (its end), the attempt. */
export function renewalAttemptKey(subscriptionId: number, periodEnd: Date, attempt: number): string {
  return `${subscriptionId}-${periodEnd.getTime()}-${attempt}`;
}

/**
 * The reminder's and the receipt's money when credit pays part or all of the renewal (issue 37):
 * the whole amount, the credit and what the card is charged, for the e-mail's price rows and text;
 * nothing without credit (the e-mail is as before).
 */
function creditPrice(amount: Money, credit: Money): Pick<AutoRenewalEmailData, 'price' | 'coveredByCredit'> {
  if (credit.amount <= 0) return {};
  const charged = money(amount.amount - credit.amount, amount.currency);
  return {
    price: { subtotal: moneyLabel(amount), total: moneyLabel(amount), creditApplied: moneyLabel(credit), toPay: moneyLabel(charged) },
    ...(charged.amount <= 0 ? { coveredByCredit: true } : {}),
  };
}
