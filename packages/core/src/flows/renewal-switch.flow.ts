/**
 * The buyer's switch of automatic renewal (issue 28): on or off from the panel, a card saved on a
 * setup-mode Stripe page for a subscription paid without the opt-in, and the return from that page.
 * Every change is one transaction with its audit entry (`subscription.autorenew`): off cancels the
 * period's charge not yet made and lets the held slot go; on again after the reminder restores it.
 * The e-mail's cancel link (renewal-links.flow.ts) and the charge pass's learning of a saved card
 * (renewal.flow.ts) turn it through `change` too.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { Clock } from '../shared/clock.js';
import { fail } from '../shared/errors.js';
import { TOKENS } from '../shared/tokens.js';
import { type AuditActor, AuditService } from '../modules/audit/index.js';
import type { AuthenticatedUser } from '../modules/identity/index.js';
import { OrdersService } from '../modules/orders/index.js';
import { SavedCardsService } from '../modules/payments/index.js';
import { OPEN_CHARGE_STATUSES, type AutoRenewal, RenewalsService } from '../modules/renewals/index.js';
import { SubscriptionsService, type SubscriptionView } from '../modules/subscriptions/index.js';
import type { AutoRenewInput, CardSavedInput, SaveCardInput } from '../wire/renewals.js';
import { HOLD_MS, keyOf } from './renewal-terms.js';
import { RenewalViewsFlow, type RenewalState } from './renewal-views.flow.js';
import { pagePath } from '../pages/index.js';

@injectable()
export class RenewalSwitchFlow {
  constructor(
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(OrdersService) private readonly orders: OrdersService,
    @inject(SavedCardsService) private readonly savedCards: SavedCardsService,
    @inject(SubscriptionsService) private readonly subscriptions: SubscriptionsService,
    @inject(RenewalsService) private readonly renewals: RenewalsService,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(RenewalViewsFlow) private readonly views: RenewalViewsFlow,
  ) {}

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
      if ((await this.views.states([subscription])).get(subscription.id)!.mode === 'link') throw fail('autorenew_unavailable');
      // Back from the save-a-card page: the card saved there is what turning it on needs.
      await this.learnSavedCard(await this.renewals.settingOf(keyOf(subscription)));
    }
    await this.change(subscription, enabled, actor, 'panel');
    return (await this.views.states([subscription])).get(subscription.id)!;
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
    const state = (await this.views.states([subscription], order && new Map([[subscription.orderItemId, order]]))).get(subscription.id)!;
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
      { success: pagePath.user(holder.id, subscription.id), cancel: pagePath.user(holder.id) },
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
    return (await this.views.states([subscription])).get(subscription.id)!;
  }

  /** The card of a finished save-a-card page, remembered on the setting; false when there is none (yet). */
  async learnSavedCard(setting: AutoRenewal | undefined): Promise<boolean> {
    if (!setting || setting.card || !setting.cardUpdateSessionId || !this.savedCards.available) return false;
    const card = await this.savedCards.cardOfUpdate(setting.cardUpdateSessionId);
    if (!card) return false;
    await this.renewals.rememberCard(setting, card);
    return true;
  }

  /** Turns one subscription's automatic renewal on or off, in one transaction with its audit entry and the charge it cancels. */
  async change(subscription: SubscriptionView, enabled: boolean, actor: AuditActor, via: 'panel' | 'email_link' | 'card_saved'): Promise<void> {
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
}
