/**
 * The panel's verification fetch (GET /api/email/getnvlink and /api/email/getchgptcode): the
 * newest household link (video platforms, type 0) or login code (AI chat, type 8) that reached
 * the mailbox of the account behind a subscription.
 *
 * Who may read it: the buyer who holds an active slot through that subscription, and staff for
 * any subscription (each staff read is audited as `mailbox.read`, without the link or code).
 * Anyone else: 403; an unknown subscription: 404; the wrong platform type: 409. The client polls
 * (VERIFICATION_POLL_SECONDS and VERIFICATION_MAX_POLLS of core's promises), so the calls are rate limited per user with
 * room for several rounds; a mailbox that cannot be read answers 503 within the read budget, and
 * a shop that reads no mailbox (no MAILBOX_IMAP_URL) 503 `mailbox_reading_off` at once.
 *
 * "Received after": the links expire HOUSEHOLD_LINK_MINUTES after they are sent, and a code is good for about
 * as long, so only mail received within LOOKBACK_MS counts; a client may narrow that with
 * `since` (e.g. the moment the buyer started the login), never widen it.
 */
import { inject, injectable } from 'inversify';
import type { Clock } from '../shared/clock.js';
import { ConflictError, ForbiddenError, UnavailableError, fail } from '../shared/errors.js';
import { type RateLimit, RateLimiter } from '../shared/rate-limiter.js';
import { TOKENS } from '../shared/tokens.js';
import { AccountsService } from '../modules/accounts/index.js';
import { type AuditActor, AuditService } from '../modules/audit/index.js';
import { CatalogService } from '../modules/catalog/index.js';
import { ROLES, type AuthenticatedUser } from '../modules/identity/index.js';
import { MailboxReaderService, type PlatformMailKind } from '../modules/mailboxes/index.js';
import { OrdersService } from '../modules/orders/index.js';
import { SubscriptionsService } from '../modules/subscriptions/index.js';
import { HOUSEHOLD_LINK_MINUTES, VERIFICATION_MAX_POLLS } from '../promises/index.js';
import { PLATFORM_CATEGORY, type PlatformCategory } from '../wire/enums.js';
import { sinceDate, type VerificationMailQuery } from '../wire/panel.js';

/** Platform types (the spec's `platformType`) that have something in the mailbox. */
export const MAILBOX_PLATFORM_TYPE: Record<PlatformMailKind, PlatformCategory> = {
  householdLink: PLATFORM_CATEGORY.videoStreaming,
  loginCode: PLATFORM_CATEGORY.aiChat,
};
/** Only mail received this recently counts: as long as a household link lives. */
export const LOOKBACK_MS = HOUSEHOLD_LINK_MINUTES * 60_000;
/** Room for five polling rounds of the panel in ten minutes; refuses a script. */
export const MAILBOX_READ_LIMIT: RateLimit = {
  name: 'mailbox-read:user',
  limit: 5 * VERIFICATION_MAX_POLLS,
  windowSeconds: 600,
  code: 'too_many_mailbox_reads',
};

/**
 * No MAILBOX_IMAP_URL: nothing will ever be found, so the panel stops at once on this code and
 * says what to do. Buyers are sent to support (a setting's name means nothing to them); staff
 * are told which setting is missing.
 */
const READING_OFF = {
  buyer: "This shop cannot read the accounts' mailboxes at the moment, so the link or code cannot be fetched. Please contact support.",
  staff:
    'Mailboxes are not read on this shop: MAILBOX_IMAP_URL is not set. Set it to the IMAP server that holds the mailboxes (imap:// or imaps://host:port) and restart the shop.',
};

const WRONG_TYPE: Record<PlatformMailKind, string> = {
  householdLink: 'Household links are only for video platforms.',
  loginCode: 'Login codes are only for AI-chat platforms.',
};

@injectable()
export class VerificationMailFlow {
  constructor(
    @inject(SubscriptionsService) private readonly subscriptions: SubscriptionsService,
    @inject(OrdersService) private readonly orders: OrdersService,
    @inject(AccountsService) private readonly accounts: AccountsService,
    @inject(CatalogService) private readonly catalog: CatalogService,
    @inject(MailboxReaderService) private readonly reader: MailboxReaderService,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(RateLimiter) private readonly limiter: RateLimiter,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  /** GET /api/email/getnvlink?subscriptionId → `{ link }`, null until one is found. */
  async householdLink(viewer: AuthenticatedUser, input: VerificationMailQuery, actor: AuditActor): Promise<{ link: string | null }> {
    return { link: await this.read(viewer, input, actor, 'householdLink') };
  }

  /** GET /api/email/getchgptcode?subscriptionId → `{ code }`, null until one is found. */
  async loginCode(viewer: AuthenticatedUser, input: VerificationMailQuery, actor: AuditActor): Promise<{ code: string | null }> {
    return { code: await this.read(viewer, input, actor, 'loginCode') };
  }

  private async read(viewer: AuthenticatedUser, input: VerificationMailQuery, actor: AuditActor, kind: PlatformMailKind): Promise<string | null> {
    const { subscriptionId } = input;
    const asked = input.since === undefined ? undefined : sinceDate(input.since);
    await this.limiter.consume(MAILBOX_READ_LIMIT, String(viewer.id));

    const subscription = await this.subscriptions.get(subscriptionId);
    const now = this.clock.now();
    const holder = subscription.userId === viewer.id;
    const isStaff = viewer.role >= ROLES.moderator;
    if (!holder && !isStaff) throw new ForbiddenError('You can only read the mailbox of your own subscriptions.', 'forbidden');
    const active = subscription.status === 'active' && subscription.startsAt <= now && now < subscription.endsAt;
    if (!active && !isStaff) throw fail('subscription_not_active');

    const [account] = await this.accounts.accountsByIds([subscription.platformAccountId]);
    const platformType = await this.platformType(subscription.orderItemId, account?.platformId);
    if (platformType !== MAILBOX_PLATFORM_TYPE[kind]) throw new ConflictError(WRONG_TYPE[kind], 'wrong_platform_type');
    const mailbox = account ? await this.accounts.mailboxLogin(account.id) : undefined;
    if (!mailbox) throw fail('no_mailbox');
    if (!this.reader.enabled) throw new UnavailableError(isStaff ? READING_OFF.staff : READING_OFF.buyer, 'mailbox_reading_off');

    const floor = now.getTime() - LOOKBACK_MS;
    const since = new Date(Math.min(now.getTime(), Math.max(floor, asked?.getTime() ?? floor)));
    // Only the platform's own, authenticated mail counts: from its senders, links to its hosts (issue 33).
    const rules = account ? (await this.catalog.alertRules([account.platformId])).get(account.platformId) : undefined;
    const found = await this.reader.latest(
      {
        mailboxId: mailbox.mailboxId,
        login: { address: mailbox.address, password: mailbox.password },
        recipients: [mailbox.accountEmail, mailbox.address],
        platform: { senders: rules?.senders ?? [], linkHosts: rules?.linkHosts ?? [] },
      },
      kind,
      since,
    );

    if (!holder) {
      await this.audit.record(actor, {
        action: 'mailbox.read',
        targetType: 'subscription',
        targetId: subscription.id,
        details: {
          subscriptionId: subscription.id,
          userId: subscription.userId,
          platformAccountId: subscription.platformAccountId,
          mailboxId: mailbox.mailboxId,
          kind,
          found: found !== null,
        },
      });
    }
    return found?.value ?? null;
  }

  /** The platform's type as the catalog has it now, else as the order recorded it. */
  private async platformType(orderItemId: number, platformId: number | undefined): Promise<number | undefined> {
    if (platformId !== undefined) {
      const platform = (await this.catalog.listPlatforms(1)).find((candidate) => candidate.id === platformId);
      if (platform) return platform.category;
    }
    const order = await this.orders.orderOfItem(orderItemId);
    return order?.items.find((item) => item.id === orderItemId)?.platformCategory;
  }
}
