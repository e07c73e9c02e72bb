/**
 * What the panel and staff see of automatic renewal (issue 28), read only: each subscription's
 * renewal as the panel shows it (card or link, on or off, next charge, amount, card), staff's list
 * of the next DASHBOARD_DAYS days' renewals with the expected revenue and of the failed ones, the dashboard's
 * figures, and whether reminders can be delivered at all (no charge without one).
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { Clock } from '../shared/clock.js';
import { money, type CurrencyCode, type Money } from '../shared/money.js';
import { TOKENS } from '../shared/tokens.js';
import { NotificationsService } from '../modules/notifications/index.js';
import { OrdersService, type OrderView } from '../modules/orders/index.js';
import { SavedCardsService } from '../modules/payments/index.js';
import { OPEN_CHARGE_STATUSES, type RenewalCharge, RenewalsService } from '../modules/renewals/index.js';
import { SubscriptionsService, type SubscriptionView } from '../modules/subscriptions/index.js';
import { DAY_MS, HOLD_MS, keyOf, methodOf } from './renewal-terms.js';
import { DASHBOARD_DAYS } from '../promises/index.js';
import { PAYMENT_METHOD } from '../wire/enums.js';

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
  /** Expected renewal revenue of the next DASHBOARD_DAYS days, per currency (automatic renewals switched on, card saved). */
  expected: Money[];
  upcoming: StaffRenewal[];
  failed: StaffRenewal[];
}

/** The dashboard's renewal figures: the expected revenue, how many renewals failed (DASHBOARD_DAYS) and the latest of them. */
export interface RenewalSummary {
  expected: Money[];
  failedCount: number;
  latestFailed: StaffRenewal[];
  /** Automatic renewal is offered but its reminders reach nobody (no SMTP_URL outside demo mode), so no renewal is charged. */
  remindersUndelivered: boolean;
}

/** What the start says when renewals cannot be charged (RenewalViewsFlow.remindersUndelivered); the dashboard says it in the buyer's words too. */
export const REMINDERS_UNDELIVERED_WARNING =
  'WARNING: Stripe is configured but SMTP_URL is not: renewal reminders will not be delivered, so automatic renewals will not be charged (set SMTP_URL).';

/** How many failed renewals the dashboard lists (the rest are in GET /api/admin/renewals). */
export const DASHBOARD_FAILED_RENEWALS = 5;
/** What counts as a failed renewal for staff: declined and given up, declined and retrying, waiting on the buyer's bank. */
const FAILED_STATUSES: Array<RenewalCharge['status']> = ['failed', 'retrying', 'requires_action'];

@injectable()
export class RenewalViewsFlow {
  constructor(
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(OrdersService) private readonly orders: OrdersService,
    @inject(SavedCardsService) private readonly savedCards: SavedCardsService,
    @inject(SubscriptionsService) private readonly subscriptions: SubscriptionsService,
    @inject(RenewalsService) private readonly renewals: RenewalsService,
    @inject(NotificationsService) private readonly notifications: NotificationsService,
  ) {}

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
        this.savedCards.available &&
        (setting?.card || setting?.enabled || setting?.sourcePaymentId || (methodOf(order) === PAYMENT_METHOD.card && this.savedCards.cardPages));
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

  /** Staff: the next DASHBOARD_DAYS days' renewals (expected revenue per currency) and the renewals that failed in the last DASHBOARD_DAYS days. */
  async forStaff(options: { userId?: number } = {}): Promise<StaffRenewals> {
    const now = this.clock.now();
    const ending = (await this.subscriptions.endingBetween(new Date(now.getTime() - HOLD_MS), new Date(now.getTime() + DASHBOARD_DAYS * DAY_MS))).filter(
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
    // What the charges of the next DASHBOARD_DAYS days bring if they succeed: renewal on with a card saved (an
    // opt-in whose card is not learnt yet cannot be charged), at the amount it would be charged
    // (this period's reminded amount, else the catalog price now); dunning ones are in `failed`.
    const expected = new Map<string, number>();
    for (const entry of upcoming) {
      const state = states.get(entry.subscriptionId)!;
      if (!entry.enabled || !state.cardSaved || !entry.amount || entry.endsAt < now) continue;
      expected.set(entry.amount.currency, (expected.get(entry.amount.currency) ?? 0) + entry.amount.amount);
    }
    const failedCharges = await this.renewals.withStatus(FAILED_STATUSES, new Date(now.getTime() - DASHBOARD_DAYS * DAY_MS), 200);
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

  /** The dashboard's renewal figures: the next DASHBOARD_DAYS days' expected revenue and the failed renewals of the last DASHBOARD_DAYS days (count, latest first). */
  async summary(): Promise<RenewalSummary> {
    const now = this.clock.now();
    const [{ expected, failed }, failedCount] = await Promise.all([
      this.forStaff(),
      this.renewals.countWithStatus(FAILED_STATUSES, new Date(now.getTime() - DASHBOARD_DAYS * DAY_MS)),
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
}
