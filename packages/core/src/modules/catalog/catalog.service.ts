/**
 * The catalog as buyers see it: platforms in one language with their options and prices.
 *
 * Reads are served from memory, because every storefront page asks for the catalog and it
 * changes only when staff edit it. Every write to a catalog table moves a version number in
 * the database (triggers, see the catalog-version migration), and the move is announced with
 * NOTIFY subshare_catalog when its transaction commits (the catalog-notify migration). Each
 * process LISTENs (shared/database-events) and forgets its copy on the announcement, so a change
 * made by any process, or by hand in SQL, is served everywhere a few milliseconds after its
 * commit, and at once by the process that made it once it calls `invalidate()`. While a
 * process's listening connection is down (it may miss announcements), it compares the version
 * behind its memory with the database's at most once a second instead (one tiny query).
 *
 * A reload yields new arrays: callers may key caches of their own on the array's identity
 * (a WeakMap), and those are invalidated together with the catalog.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { Clock } from '../../shared/clock.js';
import { fail } from '../../shared/errors.js';
import { isCurrencyCode, money, type Money } from '../../shared/money.js';
import { DatabaseEvents } from '../../shared/database-events.js';
import { TOKENS } from '../../shared/tokens.js';
import type { AlertRules } from '../../validation/alert-rules.js';
import { PlatformRepository } from './platform.repository.js';
import type { PlatformModel } from './models/platform.model.js';
import type { LanguageId, PlatformView } from './catalog.types.js';

/** How long a process that is not listening trusts its memory before asking the database for the catalog version. */
export const CATALOG_VERSION_CHECK_MS = 1_000;

/** The channel the catalog-notify migration's trigger announces a new version on. */
export const CATALOG_CHANNEL = 'subshare_catalog';

export function durationName(months: number, languageId: LanguageId): string {
  if (languageId === 2) return `${months}개월`;
  return months === 1 ? '1 Month' : `${months} Months`;
}

@injectable()
export class CatalogService {
  /** One load per language, shared by concurrent callers. */
  private loads = new Map<LanguageId, Promise<PlatformView[]>>();
  /** The database version the loads belong to. */
  private loadedVersion: string | undefined;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private checking: Promise<void> | undefined;
  private subscribed = false;

  constructor(
    @inject(PlatformRepository) private readonly platforms: PlatformRepository,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(DatabaseEvents) private readonly events: DatabaseEvents,
  ) {}

  /** Every enabled platform, in display order. */
  async listPlatforms(languageId: LanguageId): Promise<PlatformView[]> {
    this.subscribe();
    const check = this.events.listening(CATALOG_CHANNEL) ? undefined : this.checkVersion();
    if (check) await check;
    let load = this.loads.get(languageId);
    if (!load) {
      load = this.load(languageId);
      this.loads.set(languageId, load);
      // A failed load is forgotten, so the next request tries again.
      load.catch(() => {
        if (this.loads.get(languageId) === load) this.loads.delete(languageId);
      });
    }
    return load;
  }

  async getPlatform(id: number, languageId: LanguageId): Promise<PlatformView> {
    const platform = (await this.listPlatforms(languageId)).find((candidate) => candidate.id === id);
    if (!platform) throw fail('platform_not_found');
    return platform;
  }

  /**
   * Staff: every platform, enabled or not (staff add accounts to a platform before it goes on
   * sale), in display order, read from the database each time (not the storefront's cache).
   */
  async listAllPlatforms(languageId: LanguageId): Promise<Array<PlatformView & { isEnabled: boolean }>> {
    const [models, months, typeNames] = await Promise.all([this.platforms.findAll(), this.platforms.durationMonths(), this.platforms.planTypeNames()]);
    return models.map((model) => ({ ...toView(model, languageId, months, typeNames), isEnabled: model.is_enabled }));
  }

  /**
   * Every platform's name, enabled or not, in display order (staff views of platforms that are
   * off sale; not cached, unlike the storefront's reads).
   */
  async platformNames(languageId: LanguageId): Promise<Array<{ id: number; name: string; isEnabled: boolean }>> {
    return (await this.platforms.names(languageId)).map((row) => ({ id: row.id, name: row.name, isEnabled: row.is_enabled }));
  }

  /**
   * Forgets this process's copy and asks the database for the version on the next read. Call
   * it after a catalog change has been committed; other processes notice within a second.
   */
  invalidate(): void {
    this.loads.clear();
    this.loadedVersion = undefined;
    this.checkedAt = Number.NEGATIVE_INFINITY;
  }

  /**
   * Whether the platform exists, enabled or not, read fresh: `getPlatform` sees only enabled
   * platforms (the storefront's cached view), and staff add accounts to a platform before it
   * goes on sale.
   */
  async platformExists(platformId: number, trx?: Knex.Transaction): Promise<boolean> {
    return this.platforms.exists(platformId, trx);
  }

  /**
   * The account-alert rules of these platforms (enabled or not), read fresh: the watcher
   * classifies a mail with the rules as saved at that moment.
   */
  async alertRules(platformIds: number[], trx?: Knex.Transaction): Promise<Map<number, AlertRules>> {
    return this.platforms.alertRules(platformIds, trx);
  }

  /**
   * Since when the platform is off sale (null: on sale; undefined: no such platform), its row
   * locked to the transaction: two accounts breaking at once decide one after the other.
   */
  lockSale(platformId: number, trx: Knex.Transaction): Promise<Date | null | undefined> {
    return this.platforms.lockSale(platformId, trx);
  }

  /** Off sale since `since`, or back on sale (null). The write moves the catalog version: every process shows it. */
  async setOffSale(platformId: number, since: Date | null, trx: Knex.Transaction): Promise<void> {
    await this.platforms.setOffSale(platformId, since, trx);
  }

  /**
   * Records a catalog change that the catalog tables do not show by themselves (a logo file
   * replaced under the same name, say) so every process reloads; writes to the tables move
   * the version on their own. Inside a transaction, call `invalidate()` again after commit.
   */
  async markChanged(trx?: Knex.Transaction): Promise<void> {
    await this.platforms.bumpVersion(trx);
    this.invalidate();
  }

  /**
   * Listens for announced changes, from the first read on. Whatever was loaded before the LISTEN
   * took effect, or while the connection was away, may be stale: it is forgotten then too.
   */
  private subscribe(): void {
    if (this.subscribed) return;
    this.subscribed = true;
    this.events
      .listen(CATALOG_CHANNEL, () => this.invalidate(), { onReconnect: () => this.invalidate() })
      .then(
        () => this.invalidate(),
        () => {
          this.subscribed = false; // closed at shutdown: nothing to listen to
        },
      );
  }

  /** Undefined when the memory is recent enough; otherwise one version check shared by all callers. */
  private checkVersion(): Promise<void> | undefined {
    const now = this.clock.now().getTime();
    if (now >= this.checkedAt && now - this.checkedAt < CATALOG_VERSION_CHECK_MS) return undefined;
    this.checking ??= this.platforms
      .version()
      .then(
        (version) => {
          if (version !== this.loadedVersion) {
            this.loads.clear();
            this.loadedVersion = version;
          }
        },
        // The database is unreachable: keep serving what we have; a load will report the failure.
        () => undefined,
      )
      .finally(() => {
        this.checkedAt = now;
        this.checking = undefined;
      });
    return this.checking;
  }

  private async load(languageId: LanguageId): Promise<PlatformView[]> {
    const [models, months, typeNames] = await Promise.all([this.platforms.findAllEnabled(), this.platforms.durationMonths(), this.platforms.planTypeNames()]);
    return models.map((model) => toView(model, languageId, months, typeNames));
  }
}

/** A duration's or type's name on this platform (catalog editor), English when it has none in the language. */
function ownName(row: { name_en?: string | null; name_ko?: string | null }, languageId: LanguageId): string | undefined {
  return (languageId === 2 ? row.name_ko : row.name_en) || row.name_en || undefined;
}

function toView(model: PlatformModel, languageId: LanguageId, months: Map<number, number>, typeNames: Map<string, string>): PlatformView {
  const text = model.texts?.find((candidate) => candidate.language_id === languageId) ?? model.texts?.find((candidate) => candidate.language_id === 1);
  const inLanguage = <T extends { language_id: number }>(rows: T[] | undefined) => (rows ?? []).filter((row) => row.language_id === languageId);

  const durations = (model.durations ?? [])
    .map((row) => ({ id: row.duration_id, months: months.get(row.duration_id) ?? 0, isEnabled: row.is_enabled, own: ownName(row, languageId) }))
    .sort((a, b) => a.months - b.months)
    .map(({ own, ...row }) => ({ ...row, name: own ?? durationName(row.months, languageId) }));

  const types = [...(model.planTypes ?? [])]
    .sort((a, b) => a.position - b.position || a.plan_type_id - b.plan_type_id)
    .map((row) => ({
      id: row.plan_type_id,
      name:
        ownName(row, languageId) ?? typeNames.get(`${row.plan_type_id}:${languageId}`) ?? typeNames.get(`${row.plan_type_id}:1`) ?? String(row.plan_type_id),
      isEnabled: row.is_enabled,
    }));

  const byPair = new Map<string, { durationId: number; typeId: number; price: Money[]; salePrice: Money[] }>();
  for (const row of model.prices ?? []) {
    if (!isCurrencyCode(row.currency)) continue;
    const key = `${row.duration_id}:${row.plan_type_id}`;
    const entry = byPair.get(key) ?? { durationId: row.duration_id, typeId: row.plan_type_id, price: [], salePrice: [] };
    entry.price.push(money(row.price_minor, row.currency));
    entry.salePrice.push(money(row.sale_price_minor, row.currency));
    byPair.set(key, entry);
  }

  return {
    id: model.id,
    slug: model.slug,
    category: model.category,
    name: text?.name ?? model.slug,
    description: text?.description ?? '',
    logoBase: model.logo_base,
    logoCarousel: model.logo_carousel,
    colorOne: model.color_one,
    colorTwo: model.color_two,
    slotsCount: model.slots_count,
    needsInvitation: model.needs_invitation,
    maxQuantity: model.max_quantity,
    howItWorks: inLanguage(model.howItWorks).map((row) => row.text),
    durations,
    types,
    prices: [...byPair.values()].sort((a, b) => a.durationId - b.durationId || a.typeId - b.typeId),
    faq: inLanguage(model.faq).map((row) => ({ question: row.question, answer: row.answer })),
    updatedAt: new Date(model.updated_at),
    offSale: Boolean(model.off_sale_since),
  };
}
