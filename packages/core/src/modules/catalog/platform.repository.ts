import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { storedAlertRules, type AlertRules } from '../../validation/alert-rules.js';
import { TOKENS } from '../../shared/tokens.js';
import { PlatformModel } from './models/platform.model.js';

const GRAPH = '[texts, howItWorks, faq, durations, planTypes, prices]';

/** Reads platforms with everything the storefront shows about them. */
@injectable()
export class PlatformRepository {
  constructor(@inject(TOKENS.Knex) private readonly knex: Knex) {}

  async findAllEnabled(trx?: Knex.Transaction): Promise<PlatformModel[]> {
    return this.withGraph(PlatformModel.query(trx ?? this.knex).where('is_enabled', true)).orderBy([{ column: 'sort_order' }, { column: 'id' }]);
  }

  /** Every platform, enabled or not, in display order (staff views). */
  async findAll(trx?: Knex.Transaction): Promise<PlatformModel[]> {
    return this.withGraph(PlatformModel.query(trx ?? this.knex)).orderBy([{ column: 'sort_order' }, { column: 'id' }]);
  }

  async findEnabledById(id: number, trx?: Knex.Transaction): Promise<PlatformModel | undefined> {
    return this.withGraph(PlatformModel.query(trx ?? this.knex).where({ id, is_enabled: true })).first();
  }

  /** Whether a platform row exists, enabled or not. */
  async exists(id: number, trx?: Knex.Transaction): Promise<boolean> {
    return (
      (await PlatformModel.query(trx ?? this.knex)
        .findById(id)
        .select('id')) !== undefined
    );
  }

  /** Every platform, enabled or not, in display order, with its name in `languageId` (English when it has none). */
  async names(languageId: number, trx?: Knex.Transaction): Promise<Array<{ id: number; name: string; is_enabled: boolean }>> {
    const db = trx ?? this.knex;
    return db('platforms')
      .leftJoin('platform_texts as own', (join) => join.on('own.platform_id', 'platforms.id').andOnVal('own.language_id', languageId))
      .leftJoin('platform_texts as en', (join) => join.on('en.platform_id', 'platforms.id').andOnVal('en.language_id', 1))
      .orderBy([{ column: 'platforms.sort_order' }, { column: 'platforms.id' }])
      .select('platforms.id', 'platforms.is_enabled', db.raw('coalesce(own.name, en.name, platforms.slug) as name'));
  }

  async alertRules(platformIds: number[], trx?: Knex.Transaction): Promise<Map<number, AlertRules>> {
    if (platformIds.length === 0) return new Map();
    const rows = await (trx ?? this.knex)('platforms').whereIn('id', platformIds).select<Array<{ id: number; alert_rules: AlertRules }>>('id', 'alert_rules');
    return new Map(rows.map((row) => [row.id, storedAlertRules(row.alert_rules)]));
  }

  async lockSale(platformId: number, trx: Knex.Transaction): Promise<Date | null | undefined> {
    const row = await trx('platforms').where({ id: platformId }).forUpdate().first<{ off_sale_since: Date | null } | undefined>('off_sale_since');
    return row ? row.off_sale_since : undefined;
  }

  async setOffSale(platformId: number, since: Date | null, trx: Knex.Transaction): Promise<void> {
    await trx('platforms').where({ id: platformId }).update({ off_sale_since: since });
  }

  async durationMonths(trx?: Knex.Transaction): Promise<Map<number, number>> {
    const rows = await (trx ?? this.knex)('durations').select<Array<{ id: number; months: number }>>('id', 'months');
    return new Map(rows.map((row) => [row.id, row.months]));
  }

  async planTypeNames(trx?: Knex.Transaction): Promise<Map<string, string>> {
    const rows = await (trx ?? this.knex)('plan_type_texts').select<Array<{ plan_type_id: number; language_id: number; name: string }>>(
      'plan_type_id',
      'language_id',
      'name',
    );
    return new Map(rows.map((row) => [`${row.plan_type_id}:${row.language_id}`, row.name]));
  }

  /** The catalog's version: every write to a catalog table moves it (see the catalog-version migration). */
  async version(trx?: Knex.Transaction): Promise<string> {
    const row = await (trx ?? this.knex)('catalog_state').where({ id: 1 }).first<{ version: string | number } | undefined>('version');
    return String(row?.version ?? 0);
  }

  /** Moves the version by hand, for changes the tables do not show (e.g. a logo file replaced under the same name). */
  async bumpVersion(trx?: Knex.Transaction): Promise<string> {
    const [row] = await (trx ?? this.knex)('catalog_state')
      .where({ id: 1 })
      .update({ version: (trx ?? this.knex).raw('version + 1'), changed_at: (trx ?? this.knex).fn.now() })
      .returning<Array<{ version: string | number }>>('version');
    return String(row?.version ?? 0);
  }

  private withGraph<Q extends ReturnType<typeof PlatformModel.query>>(query: Q): Q {
    return query
      .withGraphFetched(GRAPH)
      .modifyGraph('howItWorks', (b) => b.orderBy('position'))
      .modifyGraph('faq', (b) => b.orderBy('position')) as Q;
  }
}
