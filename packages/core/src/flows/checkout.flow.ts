/**
 * Paying an order: the money path's first half, from the buyer's click to the provider's page,
 * and what the shop does while it waits for the provider.
 *
 *   POST /api/payment/createcheckoutsession* ──▶ start(buyer, { orderId }, method):
 *     orders.payableOrder (the buyer's, state 0, 1 or 3) ─▶ method offered? ─▶ the order's
 *     checkout claim (checkout-claims.ts: checkouts of one order take turns; no transaction is
 *     open while a provider answers):
 *         payments.settleEarlierCheckouts: an open checkout of the same method is reused (its URL,
 *             nothing new); other open Stripe sessions are expired; one found paid is applied and
 *             the order is not payable any more (409)
 *         one transaction: order state 1 + earlier checkouts' credit released + payments.open
 *             (pending payment, reference `<order>-<payment>`) + credit spent first (unless
 *             `useCredit: false`; payment-credit.ts); all of the total covered: paid here
 *             (provider `credit`, the same path as a provider's paid report) and the answer is
 *             the shop's payment-result page
 *         ─▶ payments.startProviderCheckout for the rest (provider page URL, recorded; refused:
 *             payment abandoned, its credit released)
 *     ─▶ the claim given up
 *   the provider's notification ──▶ payment-notification.flow.ts
 *   return pages ──▶ checkPayssion / refresh: ask the provider (never paid by the browser's word)
 *   worker `payments-expire-unpaid` (15 min) ──▶ expireUnpaid: orders unpaid for 24 hours, after
 *       one last question to the provider, become state 4 and their pending payments expired
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { Clock } from '../shared/clock.js';
import { fail } from '../shared/errors.js';
import { TOKENS } from '../shared/tokens.js';
import type { AuthenticatedUser, RequestContext } from '../modules/identity/index.js';
import { ORDER_STATE, PAID_STATES, PAYABLE_STATES, OrdersService, type OrderView } from '../modules/orders/index.js';
import {
  CheckoutClaimLost,
  type CheckoutClaim,
  type CheckoutOrder,
  type PaymentMethodId,
  PaymentsService,
  type PaymentView,
  SavedCardsService,
} from '../modules/payments/index.js';
import { PromotionsService } from '../modules/promotions/index.js';
import { RenewalsService } from '../modules/renewals/index.js';
import { UNPAID_ORDER_HOURS } from '../promises/index.js';
import type { CheckoutInput, CheckPayssionInput, OrderIdInput } from '../wire/payments.js';
import { pagePath } from '../pages/index.js';
import type { AppConfig } from '../shared/config.js';
import { PaymentCredit } from './payment-credit.js';
import { PaymentNotificationFlow } from './payment-notification.flow.js';

/** A checkout whose claim was taken over (it stalled past the claim's lifetime) starts again this many times in all. */
const CLAIM_ATTEMPTS = 3;

/** Orders still unpaid after this are expired (Stripe's checkout sessions live 24 hours). */
const UNPAID_LIFETIME_MS = UNPAID_ORDER_HOURS * 3600_000;

@injectable()
export class CheckoutFlow {
  constructor(
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(OrdersService) private readonly orders: OrdersService,
    @inject(PaymentsService) private readonly payments: PaymentsService,
    @inject(PaymentNotificationFlow) private readonly notifications: PaymentNotificationFlow,
    @inject(SavedCardsService) private readonly savedCards: SavedCardsService,
    @inject(RenewalsService) private readonly renewals: RenewalsService,
    @inject(PromotionsService) private readonly promotions: PromotionsService,
    @inject(PaymentCredit) private readonly paymentCredit: PaymentCredit,
    @inject(TOKENS.Config) private readonly config: AppConfig,
  ) {}

  /** createcheckoutsession (1), createcheckoutsessioncoinpal (2), createcheckoutsessionpayssion (its pmId, 3–6): answers the provider page URL. */
  async start(
    buyer: AuthenticatedUser,
    { orderId, useCredit = true }: CheckoutInput,
    chosen: PaymentMethodId,
    context: RequestContext,
    { renewAutomatically = false }: { renewAutomatically?: boolean } = {},
  ): Promise<{ url: string }> {
    const order = await this.orders.payableOrder(buyer, orderId);
    if (!this.payments.availableMethods(order.paymentMethods).includes(chosen)) {
      throw fail('method_unavailable', undefined, { errors: { pmId: 'not available' } });
    }
    if (renewAutomatically && (chosen !== 1 || !this.savedCards.available)) {
      throw fail('autorenew_unavailable');
    }
    const description = order.items.map((item) => `${item.platformName} ${item.typeName} ${item.durationName}`).join(', ');
    const checkoutOrder = { id: order.id, description, languageId: order.languageId };
    for (let attempt = 1; ; attempt += 1) {
      // One order, one open checkout (issue 34): checkouts of one order take turns under its claim,
      // so two tabs, a back button or 8 parallel pay-link POSTs find the one before them. The claim
      // is a committed row, not a lock: no pooled connection waits on a provider's answer.
      const claim = await this.payments.claimCheckout(order.id);
      let started: { url: string } | { completed: PaymentView };
      try {
        // "Renew automatically" needs a card payment to save the card: the credit is kept for the renewals (credit first there).
        const spendCredit = useCredit && !renewAutomatically;
        started = await this.startClaimed(claim, order, chosen, renewAutomatically, spendCredit, buyer, checkoutOrder, context);
      } catch (error) {
        // Taken over after a stall past the claim's lifetime: no session was made on it (its payment, if any, abandoned); start again.
        if (error instanceof CheckoutClaimLost && attempt < CLAIM_ATTEMPTS) continue;
        throw error instanceof CheckoutClaimLost ? fail('provider_unavailable', undefined, { cause: error }) : error;
      } finally {
        await claim.release();
      }
      if ('completed' in started) {
        // Paid in an earlier tab: apply what the provider says (the order becomes paid), open nothing.
        await this.notifications.askProvider(started.completed).catch(() => undefined);
        throw fail('order_not_payable');
      }
      return started;
    }
  }

  /** The checkout itself, holding the order's claim: each database step a short statement or transaction of its own. */
  private async startClaimed(
    claim: CheckoutClaim,
    order: OrderView,
    chosen: PaymentMethodId,
    renewAutomatically: boolean,
    useCredit: boolean,
    buyer: AuthenticatedUser,
    checkoutOrder: CheckoutOrder,
    context: RequestContext,
  ): Promise<{ url: string } | { completed: PaymentView }> {
    // The order as it is now, under its claim: a promotion code applied since changed its total.
    const total = (await this.orders.find(order.id))?.total ?? order.total;
    const credit = await this.paymentCredit.wouldSpend(order.id, buyer.id, total, chosen, useCredit);
    const earlier = await this.payments.settleEarlierCheckouts(claim, { method: chosen, saveCard: renewAutomatically, amount: total, credit });
    if (earlier.completed) return { completed: earlier.completed };
    if (earlier.reuse) return { url: earlier.reuse.url };
    const opened = await this.knex.transaction(async (trx) => {
      // The order's row lock first: the payment's insert takes a share lock on it (its foreign
      // key), and two transactions that each held that and then asked for the row lock deadlocked
      // (a double click answered 500). A notification that paid the order meanwhile is seen here.
      const current = await this.orders.lockForUpdate(order.id, trx);
      if (!current || !PAYABLE_STATES.includes(current.state)) throw fail('order_not_payable');
      await this.orders.moveTo(order.id, ORDER_STATE.awaitingPayment, trx, { paymentMethod: chosen });
      // The credit of earlier checkouts that will never be paid, or that this one leaves, comes back first, to be spent here.
      await this.paymentCredit.release(order.id, trx, { abandoning: true });
      let payment = await this.payments.open({ orderId: order.id, method: chosen, amount: current.total, saveCard: renewAutomatically }, trx);
      // Credit first (issue 37); all of the total covered: paid now, without a provider, like any paid order.
      if (useCredit) payment = await this.paymentCredit.spend(payment, buyer.id, trx);
      if (payment.provider === 'credit') {
        await this.notifications.applyIn(this.paymentCredit.coveredReport(payment), trx);
        return payment;
      }
      // "Renew automatically": every unit of the order renews with the card this payment saves (flows/renewal.flow.ts).
      if (renewAutomatically) {
        const units = order.items.flatMap((item) => Array.from({ length: item.quantity }, (_, unit) => ({ orderItemId: item.id, unit })));
        await this.renewals.optIn(units, buyer.id, payment.id, trx);
      }
      return payment;
    });
    if (opened.provider === 'credit') return { url: `${this.config.publicUrl}${pagePath.paymentResult(order.id, true)}` };
    // Committed before the provider is asked: a notification of the session finds its payment.
    try {
      return await this.payments.startProviderCheckout(opened, checkoutOrder, buyer, context, claim);
    } catch (error) {
      // Abandoned (the provider refused, or the claim was lost): its credit comes back.
      await this.knex.transaction((trx) => this.paymentCredit.release(order.id, trx));
      throw error;
    }
  }

  /** checksessionpayssion: asks Payssion about the buyer's payment; true when the order is paid. */
  async checkPayssion(buyer: AuthenticatedUser, checked: CheckPayssionInput): Promise<boolean> {
    // Payssion's return URL carries its order_id, our payment reference ("42-7"): the order is its first part.
    const orderId = Number(checked.orderId.split('-')[0]);
    const transactionId = checked.transactionId;
    const order = await this.orders.getOrder(buyer, orderId);
    const payment = (await this.payments.ofOrder(order.id)).find(
      (candidate) => candidate.provider === 'payssion' && (!transactionId || candidate.providerReference === transactionId),
    );
    if (payment && payment.status === 'pending') await this.notifications.askProvider(payment);
    return PAID_STATES.includes((await this.orders.getOrder(buyer, orderId)).state);
  }

  /** /api/payment/process: brings the order up to date with its provider (never marks paid by itself). */
  async refresh(buyer: AuthenticatedUser, { orderId }: OrderIdInput): Promise<OrderView> {
    const order = await this.orders.getOrder(buyer, orderId);
    for (const payment of await this.payments.ofOrder(order.id)) {
      if (payment.status === 'pending' && payment.providerReference) await this.notifications.askProvider(payment).catch(() => undefined);
    }
    return this.orders.getOrder(buyer, orderId);
  }

  /** The `payments-expire-unpaid` job: orders unpaid for 24 hours expire (state 4), after one last question to the provider. */
  async expireUnpaid(): Promise<{ expired: number }> {
    const cutoff = new Date(this.clock.now().getTime() - UNPAID_LIFETIME_MS);
    let expired = 0;
    for (const orderId of await this.orders.unpaidCreatedBefore(cutoff)) {
      for (const payment of await this.payments.ofOrder(orderId)) {
        if (payment.status === 'pending' && payment.providerReference) await this.notifications.askProvider(payment).catch(() => undefined);
      }
      const moved = await this.knex.transaction(async (trx) => {
        const done = await this.orders.moveTo(orderId, ORDER_STATE.expiredUnpaid, trx);
        if (done) await this.payments.expirePending(orderId, trx);
        // Its promotion code, if any, can be used again (issue 37), and the credit its checkouts took comes back.
        if (done) await this.promotions.release(orderId, trx);
        if (done) await this.paymentCredit.release(orderId, trx);
        return done;
      });
      if (moved) expired += 1;
    }
    return { expired };
  }
}
