/**
 * Referral credit (issue 37, item 3): a buyer's link brings a friend; once the friend's first
 * payment is past the refund window and kept, the inviter earns credit and is told.
 *
 *   answer(buyer) ─▶ code (made at first read) · link `/?ref=CODE` · credit earned per currency ·
 *                    invited / rewarded                                     GET /api/user/referral
 *   welcome(order) ─▶ a buyer with a pending referral and no paid order: REFERRAL_WELCOME_PERCENT
 *                    off the new order (discount source `welcome`, the promotions' rule: never
 *                    the whole price); a code applied later replaces it (promo-code.flow.ts).
 *                    One order at a time: it moves from the buyer's other unpaid orders that
 *                    carry it (back to their subtotal), their checkouts closed first, as a code
 *                    moves (promo-code.flow.ts movingDiscount)
 *   recordSignUp(new buyer, code) ─▶ unknown code or none: nothing · the inviter's own mailbox
 *                    (case, +tag, Gmail dots): refused `same_address` at once · else pending
 *                    (every sign-up way: e-mail registration, a social login's first sign-in)
 *   grantDue() ─▶ each pending referral:                                       job referrals-grant
 *     invitee's first paid payment ── none, or the refund window not over ──▶ wait
 *     its ledger standing (payments' paymentStanding, never raw rows):
 *       charged back (a lost dispute too) ─▶ refused `charged_back`
 *       any money back, or refunded ─▶ refused `refunded`
 *       a dispute open or a refund pending ─▶ wait (it may still go either way)
 *     a card the inviter paid with (Stripe's fingerprint) ─▶ refused `same_card`
 *     REFERRAL_MONTHLY_CAP rewards of the inviter this calendar month (UTC) ─▶ refused `monthly_cap`
 *     else: REFERRAL_REWARD_PERCENT of the payment, in its currency, as credit
 *           (`earn:referral:<id>`) + the referral rewarded + the inviter's e-mail (outbox,
 *           `referral:<id>:rewarded`), in one transaction holding the referral's row and the
 *           inviter's lock, so a repeat or a second worker grants nothing twice.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { AppConfig } from '../shared/config.js';
import { addMonths, type Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
import { money, toMajorUnits, type CurrencyCode } from '../shared/money.js';
import { TOKENS } from '../shared/tokens.js';
import { pagePath } from '../pages/index.js';
import { CREDIT_MONTHS } from '../promises/index.js';
import { CreditService } from '../modules/credit/index.js';
import { IdentityService } from '../modules/identity/index.js';
import { EMAIL_KIND, NotificationsService } from '../modules/notifications/index.js';
import { OrdersService, type OrderView } from '../modules/orders/index.js';
import { discountFor, type DiscountMove, DiscountMoveNeedsCheckouts, type PromoTerms } from '../modules/promotions/index.js';
import { LedgerService, PaymentsService, percentOf, type PaidPayment, type PaymentStanding } from '../modules/payments/index.js';
import { monthStartUtc, ReferralsService, sameMailbox, type RefusedReason } from '../modules/referrals/index.js';
import { moneyLabel } from './order-access.js';

/** `GET /api/user/referral`: amounts in major units, like every amount of the API. */
export interface ReferralAnswer {
  code: string;
  link: string;
  credit: Array<{ currencyCode: CurrencyCode; amount: number }>;
  invited: number;
  rewarded: number;
}

/** What one pass of the grant job decided. */
export interface GrantPass {
  rewarded: number;
  refused: number;
  waiting: number;
}

type Decision = { wait: true } | { refuse: RefusedReason } | { reward: true };

/** The welcome discount read as a promotion's terms: a percentage, first order only, nothing else. */
const WELCOME_TERMS: PromoTerms = {
  active: true,
  percentOff: null,
  amounts: {},
  startsAt: null,
  endsAt: null,
  totalLimit: null,
  perBuyerLimit: null,
  firstOrderOnly: true,
  platformIds: null,
  durationIds: null,
  redeemed: 0,
};

/** Pending referrals read at a time by the grant pass. */
const GRANT_PAGE = 500;

@injectable()
export class ReferralFlow {
  private readonly logger: Logger;

  constructor(
    @inject(TOKENS.Config) private readonly config: AppConfig,
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) logger: Logger,
    @inject(ReferralsService) private readonly referrals: ReferralsService,
    @inject(IdentityService) private readonly identity: IdentityService,
    @inject(CreditService) private readonly credit: CreditService,
    @inject(OrdersService) private readonly orders: OrdersService,
    @inject(PaymentsService) private readonly payments: PaymentsService,
    @inject(LedgerService) private readonly ledger: LedgerService,
    @inject(NotificationsService) private readonly notifications: NotificationsService,
  ) {
    this.logger = logger.child({ flow: 'referral' });
  }

  /** The buyer's "Invite friends": their code and link, the credit referrals earned them, how many came and counted. */
  async answer(userId: number): Promise<ReferralAnswer> {
    const code = await this.referrals.codeOf(userId);
    const [balances, counts] = await Promise.all([this.credit.balances(userId), this.referrals.counts(userId)]);
    return {
      code,
      link: `${this.config.publicUrl}${pagePath.home(code)}`,
      credit: balances
        .filter((balance) => balance.earned.amount > 0)
        .map((balance) => ({ currencyCode: balance.currency, amount: toMajorUnits(balance.earned) })),
      ...counts,
    };
  }

  /**
   * A new buyer signed up carrying `code` (the storefront kept `?ref=`): the referral is recorded,
   * pending, or refused at once when the address is the inviter's own mailbox. An unknown code,
   * or none, records nothing and says nothing: a sign-up never fails because of it.
   */
  async recordSignUp(inviteeId: number, code: string | null | undefined): Promise<void> {
    if (!code) return;
    const inviterId = await this.referrals.inviterByCode(code);
    if (inviterId === undefined || inviterId === inviteeId) return;
    const [inviter, invitee] = await Promise.all([this.identity.profile(inviterId), this.identity.profile(inviteeId)]);
    const refusedReason = sameMailbox(inviter.email, invitee.email) ? ('same_address' as const) : undefined;
    const recorded = await this.knex.transaction((trx) => this.referrals.record({ inviterId, inviteeId, refusedReason }, trx));
    if (recorded) this.logger.info({ referralId: recorded.id, inviterId, inviteeId, state: recorded.state, refusedReason }, 'referral recorded at sign-up');
  }

  /**
   * What every sign-up call answers goes through here: when the call made the account, the code
   * it carried is recorded. A referral never fails a sign-up: an error here is logged, not answered.
   */
  async afterSignIn<T extends { id: number; signedUp?: boolean }>(result: T, code: string | undefined): Promise<T> {
    if (result.signedUp && code) {
      try {
        await this.recordSignUp(result.id, code);
      } catch (error) {
        this.logger.error({ err: error, userId: result.id }, 'the referral of a sign-up could not be recorded');
      }
    }
    return result;
  }

  /**
   * The welcome discount, run inside the transaction that makes (or reuses) a buyer's order
   * (promo-code.flow.ts hands it to OrdersService.createOrder when no code came with the order):
   * a buyer whose referral is pending and who has no paid order gets REFERRAL_WELCOME_PERCENT off.
   * An order that already has a discount (a reused one) is left as it is. Answers whether it
   * changed the order.
   *
   * "First order" is one order: the discount is on at most one unpaid order of the buyer, the
   * newest they made (a currency switch on the payment page keeps it). It moves here from the
   * buyer's other unpaid orders that carry it, as a code moves (promo-code.flow.ts movingDiscount):
   * only from orders whose checkouts were closed (`move.settled`, locked here in id order), else
   * `DiscountMoveNeedsCheckouts` for the caller to close them and run again; those orders go back
   * to their subtotal in this transaction. With `stay` (they could not be closed), the discount
   * stays where it is and this order gets none.
   */
  async welcome(order: OrderView, trx: Knex.Transaction, move: DiscountMove, stay = false): Promise<boolean> {
    if (order.discountSource !== null || order.discount.amount > 0) return false;
    const referral = await this.referrals.ofInvitee(order.userId, trx);
    if (referral?.state !== 'pending') return false;
    for (const orderId of [...move.settled].sort((a, b) => a - b)) await this.orders.lockForUpdate(orderId, trx);
    const terms: PromoTerms = { ...WELCOME_TERMS, percentOff: this.config.referrals.welcomePercent };
    const hasPaid = await this.orders.hasPaidOrder(order.userId, order.id, trx);
    const decision = discountFor(terms, { subtotal: order.subtotal, items: [], buyerRedemptions: 0, buyerHasPaidOrder: hasPaid, now: this.clock.now() });
    if (!('discount' in decision)) return false;
    const carrying = await move.unpaidAmong(await this.orders.carryingDiscount(order.userId, 'welcome', order.id, trx));
    const unsettled = [...carrying].filter((orderId) => !move.settled.has(orderId));
    if (unsettled.length > 0) {
      if (stay) return false;
      throw new DiscountMoveNeedsCheckouts(unsettled.sort((a, b) => a - b));
    }
    // Back to the catalog price (the orders' discount check holds: no discount, no source).
    for (const orderId of carrying) await this.orders.setDiscount(orderId, null, trx);
    await this.orders.setDiscount(order.id, { amount: decision.discount, source: 'welcome' }, trx);
    return true;
  }

  /**
   * The `referrals-grant` job: every pending referral decided, or left waiting for its payment.
   * All of them, a page at a time (`after` the last id), so referrals whose invitee never pays
   * cannot crowd out newer ones.
   */
  async grantDue(pageSize = GRANT_PAGE): Promise<GrantPass> {
    const pass: GrantPass = { rewarded: 0, refused: 0, waiting: 0 };
    let after = 0;
    for (;;) {
      const ids = await this.referrals.pendingIds(pageSize, after);
      for (const id of ids) pass[await this.decide(id)] += 1;
      if (ids.length < pageSize) break;
      after = ids[ids.length - 1];
    }
    if (pass.rewarded + pass.refused > 0) this.logger.info(pass, 'referral rewards decided');
    return pass;
  }

  private async decide(id: number): Promise<keyof GrantPass> {
    return this.knex.transaction(async (trx) => {
      // Held to the end: a second worker waits here, then finds it decided.
      const referral = await this.referrals.lockPending(id, trx);
      if (!referral) return 'waiting';
      const payment = await this.firstPayment(referral.invitee_user_id);
      if (!payment || !this.pastRefundWindow(payment)) return 'waiting';
      // The inviter's decisions go one at a time: the monthly cap counts what the others decided.
      await this.referrals.lockInviter(referral.inviter_user_id, trx);
      const standing = (await this.ledger.standingOfOrder(payment.orderId, trx)).payments.find((entry) => entry.payment.id === payment.id)?.standing;
      if (!standing) return 'waiting';
      const decision = await this.judge(referral.inviter_user_id, referral.invitee_user_id, payment, standing, trx);
      if ('wait' in decision) return 'waiting';
      if ('refuse' in decision) {
        await this.referrals.markRefused(id, decision.refuse, trx, payment.id);
        this.logger.info({ referralId: id, reason: decision.refuse }, 'referral reward refused');
        return 'refused';
      }
      // A share of the money the invitee paid: the part their own credit paid is not money in.
      const reward = money(percentOf(payment.charged.amount, this.config.referrals.rewardPercent), payment.charged.currency);
      await this.credit.earn(
        referral.inviter_user_id,
        reward,
        { key: `earn:referral:${id}`, referralId: id, paymentId: payment.id, orderId: payment.orderId },
        trx,
      );
      await this.referrals.markRewarded(id, { paymentId: payment.id, amount: reward }, trx);
      const inviter = await this.identity.profile(referral.inviter_user_id);
      await this.notifications.enqueue(
        {
          kind: EMAIL_KIND.referralReward,
          to: inviter.email,
          languageId: inviter.languageId,
          userId: inviter.id,
          data: { amount: moneyLabel(reward), expiresAt: addMonths(this.clock.now(), CREDIT_MONTHS) },
          idempotencyKey: `referral:${id}:rewarded`,
        },
        trx,
      );
      return 'rewarded';
    });
  }

  /** The guards, in the order staff read them: the money first, then who paid, then the cap. */
  private async judge(inviterId: number, inviteeId: number, payment: PaidPayment, standing: PaymentStanding, trx: Knex.Transaction): Promise<Decision> {
    if (standing.access === 'charged_back' || standing.chargedBack > 0) return { refuse: 'charged_back' };
    if (standing.access === 'refunded' || standing.refunded > 0) return { refuse: 'refunded' };
    if (standing.openDisputes > 0 || standing.pendingRefund > 0) return { wait: true };
    if (standing.access !== 'active') return { wait: true };
    // An address changed since sign-up is checked again: the reward goes to a mailbox, not a row.
    const [inviter, invitee] = await Promise.all([this.identity.profile(inviterId), this.identity.profile(inviteeId)]);
    if (sameMailbox(inviter.email, invitee.email)) return { refuse: 'same_address' };
    if (payment.cardFingerprint) {
      const inviterOrders = (await this.orders.paidOrdersOfUser(inviterId)).map((order) => order.id);
      if ((await this.payments.cardFingerprintsAmong(inviterOrders)).includes(payment.cardFingerprint)) return { refuse: 'same_card' };
    }
    const thisMonth = await this.referrals.rewardedSince(inviterId, monthStartUtc(this.clock.now()), trx);
    if (thisMonth >= this.config.referrals.monthlyCap) return { refuse: 'monthly_cap' };
    return { reward: true };
  }

  /** The invitee's first paid payment (refunded since or not): the one the reward is about. */
  private async firstPayment(inviteeId: number): Promise<PaidPayment | undefined> {
    const orderIds = (await this.orders.paidOrdersOfUser(inviteeId)).map((order) => order.id);
    return this.payments.firstPaidAmong(orderIds);
  }

  private pastRefundWindow(payment: PaidPayment): boolean {
    return payment.paidAt.getTime() + this.config.refunds.windowHours * 3_600_000 <= this.clock.now().getTime();
  }
}
