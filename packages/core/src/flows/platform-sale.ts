/**
 * A platform whose every active account is broken goes off sale by itself (issue 33, item 6),
 * and comes back when one of them is healthy again. Called in the transaction that changes an
 * account's health (a platform mail, staff), after the change: the platform row is locked first,
 * so two accounts breaking at once decide one after the other and the second sees the first.
 *
 * Off sale: `platforms.off_sale_since` (the storefront shows a message on the platform's page, an
 * order is refused with `platform_off_sale`), audited `platform.offSale`, and one e-mail per
 * staff alert address per incident (idempotency key `platform:<id>:off-sale:<since ms>:<address>`).
 * Back on sale: the column cleared, audited `platform.onSale`.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
import { TOKENS } from '../shared/tokens.js';
import { AccountHealthService } from '../modules/accounts/index.js';
import { type AuditActor, AuditService } from '../modules/audit/index.js';
import { CatalogService } from '../modules/catalog/index.js';
import { EMAIL_KIND, NotificationsService } from '../modules/notifications/index.js';

const SALE: AuditActor = { label: 'account health' };

@injectable()
export class PlatformSale {
  constructor(
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(AccountHealthService) private readonly health: AccountHealthService,
    @inject(CatalogService) private readonly catalog: CatalogService,
    @inject(NotificationsService) private readonly notifications: NotificationsService,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  /** After an account of the platform changed health (or was added): off sale when every active account is broken, else on sale. */
  async afterHealthChange(platformId: number, trx: Knex.Transaction): Promise<void> {
    const offSince = await this.catalog.lockSale(platformId, trx);
    if (offSince === undefined) return;
    const counts = await this.health.platformCounts(platformId, trx);
    const active = counts.ok + counts.attention + counts.broken;
    const allBroken = active > 0 && counts.broken === active;
    if (allBroken === (offSince !== null)) return;
    const now = this.clock.now();
    await this.catalog.setOffSale(platformId, allBroken ? now : null, trx);
    await this.audit.record(
      SALE,
      { action: allBroken ? 'platform.offSale' : 'platform.onSale', targetType: 'platform', targetId: platformId, details: { accounts: active } },
      trx,
    );
    if (allBroken) await this.alertStaff(platformId, active, now, trx);
    this.logger.warn({ platformId, accounts: active }, allBroken ? 'platform off sale: every account is broken' : 'platform back on sale');
  }

  /**
   * Every platform checked once (on each run of the watch job): a shop upgraded while a platform's
   * accounts were all broken, or a health fixed by hand in the database, comes right at its next run.
   */
  async reconcile(): Promise<void> {
    for (const { id } of await this.catalog.platformNames(1)) {
      await this.health.transaction((trx) => this.afterHealthChange(id, trx));
    }
  }

  private async alertStaff(platformId: number, accounts: number, since: Date, trx: Knex.Transaction): Promise<void> {
    const name = (await this.catalog.platformNames(1)).find((platform) => platform.id === platformId)?.name ?? `#${platformId}`;
    await this.notifications.alertStaff(
      EMAIL_KIND.accountBroken,
      { offSale: true, platformId, platformName: name, accounts, since },
      `platform:${platformId}:off-sale:${since.getTime()}`,
      trx,
    );
  }
}
