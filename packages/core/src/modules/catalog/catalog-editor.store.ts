/**
 * The catalog editor's reads and writes of one platform (issue 15), inside the caller's
 * transaction. A save writes the whole platform: texts and lists are replaced, durations and
 * types are upserted (the shared `durations` row of the months and `plan_types` row are found or
 * created; the names are this platform's), prices are replaced. Options the editor left out are
 * removed; the flow refuses that first for an option that orders name.
 *
 * Every write goes through tables with the catalog-version triggers, so every process reloads
 * its catalog within a second; the caller calls `CatalogService.invalidate()` after commit.
 */
import { randomUUID } from 'node:crypto';
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { TOKENS } from '../../shared/tokens.js';
import { NO_ALERT_RULES, storedAlertRules, type AlertRules } from '../../validation/alert-rules.js';
import { platformCategory, type CatalogPlatformInput, type PlatformCategory } from '../../validation/catalog.js';
import { durationName } from './catalog.service.js';
import { PlatformModel } from './models/platform.model.js';

export interface Localized {
  en: string;
  ko: string;
}

/** The platform as the editor edits it (wire/catalog-admin.ts `editablePlatform`, without `hasOrders`). */
export interface EditablePlatformData {
  id: number;
  version: number;
  name: Localized;
  description: Localized;
  howItWorks: Localized[];
  faq: Array<{ question: Localized; answer: Localized }>;
  colorOne: string;
  colorTwo: string;
  logoBase: string;
  logoCarousel: string;
  category: PlatformCategory;
  slotsCount: number;
  needsInvitation: boolean;
  isEnabled: boolean;
  durations: Array<{ key: string; id: number; name: Localized; months: number; isEnabled: boolean }>;
  types: Array<{ key: string; id: number; name: Localized; isEnabled: boolean }>;
  prices: Array<{ durationKey: string; typeKey: string; eur: { price: number; salePrice: number }; krw: { price: number; salePrice: number } }>;
  /** The account-alert rules (issue 29): senders and phrases per kind. */
  alertRules: AlertRules;
  updatedAt: Date;
}

export interface PlatformSummary {
  id: number;
  version: number;
  name: Localized;
  category: PlatformCategory;
  logoBase: string;
  colorOne: string;
  colorTwo: string;
  slotsCount: number;
  isEnabled: boolean;
  enabledDurations: number;
  enabledTypes: number;
  updatedAt: Date;
}

const LANGS = [
  [1, 'en'],
  [2, 'ko'],
] as const;

@injectable()
export class CatalogEditorStore {
  constructor(@inject(TOKENS.Knex) private readonly knex: Knex) {}

  async list(): Promise<PlatformSummary[]> {
    const models = await PlatformModel.query(this.knex)
      .withGraphFetched('[texts, durations, planTypes]')
      .orderBy([{ column: 'sort_order' }, { column: 'id' }]);
    return models.map((model) => ({
      id: model.id,
      version: model.version,
      name: localized(model.texts ?? [], (row) => row.name, model.slug),
      category: platformCategory(model.category),
      logoBase: model.logo_base,
      colorOne: model.color_one,
      colorTwo: model.color_two,
      slotsCount: model.slots_count,
      isEnabled: model.is_enabled,
      enabledDurations: (model.durations ?? []).filter((row) => row.is_enabled).length,
      enabledTypes: (model.planTypes ?? []).filter((row) => row.is_enabled).length,
      updatedAt: new Date(model.updated_at),
    }));
  }

  /** The platform as saved; `lock` holds its row until the transaction ends (the version check). */
  async read(id: number, trx?: Knex.Transaction, lock = false): Promise<EditablePlatformData | undefined> {
    const db = trx ?? this.knex;
    const row = lock ? await db('platforms').where({ id }).forUpdate().first('id') : true;
    if (!row) return undefined;
    const model = await PlatformModel.query(db)
      .findById(id)
      .withGraphFetched('[texts, howItWorks, faq, durations, planTypes, prices]')
      .modifyGraph('howItWorks', (b) => b.orderBy('position'))
      .modifyGraph('faq', (b) => b.orderBy('position'));
    if (!model) return undefined;
    const months = new Map((await db('durations').select<Array<{ id: number; months: number }>>('id', 'months')).map((d) => [d.id, d.months]));
    const typeTexts = await db('plan_type_texts')
      .whereIn(
        'plan_type_id',
        (model.planTypes ?? []).map((t) => t.plan_type_id),
      )
      .select<Array<{ plan_type_id: number; language_id: number; name: string }>>('plan_type_id', 'language_id', 'name');
    const sharedTypeName = (typeId: number, languageId: number) =>
      typeTexts.find((t) => t.plan_type_id === typeId && t.language_id === languageId)?.name ??
      typeTexts.find((t) => t.plan_type_id === typeId && t.language_id === 1)?.name ??
      String(typeId);

    const paired = <T extends { language_id: number; position: number }, V>(rows: T[], pick: (row: T) => V, empty: V): Array<{ en: V; ko: V }> => {
      const en = rows.filter((r) => r.language_id === 1);
      const ko = rows.filter((r) => r.language_id === 2);
      return Array.from({ length: Math.max(en.length, ko.length) }, (_, i) => ({
        en: en[i] ? pick(en[i]) : empty,
        ko: ko[i] ? pick(ko[i]) : empty,
      }));
    };

    const durations = (model.durations ?? [])
      .map((row) => {
        const m = months.get(row.duration_id) ?? 0;
        return {
          key: String(row.duration_id),
          id: row.duration_id,
          months: m,
          isEnabled: row.is_enabled,
          name: { en: row.name_en || durationName(m, 1), ko: row.name_ko || durationName(m, 2) },
        };
      })
      .sort((a, b) => a.months - b.months);
    const types = [...(model.planTypes ?? [])]
      .sort((a, b) => a.position - b.position || a.plan_type_id - b.plan_type_id)
      .map((row) => ({
        key: String(row.plan_type_id),
        id: row.plan_type_id,
        isEnabled: row.is_enabled,
        name: { en: row.name_en || sharedTypeName(row.plan_type_id, 1), ko: row.name_ko || sharedTypeName(row.plan_type_id, 2) },
      }));
    const prices = new Map<string, EditablePlatformData['prices'][number]>();
    for (const price of model.prices ?? []) {
      const k = `${price.duration_id}:${price.plan_type_id}`;
      const entry = prices.get(k) ?? {
        durationKey: String(price.duration_id),
        typeKey: String(price.plan_type_id),
        eur: { price: 0, salePrice: 0 },
        krw: { price: 0, salePrice: 0 },
      };
      const pair = price.currency === 'KRW' ? entry.krw : entry.eur;
      pair.price = Number(price.price_minor);
      pair.salePrice = Number(price.sale_price_minor);
      prices.set(k, entry);
    }
    const faqQuestions = paired(model.faq ?? [], (r) => r.question, '');
    const faqAnswers = paired(model.faq ?? [], (r) => r.answer, '');
    return {
      id: model.id,
      version: model.version,
      name: localized(model.texts ?? [], (r) => r.name, model.slug),
      description: localized(model.texts ?? [], (r) => r.description, ''),
      howItWorks: paired(model.howItWorks ?? [], (r) => r.text, ''),
      faq: faqQuestions.map((question, i) => ({ question, answer: faqAnswers[i]! })),
      colorOne: model.color_one,
      colorTwo: model.color_two,
      logoBase: model.logo_base,
      logoCarousel: model.logo_carousel,
      category: platformCategory(model.category),
      slotsCount: model.slots_count,
      needsInvitation: model.needs_invitation,
      isEnabled: model.is_enabled,
      durations,
      types,
      prices: [...prices.values()].sort((a, b) => Number(a.durationKey) - Number(b.durationKey) || Number(a.typeKey) - Number(b.typeKey)),
      alertRules: storedAlertRules(model.alert_rules ?? NO_ALERT_RULES),
      updatedAt: new Date(model.updated_at),
    };
  }

  /**
   * The shared duration of these months and the type each input type names (created when new),
   * as the ids the platform will hold; nothing of the platform is written.
   */
  async resolveOptions(input: CatalogPlatformInput, trx: Knex.Transaction): Promise<{ durationIds: Map<string, number>; typeIds: Map<string, number> }> {
    const durationIds = new Map<string, number>();
    for (const duration of input.durations) {
      let row = await trx('durations').where({ months: duration.months }).first<{ id: number } | undefined>('id');
      if (!row) {
        // Shared rows with hand-picked ids (smallint, no sequence): one creator at a time.
        await trx.raw('lock table durations in share row exclusive mode');
        row = await trx('durations').where({ months: duration.months }).first<{ id: number } | undefined>('id');
        if (!row) {
          const next = await trx('durations').max<{ max: number | null }>('id as max').first();
          [row] = await trx('durations')
            .insert({ id: Number(next?.max ?? 0) + 1, months: duration.months })
            .returning<Array<{ id: number }>>('id');
        }
      }
      durationIds.set(duration.key, row!.id);
    }
    const typeIds = new Map<string, number>();
    for (const type of input.types) {
      if (type.id !== undefined) {
        const exists = await trx('plan_types').where({ id: type.id }).first('id');
        if (exists) {
          typeIds.set(type.key, type.id);
          continue;
        }
      }
      // A shared type of that English name is reused (one "Standard" for every platform), unless this platform already holds it.
      const shared = await trx('plan_type_texts')
        .where({ language_id: 1 })
        .whereRaw('lower(name) = lower(?)', [type.name.en])
        .whereNotIn('plan_type_id', [...typeIds.values(), ...input.types.flatMap((other) => (other.id === undefined ? [] : [other.id]))])
        .orderBy('plan_type_id')
        .first<{ plan_type_id: number } | undefined>('plan_type_id');
      if (shared) {
        typeIds.set(type.key, shared.plan_type_id);
        continue;
      }
      await trx.raw('lock table plan_types in share row exclusive mode');
      const next = await trx('plan_types').max<{ max: number | null }>('id as max').first();
      const id = Number(next?.max ?? 0) + 1;
      await trx('plan_types').insert({ id, code: `type-${id}` });
      await trx('plan_type_texts').insert(LANGS.map(([languageId, lang]) => ({ plan_type_id: id, language_id: languageId, name: type.name[lang] })));
      typeIds.set(type.key, id);
    }
    return { durationIds, typeIds };
  }

  /** Creates the platform row (version 1) and writes the rest; answers its id. */
  async create(input: CatalogPlatformInput, trx: Knex.Transaction): Promise<number> {
    const slugBase =
      input.name.en
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '') || 'platform';
    const taken = await trx('platforms').where('slug', 'like', `${slugBase}%`).pluck<string[]>('slug');
    let slug = slugBase;
    for (let n = 2; taken.includes(slug); n += 1) slug = `${slugBase}-${n}`;
    const order = await trx('platforms').max<{ max: number | null }>('sort_order as max').first();
    const insert = (candidate: string) =>
      trx('platforms')
        .insert({ ...platformColumns(input), slug: candidate, sort_order: Number(order?.max ?? 0) + 1, version: 1 })
        .onConflict('slug')
        .ignore()
        .returning<Array<{ id: number }>>('id');
    // Another admin creating the same name at the same moment took the slug: a random suffix then.
    let [row] = await insert(slug);
    row ??= (await insert(`${slug}-${randomUUID().slice(0, 8)}`))[0];
    await this.writeChildren(row!.id, input, trx);
    return row!.id;
  }

  /** Writes everything and moves the version by one. */
  async update(id: number, input: CatalogPlatformInput, trx: Knex.Transaction): Promise<void> {
    await trx('platforms')
      .where({ id })
      .update({ ...platformColumns(input), version: trx.raw('version + 1') });
    await this.writeChildren(id, input, trx);
  }

  async setEnabled(id: number, isEnabled: boolean, trx: Knex.Transaction): Promise<void> {
    await trx('platforms')
      .where({ id })
      .update({ is_enabled: isEnabled, version: trx.raw('version + 1') });
  }

  private async writeChildren(id: number, input: CatalogPlatformInput, trx: Knex.Transaction): Promise<void> {
    const { durationIds, typeIds } = await this.resolveOptions(input, trx);
    await trx('platform_texts').where({ platform_id: id }).delete();
    await trx('platform_texts').insert(
      LANGS.map(([languageId, lang]) => ({ platform_id: id, language_id: languageId, name: input.name[lang], description: input.description[lang] })),
    );
    await trx('platform_how_it_works').where({ platform_id: id }).delete();
    const points = input.howItWorks.flatMap((point, position) =>
      LANGS.map(([languageId, lang]) => ({ platform_id: id, language_id: languageId, position, text: point[lang] })),
    );
    if (points.length) await trx('platform_how_it_works').insert(points);
    await trx('platform_faq').where({ platform_id: id }).delete();
    const faq = input.faq.flatMap((item, position) =>
      LANGS.map(([languageId, lang]) => ({ platform_id: id, language_id: languageId, position, question: item.question[lang], answer: item.answer[lang] })),
    );
    if (faq.length) await trx('platform_faq').insert(faq);

    // Prices first (they reference the options), then options not kept, then upserts.
    await trx('platform_prices').where({ platform_id: id }).delete();
    await trx('platform_durations')
      .where({ platform_id: id })
      .whereNotIn('duration_id', [...durationIds.values()])
      .delete();
    await trx('platform_plan_types')
      .where({ platform_id: id })
      .whereNotIn('plan_type_id', [...typeIds.values()])
      .delete();
    for (const duration of input.durations) {
      await trx('platform_durations')
        .insert({
          platform_id: id,
          duration_id: durationIds.get(duration.key),
          is_enabled: duration.isEnabled,
          name_en: duration.name.en,
          name_ko: duration.name.ko,
        })
        .onConflict(['platform_id', 'duration_id'])
        .merge(['is_enabled', 'name_en', 'name_ko']);
    }
    for (const [position, type] of input.types.entries()) {
      await trx('platform_plan_types')
        .insert({ platform_id: id, plan_type_id: typeIds.get(type.key), is_enabled: type.isEnabled, position, name_en: type.name.en, name_ko: type.name.ko })
        .onConflict(['platform_id', 'plan_type_id'])
        .merge(['is_enabled', 'position', 'name_en', 'name_ko']);
    }
    const prices = input.prices.flatMap((price) =>
      (['EUR', 'KRW'] as const).map((currency) => {
        const pair = currency === 'EUR' ? price.eur : price.krw;
        return {
          platform_id: id,
          duration_id: durationIds.get(price.durationKey),
          plan_type_id: typeIds.get(price.typeKey),
          currency,
          price_minor: pair.price,
          sale_price_minor: pair.salePrice,
        };
      }),
    );
    if (prices.length) await trx('platform_prices').insert(prices);
  }
}

function platformColumns(input: CatalogPlatformInput) {
  return {
    category: input.category,
    logo_base: input.logoBase,
    logo_carousel: input.logoCarousel,
    color_one: input.colorOne,
    color_two: input.colorTwo,
    slots_count: input.slotsCount,
    needs_invitation: input.needsInvitation,
    is_enabled: input.isEnabled,
    // Left out, the rules stay as they are (a client that does not know them yet cannot erase them).
    ...(input.alertRules ? { alert_rules: JSON.stringify(input.alertRules) } : {}),
  };
}

function localized<T extends { language_id: number }>(rows: T[], pick: (row: T) => string, fallback: string): Localized {
  const en = rows.find((r) => r.language_id === 1);
  const ko = rows.find((r) => r.language_id === 2);
  return { en: en ? pick(en) : fallback, ko: ko ? pick(ko) : en ? pick(en) : fallback };
}
