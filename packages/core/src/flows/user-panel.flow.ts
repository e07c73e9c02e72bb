/**
 * The buyer's panel (GET /api/user/getuserpanel): who they are, their active subscriptions with
 * what they need to log in, and their paid orders still waiting for activation.
 *
 * Who may read it: the buyer themself, and staff (moderator, admin) for anyone. Account
 * credentials are decrypted only for the subscriptions listed, which are the ones holding an
 * active slot on that account; when staff read another user's panel, the reveal is audited
 * (`credentials.reveal`, naming the subscriptions and accounts, never a password). A
 * family-invitation subscription has no shared password: its username is the invitation e-mail.
 */
import { inject, injectable } from 'inversify';
import { ForbiddenError } from '../shared/errors.js';
import { AccountsService } from '../modules/accounts/index.js';
import { type AuditActor, AuditService } from '../modules/audit/index.js';
import { CatalogService, type LanguageId, type PlatformView } from '../modules/catalog/index.js';
import { ROLES, type AuthenticatedUser, IdentityService } from '../modules/identity/index.js';
import { ORDER_STATE, type OrderItemView, OrdersService, type OrderView } from '../modules/orders/index.js';
import { HealthMovesService, SubscriptionsService } from '../modules/subscriptions/index.js';
import type { PanelQuery } from '../wire/panel.js';
import { namedItem, platformsIn } from './order-names.js';
import { RenewalViewsFlow, type RenewalState } from './renewal-views.flow.js';

/** One entry of either list (the spec's "Subscription/order item"); null where it does not apply yet. */
export interface PanelItem {
  orderId: number;
  subscribeId: number | null;
  type: string;
  duration: string;
  platformId: number;
  platformImgFileName: string;
  /** The platform's brand colour, behind its (white) logo. Beyond the spec. */
  platformColorOne: string;
  platformName: string;
  /** The platform's category: 0 video streaming (household guide), 8 AI chat (login codes). */
  platformType: number;
  platformSlotCount: number;
  slotId: number | null;
  haveInvitation: boolean;
  invitationEmail: string | null;
  /** Username: the account's login e-mail, or the invitation e-mail for family-invitation platforms. */
  email: string | null;
  /** The account's password; null for family invitations and waiting items. */
  password: string | null;
  /** When access began: after a move, the start of the subscription the buyer bought (issue 33). */
  startTime: Date | null;
  endTime: Date | null;
  replacedFrom: number | null;
  /** The ID the buyer knows: the first subscription of its replacement chain (issue 33). */
  knownSubscribeId: number | null;
  /**
   * The account's health as the buyer sees it (issue 29): `ok`; `repairing` (the account broke and
   * no healthy account had a free slot yet: the buyer is moved as soon as one frees); `moved` (this
   * subscription is where the shop moved the buyer when their account broke).
   */
  health: 'ok' | 'repairing' | 'moved';
  /** Active subscriptions: how they renew (automatic renewal by card, or a payment link by e-mail). */
  autoRenew: RenewalState | null;
}

export interface UserPanel {
  user: { name: string | null; email: string; photoUrl: string | null };
  subscribers: PanelItem[];
  subscribersNotCompleted: PanelItem[];
  /** The items of refunded orders, newest order first: shown as refunded, never with credentials. */
  subscribersRefunded: PanelItem[];
}

@injectable()
export class UserPanelFlow {
  constructor(
    @inject(IdentityService) private readonly identity: IdentityService,
    @inject(OrdersService) private readonly orders: OrdersService,
    @inject(SubscriptionsService) private readonly subscriptions: SubscriptionsService,
    @inject(AccountsService) private readonly accounts: AccountsService,
    @inject(CatalogService) private readonly catalog: CatalogService,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(HealthMovesService) private readonly moves: HealthMovesService,
    @inject(RenewalViewsFlow) private readonly renewal: RenewalViewsFlow,
  ) {}

  /** `actor` names the viewer in the audit log (with their IP) when staff read another user's credentials. */
  async panel(viewer: AuthenticatedUser, input: PanelQuery, actor: AuditActor): Promise<UserPanel> {
    const { id: userId, languageId } = input;
    const isStaff = viewer.role >= ROLES.moderator;
    if (userId !== viewer.id && !isStaff) throw new ForbiddenError('You can only see your own subscriptions.', 'forbidden');
    // Their own panel: the session's check has just read the buyer's row.
    const profile = userId === viewer.id ? viewer : await this.identity.profile(userId);
    const [orders, active] = await Promise.all([this.orders.paidOrdersOfUser(userId), this.subscriptions.activeOfUser(userId)]);

    const itemById = new Map<number, { order: OrderView; item: OrderItemView }>();
    for (const order of orders) for (const item of order.items) itemById.set(item.id, { order, item });
    const platforms = await platformsIn(
      this.catalog,
      orders.flatMap((order) => order.items.map((item) => item.platformId)),
      languageId as LanguageId,
    );
    const accounts = new Map((await this.accounts.accountsWithCredentials(active.map((s) => s.platformAccountId))).map((entry) => [entry.account.id, entry]));

    const moves = await this.moves.ofSubscriptions(active.map((subscription) => subscription.id));
    const healthOf = (subscriptionId: number, accountHealth: string): PanelItem['health'] => {
      if (moves.some((move) => move.toSubscriptionId === subscriptionId)) return 'moved';
      if (accountHealth === 'broken' || moves.some((move) => move.subscriptionId === subscriptionId && !move.movedAt)) return 'repairing';
      return 'ok';
    };
    // A move keeps the buyer's identity: the ID and start they know, not the new row's.
    const origins = await this.subscriptions.origins(active.map((subscription) => subscription.id));
    const ordersByItem = new Map([...itemById].map(([itemId, entry]) => [itemId, entry.order]));
    const renewals = await this.renewal.states(active, ordersByItem);
    const subscribers: PanelItem[] = [];
    const revealed: Array<{ subscriptionId: number; platformAccountId: number }> = [];
    for (const subscription of active) {
      const source = itemById.get(subscription.orderItemId);
      const { account, credentials } = accounts.get(subscription.platformAccountId) ?? {};
      if (!source || !account || !credentials) continue;
      const base = describe(source.order, source.item, platforms.get(source.item.platformId));
      let email = source.item.invitationEmail;
      let password: string | null = null;
      if (!source.item.haveInvitation) {
        ({ email, password } = credentials());
        revealed.push({ subscriptionId: subscription.id, platformAccountId: account.id });
      }
      subscribers.push({
        ...base,
        subscribeId: subscription.id,
        platformSlotCount: account.slotsCount,
        slotId: subscription.slot,
        email,
        password,
        startTime: origins.get(subscription.id)?.startsAt ?? subscription.startsAt,
        endTime: subscription.endsAt,
        replacedFrom: subscription.replacedFromId,
        knownSubscribeId: origins.get(subscription.id)?.id ?? subscription.id,
        health: healthOf(subscription.id, account.health),
        autoRenew: renewals.get(subscription.id) ?? null,
      });
    }

    // The orders and the subscriptions are read side by side: an activation that commits between
    // the two reads shows its subscription while its order still reads "paid, not completed".
    // The subscription wins, so an item is never listed twice.
    const itemsWithSubscription = new Set(active.map((subscription) => subscription.orderItemId));
    const subscribersNotCompleted = orders
      .filter((order) => order.state === ORDER_STATE.paidNotCompleted)
      .flatMap((order) =>
        order.items
          .filter((item) => item.subscriptionId === null && !itemsWithSubscription.has(item.id))
          .map((item) => describe(order, item, platforms.get(item.platformId))),
      );

    if (userId !== viewer.id && revealed.length > 0) {
      await this.audit.record(actor, {
        action: 'credentials.reveal',
        targetType: 'user',
        targetId: userId,
        details: {
          userId,
          subscriptionIds: revealed.map((entry) => entry.subscriptionId),
          platformAccountIds: [...new Set(revealed.map((entry) => entry.platformAccountId))],
        },
      });
    }
    const subscribersRefunded = orders
      .filter((order) => order.state === ORDER_STATE.refunded)
      .flatMap((order) => order.items.map((item) => describe(order, item, platforms.get(item.platformId))));

    return { user: { name: profile.name, email: profile.email, photoUrl: profile.photoUrl }, subscribers, subscribersNotCompleted, subscribersRefunded };
  }
}

/** The item named in the viewer's language from the catalog (the order's snapshot for what is no longer sold). */
function describe(order: OrderView, snapshot: OrderItemView, platform: PlatformView | undefined): PanelItem {
  const item = namedItem(snapshot, platform);
  return {
    orderId: order.id,
    subscribeId: null,
    type: item.typeName,
    duration: item.durationName,
    platformId: item.platformId,
    platformImgFileName: item.platformLogoBase,
    platformColorOne: item.platformColorOne,
    platformName: item.platformName,
    platformType: item.platformCategory,
    platformSlotCount: platform?.slotsCount ?? 1,
    slotId: null,
    haveInvitation: item.haveInvitation,
    invitationEmail: item.invitationEmail,
    email: null,
    password: null,
    startTime: null,
    endTime: null,
    replacedFrom: null,
    knownSubscribeId: null,
    health: 'ok',
    autoRenew: null,
  };
}
