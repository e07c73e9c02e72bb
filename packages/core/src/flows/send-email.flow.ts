/**
 * Staff send one of the e-mail kinds to a user (POST /api/email/sendemail { userId, emailType },
 * CLI `send-email`): in the user's language, to their current address, through the outbox.
 * Kinds about an order or a subscription take their data from the user's own records:
 *
 *   0 welcome, 4 trustPilotInvite ........ the user (their name)
 *   1, 3, 6, 7 ............................ the newest active subscription, its order item, account
 *   2 purchasedNotActiveSubscribe ......... the newest paid order waiting for activation (state 6)
 *   5 verificationCode .................... a fresh code from identity, under sendverificationcode's rules
 *                                           (staff never see it: the outbox masks codes; never a reset code)
 *   8 subscriptionEnded ................... the newest ended subscription
 *   9 subscriptionReplaced ................ the newest subscription that replaced another
 *  11 accountBroken ....................... never (staff alert addresses only: 409 staff_only_email)
 *  13 platformIncident .................... never (staff alert addresses only: 409 staff_only_email)
 *  14 renewalProviderError ................ never (staff alert addresses only: 409 staff_only_email)
 *  15 referralReward ...................... never (the referral grant writes it about one reward: 409 kind_not_sendable)
 *
 * A double click sends once: the same user and kind within a minute answers the first e-mail.
 * The idempotency key names the minute (`staff-email:<user>:<kind>:<minute>`); the previous
 * minute's e-mail counts while it is younger than a minute, and a lock per user serialises the
 * check with the write. What is sent is audited (`email.send`: who, to whom, which kind, the
 * outbox id), never a body or a code.
 */
import { advisoryXactLock } from '../shared/database.js';
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { Clock } from '../shared/clock.js';
import { fail } from '../shared/errors.js';
import type { Logger } from '../shared/logger.js';
import { money } from '../shared/money.js';
import { TOKENS } from '../shared/tokens.js';
import { moneyLabel } from './order-access.js';
import { AccountsService } from '../modules/accounts/index.js';
import { type AuditActor, AuditService } from '../modules/audit/index.js';
import { CatalogService } from '../modules/catalog/index.js';
import { IdentityService, type RequestContext, type UserProfile, VerificationService } from '../modules/identity/index.js';
import {
  EMAIL_KIND,
  EMAIL_KIND_NAMES,
  type EmailKind,
  type EmailDataByKind,
  type EmailKindName,
  type EmailLanguageId,
  type EmailMessage,
  NotificationsService,
} from '../modules/notifications/index.js';
import { ORDER_STATE, type OrderItemView, OrdersService, type OrderView } from '../modules/orders/index.js';
import { RefundsService } from '../modules/payments/index.js';
import { SubscriptionsService, type SubscriptionStatus, type SubscriptionView } from '../modules/subscriptions/index.js';
import type { SendEmailInput } from '../wire/email.js';

/** How long an identical request (same user, same kind) answers the first e-mail instead of sending another. */
export const SEND_EMAIL_REPEAT_WINDOW_MS = 60_000;
/** The first half of the advisory lock that serialises staff e-mails to one user ("SE"); the second is the user id. */
const SEND_LOCK_CLASS = 0x5345;
const DAY_MS = 24 * 3600_000;

export interface SentEmail {
  /** The outbox e-mail: the one written now, or the first one when this was a repeat. */
  id: number;
  kind: EmailKind;
  kindName: EmailKindName;
  to: string;
  userId: number;
  languageId: EmailLanguageId;
  /** True when an identical request within the minute had already written it: nothing new was sent. */
  repeated: boolean;
}

/** The kinds staff may send to a user: not a code (identity issues those), not a staff alert, not a renewal step. */
type SendableKind = Exclude<
  EmailKind,
  | typeof EMAIL_KIND.verificationCode
  | typeof EMAIL_KIND.accountBroken
  | typeof EMAIL_KIND.platformIncident
  | typeof EMAIL_KIND.renewalProviderError
  | typeof EMAIL_KIND.autoRenewal
  | typeof EMAIL_KIND.referralReward
>;

/** A subscription with the order item it serves and the slot count of its account. */
interface SubscriptionSource {
  subscription: SubscriptionView;
  order: OrderView;
  item: OrderItemView;
  slotsCount: number;
}

@injectable()
export class SendEmailFlow {
  private readonly logger: Logger;

  constructor(
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) logger: Logger,
    @inject(IdentityService) private readonly identity: IdentityService,
    @inject(VerificationService) private readonly verification: VerificationService,
    @inject(OrdersService) private readonly orders: OrdersService,
    @inject(SubscriptionsService) private readonly subscriptions: SubscriptionsService,
    @inject(AccountsService) private readonly accounts: AccountsService,
    @inject(CatalogService) private readonly catalog: CatalogService,
    @inject(NotificationsService) private readonly notifications: NotificationsService,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(RefundsService) private readonly refunds: RefundsService,
  ) {
    this.logger = logger.child({ flow: 'send-email' });
  }

  /**
   * 400 bad input (unknown kind), 404 `user_not_found`, 409 when the kind's data is missing
   * (`no_active_subscription`, `no_waiting_order`, `no_ended_subscription`, `no_replacement`,
   * `already_verified`), 429 when a code was sent less than a minute ago (kind 5).
   * `context` is the caller's (IP) for the verification code's limits.
   */
  async send(actor: AuditActor, { userId, emailType: kind }: SendEmailInput, context: RequestContext): Promise<SentEmail> {
    const user = await this.identity.profile(userId);
    const now = this.clock.now();
    const minute = Math.floor(now.getTime() / SEND_EMAIL_REPEAT_WINDOW_MS);
    const keyOf = (window: number) => `staff-email:${userId}:${kind}:${window}`;

    const sent = await this.knex.transaction(async (trx) => {
      await advisoryXactLock(trx, SEND_LOCK_CLASS, userId);
      for (const key of [keyOf(minute), keyOf(minute - 1)]) {
        const earlier = await this.notifications.findByIdempotencyKey(key, trx);
        if (earlier && now.getTime() - earlier.createdAt.getTime() < SEND_EMAIL_REPEAT_WINDOW_MS) {
          return { id: earlier.id, to: earlier.to, languageId: earlier.languageId, created: false };
        }
      }
      const idempotencyKey = keyOf(minute);
      const written =
        kind === EMAIL_KIND.verificationCode
          ? { ...(await this.verification.sendCodeTo(userId, context, { idempotencyKey, trx })), languageId: user.languageId }
          : await this.write(await this.messageFor(kind, user, now), idempotencyKey, trx);
      if (written.created) {
        await this.audit.record(
          actor,
          {
            action: 'email.send',
            targetType: 'user',
            targetId: userId,
            details: { userId, kind, kindName: EMAIL_KIND_NAMES[kind], outboxId: written.id },
          },
          trx,
        );
      }
      return written;
    });

    this.logger.info(
      { outboxId: sent.id, userId, kind, repeated: !sent.created },
      sent.created ? 'staff e-mail written' : 'staff e-mail repeated within a minute: nothing new',
    );
    return { id: sent.id, kind, kindName: EMAIL_KIND_NAMES[kind], to: sent.to, userId, languageId: sent.languageId, repeated: !sent.created };
  }

  private async write(message: EmailMessage, idempotencyKey: string, trx: Knex.Transaction) {
    const result = await this.notifications.enqueue({ ...message, idempotencyKey }, trx);
    return { ...result, to: message.to, languageId: message.languageId };
  }

  /** The e-mail of this kind for this user, with the data taken from their records (409 when there is none). */
  private async messageFor(kind: EmailKind, user: UserProfile, now: Date): Promise<EmailMessage> {
    if (kind === EMAIL_KIND.verificationCode) throw new Error('verification codes are issued by the identity module');
    if (kind === EMAIL_KIND.accountBroken || kind === EMAIL_KIND.platformIncident || kind === EMAIL_KIND.renewalProviderError) throw fail('staff_only_email');
    // Each one is about one charge of one period, written by the renewal pass with its links.
    if (kind === EMAIL_KIND.autoRenewal) throw fail('kind_not_sendable');
    // Each one is about one reward, written by the referral grant with its amount.
    if (kind === EMAIL_KIND.referralReward) throw fail('kind_not_sendable');
    const data = await this.dataSources[kind](user, now);
    return { to: user.email, languageId: user.languageId, userId: user.id, kind, data } as EmailMessage;
  }

  /** For each kind staff may send, its data from the user's own records (the table in this file's comment). */
  private readonly dataSources: { [K in SendableKind]: (user: UserProfile, now: Date) => Promise<EmailDataByKind[K]> } = {
    [EMAIL_KIND.welcome]: async (user) => ({ name: user.name }),
    [EMAIL_KIND.trustPilotInvite]: async (user) => ({ name: user.name }),

    [EMAIL_KIND.purchasedNotActiveSubscribe]: async (user) => {
      const order = (await this.orders.paidOrdersOfUser(user.id)).find((candidate) => candidate.state === ORDER_STATE.paidNotCompleted);
      if (!order) throw fail('no_waiting_order');
      const pending = order.items.filter((item) => item.subscriptionId === null);
      const item = pending[0] ?? order.items[0];
      return { orderId: order.id, platformName: await this.platformName(item, user), needsInvitation: pending.some((entry) => entry.haveInvitation) };
    },

    [EMAIL_KIND.purchasedActiveSubscribe]: async (user, now) => {
      const { subscription, order, platformName, profileNumber } = await this.activeSubscription(user, now);
      return { orderId: order.id, platformName, endTime: subscription.endsAt, profileNumber };
    },

    [EMAIL_KIND.subscribeActive]: async (user, now) => {
      const { subscription, order, platformName, profileNumber } = await this.activeSubscription(user, now);
      return {
        orderId: order.id,
        subscriptionId: subscription.id,
        platformName,
        startTime: subscription.startsAt,
        endTime: subscription.endsAt,
        profileNumber,
      };
    },

    [EMAIL_KIND.appleTVActive]: async (user, now) => {
      const { subscription, order, item, platformName } = await this.activeSubscription(user, now);
      return { orderId: order.id, platformName, invitationEmail: item.invitationEmail, endTime: subscription.endsAt };
    },

    [EMAIL_KIND.expiryReminder]: async (user, now) => {
      const { subscription, item, platformName } = await this.activeSubscription(user, now);
      const daysLeft = Math.max(1, Math.ceil((subscription.endsAt.getTime() - now.getTime()) / DAY_MS));
      return { subscriptionId: subscription.id, platformId: item.platformId, platformName, endTime: subscription.endsAt, daysLeft };
    },

    [EMAIL_KIND.subscriptionEnded]: async (user) => {
      const source = await this.newestSubscription(user.id, ['ended']);
      if (!source) throw fail('no_ended_subscription');
      const { subscription, item } = source;
      return { subscriptionId: subscription.id, platformId: item.platformId, platformName: await this.platformName(item, user), endTime: subscription.endsAt };
    },

    [EMAIL_KIND.subscriptionReplaced]: async (user) => {
      const source = await this.newestSubscription(user.id, [], (subscription) => subscription.replacedFromId !== null);
      if (!source) throw fail('no_replacement');
      const { subscription, item } = source;
      // The ID the buyer knows (the first of the replacement chain), as the move's own e-mail says.
      const known = (await this.subscriptions.origins([subscription.id])).get(subscription.id)?.id ?? subscription.id;
      return { subscriptionId: known, platformName: await this.platformName(item, user), endTime: subscription.endsAt, profileNumber: profileOf(source) };
    },

    [EMAIL_KIND.refunded]: async (user) => {
      const order = (await this.orders.paidOrdersOfUser(user.id)).find((candidate) => candidate.state === ORDER_STATE.refunded);
      if (!order) throw fail('no_refunded_order');
      // What went back, as the money ledger counts it (refunds and chargebacks).
      const back = await this.refunds.moneyBackOf(order.id);
      const item = order.items[0];
      return {
        orderId: order.id,
        platformName: item ? await this.platformName(item, user) : '',
        amount: moneyLabel(back?.amount ?? money(0, order.total.currency)),
        chargeback: back?.chargeback ?? false,
      };
    },
  };

  /** The user's newest active subscription (409 `no_active_subscription`), with its platform's name and the profile to show. */
  private async activeSubscription(user: UserProfile, now: Date) {
    const source = await this.newestSubscription(user.id, ['active'], (subscription) => subscription.endsAt > now);
    if (!source) throw fail('no_active_subscription');
    return { ...source, platformName: await this.platformName(source.item, user), profileNumber: profileOf(source) };
  }

  /** The user's newest subscription in these statuses (all when none) that passes `accept`, with its order item and account. */
  private async newestSubscription(
    userId: number,
    statuses: SubscriptionStatus[],
    accept: (subscription: SubscriptionView) => boolean = () => true,
  ): Promise<SubscriptionSource | undefined> {
    const subscription = (await this.subscriptions.ofUser(userId, statuses)).find(accept);
    if (!subscription) return undefined;
    const orders = await this.orders.paidOrdersOfUser(userId);
    for (const order of orders) {
      const item = order.items.find((candidate) => candidate.id === subscription.orderItemId);
      if (!item) continue;
      const [account] = await this.accounts.accountsByIds([subscription.platformAccountId]);
      return { subscription, order, item, slotsCount: account?.slotsCount ?? 1 };
    }
    return undefined;
  }

  /** The platform's name in the user's language; the order's snapshot when the platform is no longer sold. */
  private async platformName(item: OrderItemView, user: UserProfile): Promise<string> {
    const platforms = await this.catalog.listPlatforms(user.languageId);
    return platforms.find((platform) => platform.id === item.platformId)?.name ?? item.platformName;
  }
}

/** The profile number shown to the buyer: only when the account has more than one slot (0 is the whole account). */
function profileOf(source: SubscriptionSource): number | null {
  return source.slotsCount > 1 ? source.subscription.slot : null;
}
