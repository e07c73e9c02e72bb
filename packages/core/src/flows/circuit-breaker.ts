/**
 * No single voice empties the shelf (issue 33): the circuit breaker of each platform.
 *
 * A forged mail, or one buyer who keeps reporting, could otherwise break every account of a
 * platform one after the other and leave every buyer "being repaired". So at most
 * ACCOUNT_BREAKS_PER_HOUR (default 2) of one platform's accounts turn broken by themselves within
 * an hour. The next one is held: it is marked attention at most, its buyers stay, the mail that
 * would have broken it is recorded `held`, and staff get ONE "platform-wide incident" e-mail per
 * incident. While the incident is open (a break was held within the last hour) every further break
 * of that platform is held too. Staff still break accounts by hand (setaccounthealth, confirming a
 * buyer's report): those never wait for the breaker and do not count against it.
 *
 * The decision is taken under a PostgreSQL advisory lock of the platform in the transaction that
 * would break the account, so two processes hearing two mails at once count one after the other:
 * the second sees the first's break (committed) before it decides.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { AppConfig } from '../shared/config.js';
import type { Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
import { TOKENS } from '../shared/tokens.js';
import { BREAKER_WINDOW_MS } from '../validation/problem-reports.js';
import { type AccountHealthView, AccountVoicesService, type PlatformIncidentView } from '../modules/accounts/index.js';
import { type AuditActor, AuditService } from '../modules/audit/index.js';
import { CatalogService } from '../modules/catalog/index.js';
import { EMAIL_KIND, NotificationsService } from '../modules/notifications/index.js';

@injectable()
export class CircuitBreaker {
  constructor(
    @inject(TOKENS.Config) private readonly config: AppConfig,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(AccountVoicesService) private readonly voices: AccountVoicesService,
    @inject(CatalogService) private readonly catalog: CatalogService,
    @inject(NotificationsService) private readonly notifications: NotificationsService,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  /**
   * Asked by whatever would turn `account` broken by itself (a platform mail, buyers' reports), in
   * its transaction, with the account's row locked. Undefined: go ahead. An incident: the break is
   * held (recorded on the incident, audited `account.health.held`, staff alerted once per
   * incident); the caller marks the account attention at most and moves nobody.
   */
  async holds(account: AccountHealthView, cause: Record<string, unknown>, actor: AuditActor, trx: Knex.Transaction): Promise<PlatformIncidentView | undefined> {
    await this.voices.lockPlatformBreaks(account.platformId, trx);
    const now = this.clock.now();
    const after = new Date(now.getTime() - BREAKER_WINDOW_MS);
    const allowance = this.config.accountHealth.breaksPerHour;
    const open = await this.voices.openIncident(account.platformId, after, trx);
    const recent = open ? undefined : await this.voices.automaticBreaksSince(account.platformId, after, account.id, trx);
    if (recent !== undefined && recent < allowance) return undefined;

    let incident: PlatformIncidentView;
    if (open) {
      await this.voices.addHeld(open.id, now, account.id, trx);
      incident = { ...open, held: open.held + 1, lastHeldAt: now, accountIds: [...new Set([...open.accountIds, account.id])] };
    } else {
      incident = await this.voices.openNewIncident(account.platformId, now, account.id, trx);
      await this.alertStaff(incident, account, cause, trx);
    }
    await this.audit.record(
      actor,
      {
        action: 'account.health.held',
        targetType: 'platform_account',
        targetId: account.id,
        details: { platformId: account.platformId, incidentId: incident.id, breaksPerHour: allowance, opened: !open, cause },
      },
      trx,
    );
    this.logger.warn({ accountId: account.id, platformId: account.platformId, incidentId: incident.id }, 'account break held: platform-wide incident');
    return incident;
  }

  /** The mail that would have broken the account is recorded as held (staff decide). */
  markMailHeld(alertMailId: number, trx: Knex.Transaction): Promise<void> {
    return this.voices.markMailHeld(alertMailId, trx);
  }

  /** Incidents still open (a break held within the last hour), for staff. */
  openIncidents(): Promise<PlatformIncidentView[]> {
    return this.voices.openIncidents(new Date(this.clock.now().getTime() - BREAKER_WINDOW_MS));
  }

  /** One e-mail per incident to each staff alert address (the incident's id is in the idempotency key). */
  private async alertStaff(incident: PlatformIncidentView, account: AccountHealthView, cause: Record<string, unknown>, trx: Knex.Transaction): Promise<void> {
    // No staff alert address: nothing to read for the e-mail.
    if (this.config.mailbox.staffAlertEmails.length === 0) return;
    const platform = (await this.catalog.platformNames(1)).find((entry) => entry.id === account.platformId);
    await this.notifications.alertStaff(
      EMAIL_KIND.platformIncident,
      {
        platformName: platform?.name ?? `#${account.platformId}`,
        breaksPerHour: this.config.accountHealth.breaksPerHour,
        accountId: account.id,
        accountEmail: account.email,
        cause: typeof cause.kind === 'string' ? cause.kind : 'unknown',
        openedAt: incident.openedAt,
      },
      `platform:${account.platformId}:incident:${incident.id}`,
      trx,
    );
  }
}
