/**
 * The catalog editor (admins, issue 15): a platform created, saved, shown or hidden, a logo
 * uploaded. Crosses the catalog (the platform), the orders (which options orders name) and the
 * audit log (before and after of every change).
 *
 *   update(actor, { id, version, ...platform }):
 *     one transaction ─ lock the platform row ─ version ≠ saved? ─► 409 catalog_conflict
 *                                                                 (saved version, fields that differ, the saved platform)
 *                     ─ an option left out that orders name? ─► 409 option_has_orders (disable it instead)
 *                     ─ write the platform (version + 1) ─ audit catalog.platform_update {before, after}
 *     after commit ─ catalog.invalidate(): this process serves the change at once; the others
 *                    see catalog_state.version move (triggers) within a second.
 *
 * Orders keep what was sold: order items hold their own names and unit price, so a price or a
 * name changed here never changes an order's total or history.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { ConflictError, fail } from '../shared/errors.js';
import { TOKENS } from '../shared/tokens.js';
import type { CatalogPlatformInput } from '../validation/catalog.js';
import { type AuditActor, AuditService } from '../modules/audit/index.js';
import { checkLogo, CatalogEditorStore, CatalogService, type EditablePlatformData, MediaStore, type PlatformSummary } from '../modules/catalog/index.js';
import { OrdersService } from '../modules/orders/index.js';
import { AccountsService } from '../modules/accounts/index.js';

export interface EditablePlatformView extends Omit<EditablePlatformData, 'durations' | 'types'> {
  durations: Array<EditablePlatformData['durations'][number] & { hasOrders: boolean }>;
  types: Array<EditablePlatformData['types'][number] & { hasOrders: boolean }>;
  /** Accounts that take new subscriptions: with none, a platform on sale sells orders that wait for staff. */
  activeAccounts: number;
}

/** 409: the platform was saved by someone else since `version` was read. */
export class CatalogConflictError extends ConflictError {
  constructor(
    readonly current: EditablePlatformView,
    readonly fields: string[],
  ) {
    super('Someone else saved this platform since you opened it. Review their changes and save again.', 'catalog_conflict');
  }
}

const COMPARED_FIELDS = [
  'name',
  'description',
  'howItWorks',
  'faq',
  'colorOne',
  'colorTwo',
  'logoBase',
  'logoCarousel',
  'category',
  'slotsCount',
  'needsInvitation',
  'isEnabled',
  'durations',
  'types',
  'prices',
  'alertRules',
] as const;

export interface UploadedLogo {
  url: string;
  contentType: 'image/svg+xml' | 'image/png' | 'image/webp';
  size: number;
  sha256: string;
  sanitized: boolean;
}

@injectable()
export class CatalogEditorFlow {
  constructor(
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(CatalogService) private readonly catalog: CatalogService,
    @inject(CatalogEditorStore) private readonly store: CatalogEditorStore,
    @inject(MediaStore) private readonly media: MediaStore,
    @inject(OrdersService) private readonly orders: OrdersService,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(AccountsService) private readonly accounts: AccountsService,
  ) {}

  async list(): Promise<Array<PlatformSummary & { ordersCount: number; activeAccounts: number }>> {
    const [platforms, counts, accounts] = await Promise.all([this.store.list(), this.orders.orderCountsByPlatform(), this.accounts.activeAccountCounts()]);
    return platforms.map((platform) => ({ ...platform, ordersCount: counts.get(platform.id) ?? 0, activeAccounts: accounts.get(platform.id) ?? 0 }));
  }

  async get(id: number): Promise<EditablePlatformView> {
    const platform = await this.view(id);
    if (!platform) throw fail('platform_not_found');
    return platform;
  }

  async create(actor: AuditActor, input: CatalogPlatformInput): Promise<EditablePlatformView> {
    const created = await this.knex.transaction(async (trx) => {
      const id = await this.store.create(input, trx);
      const after = (await this.view(id, trx))!;
      await this.audit.record(actor, { action: 'catalog.platform_create', targetType: 'platform', targetId: id, details: { before: null, after } }, trx);
      return after;
    });
    this.catalog.invalidate();
    return created;
  }

  async update(actor: AuditActor, input: CatalogPlatformInput & { id: number; version: number }): Promise<EditablePlatformView> {
    const saved = await this.knex.transaction(async (trx) => {
      const before = await this.lockedAt(input.id, input.version, trx, input);
      const keptMonths = new Set(input.durations.map((d) => d.months));
      const keptTypes = new Set(input.types.flatMap((t) => (t.id === undefined ? [] : [t.id])));
      const lostDuration = before.durations.find((d) => d.hasOrders && !keptMonths.has(d.months));
      const lostType = before.types.find((t) => t.hasOrders && !keptTypes.has(t.id));
      if (lostDuration || lostType) {
        const what = lostDuration ? `the duration "${lostDuration.name.en}"` : `the type "${lostType!.name.en}"`;
        throw new ConflictError(`Orders name ${what}: it cannot be removed, only disabled.`, 'option_has_orders');
      }
      await this.store.update(input.id, input, trx);
      const after = (await this.view(input.id, trx))!;
      await this.audit.record(
        actor,
        {
          action: 'catalog.platform_update',
          targetType: 'platform',
          targetId: input.id,
          details: { before, after, changed: changedFields(before, after as unknown as Record<string, unknown>) },
        },
        trx,
      );
      return after;
    });
    this.catalog.invalidate();
    return saved;
  }

  async setEnabled(actor: AuditActor, input: { id: number; version: number; isEnabled: boolean }): Promise<EditablePlatformView> {
    const saved = await this.knex.transaction(async (trx) => {
      const before = await this.lockedAt(input.id, input.version, trx);
      // The editor's own rule (validation/catalog.ts) for a platform saved hidden and shown here.
      if (input.isEnabled && !(before.durations.some((d) => d.isEnabled) && before.types.some((t) => t.isEnabled))) throw fail('nothing_on_sale');
      await this.store.setEnabled(input.id, input.isEnabled, trx);
      const after = (await this.view(input.id, trx))!;
      await this.audit.record(
        actor,
        {
          action: 'catalog.platform_enable',
          targetType: 'platform',
          targetId: input.id,
          details: { before: { isEnabled: before.isEnabled, version: before.version }, after: { isEnabled: after.isEnabled, version: after.version } },
        },
        trx,
      );
      return after;
    });
    this.catalog.invalidate();
    return saved;
  }

  async uploadLogo(actor: AuditActor, bytes: Buffer, contentType: string | undefined): Promise<UploadedLogo> {
    const logo = checkLogo(bytes, contentType);
    const url = `/media/uploads/${logo.sha256}.${logo.extension}`;
    await this.knex.transaction(async (trx) => {
      const created = await this.media.save(logo, actor.userId, trx);
      await this.audit.record(
        actor,
        {
          action: 'catalog.logo_upload',
          targetType: 'media',
          targetId: logo.sha256,
          details: { before: null, after: { url, contentType: logo.contentType, size: logo.body.length, sanitized: logo.sanitized, new: created } },
        },
        trx,
      );
    });
    return { url, contentType: logo.contentType, size: logo.body.length, sha256: logo.sha256, sanitized: logo.sanitized };
  }

  /** The platform locked for this transaction, if it is still at `version`; 404 or 409 otherwise. */
  private async lockedAt(id: number, version: number, trx: Knex.Transaction, sent?: CatalogPlatformInput): Promise<EditablePlatformView> {
    const locked = await this.store.read(id, trx, true);
    if (!locked) throw fail('platform_not_found');
    const current = (await this.view(id, trx))!;
    if (locked.version !== version) {
      const fields = (await this.changedSince(id, version)) ?? (sent ? changedFields(current, sent as unknown as Record<string, unknown>) : []);
      throw new CatalogConflictError(current, fields);
    }
    return current;
  }

  /**
   * The fields that saves since `version` changed, from their audit entries (each records the
   * version it started from and what it changed); undefined when the log does not cover them
   * (a version the platform never had), and the caller compares with what was sent instead.
   */
  private async changedSince(id: number, version: number): Promise<string[] | undefined> {
    const { items } = await this.audit.list({ page: 1, limit: 100, targetType: 'platform', targetId: String(id) });
    const fields = new Set<string>();
    let covered = false;
    for (const entry of items) {
      const before = entry.details.before as { version?: unknown } | null | undefined;
      if (typeof before?.version !== 'number' || before.version < version) continue;
      covered = true;
      if (entry.action === 'catalog.platform_enable') fields.add('isEnabled');
      const changed = entry.details.changed;
      if (entry.action === 'catalog.platform_update' && Array.isArray(changed)) for (const field of changed) fields.add(String(field));
    }
    return covered ? COMPARED_FIELDS.filter((field) => fields.has(field)) : undefined;
  }

  private async view(id: number, trx?: Knex.Transaction): Promise<EditablePlatformView | undefined> {
    const platform = await this.store.read(id, trx);
    if (!platform) return undefined;
    const ordered = await this.orders.orderedOptions(id, trx);
    const accounts = await this.accounts.activeAccountCounts(id);
    return {
      ...platform,
      activeAccounts: accounts.get(id) ?? 0,
      durations: platform.durations.map((d) => ({ ...d, hasOrders: ordered.durationIds.has(d.id) })),
      types: platform.types.map((t) => ({ ...t, hasOrders: ordered.typeIds.has(t.id) })),
    };
  }
}

/**
 * Top-level fields whose value differs. Options compare by what they mean (months or type id,
 * names, enabled), prices by the pair's duration months and type id, so keys chosen by a client
 * ("new-1") do not count as a change.
 */
function changedFields(saved: EditablePlatformView, other: Record<string, unknown>): string[] {
  const normal = (platform: Record<string, unknown>, field: string): unknown => {
    const value = platform[field];
    if (field === 'durations' || field === 'types' || field === 'prices') {
      const durations = (platform.durations as Array<{ key: string; months: number }>) ?? [];
      const types = (platform.types as Array<{ key: string; id?: number; name: { en: string } }>) ?? [];
      const monthsOf = (key: string) => durations.find((d) => d.key === key)?.months;
      const typeOf = (key: string) => {
        const type = types.find((t) => t.key === key);
        return type?.id ?? `new:${type?.name.en}`;
      };
      if (field === 'durations')
        return durations
          .map((d) => ({ months: d.months, name: (d as unknown as { name: unknown }).name, isEnabled: (d as unknown as { isEnabled: boolean }).isEnabled }))
          .sort((a, b) => a.months - b.months);
      if (field === 'types') return types.map((t) => ({ id: t.id ?? null, name: t.name, isEnabled: (t as unknown as { isEnabled: boolean }).isEnabled }));
      return ((value as Array<{ durationKey: string; typeKey: string; eur: unknown; krw: unknown }>) ?? [])
        .map((p) => ({ months: monthsOf(p.durationKey), type: typeOf(p.typeKey), eur: p.eur, krw: p.krw }))
        .sort((a, b) => JSON.stringify([a.months, a.type]).localeCompare(JSON.stringify([b.months, b.type])));
    }
    return value;
  };
  return COMPARED_FIELDS.filter((field) => JSON.stringify(normal(saved as unknown as Record<string, unknown>, field)) !== JSON.stringify(normal(other, field)));
}
