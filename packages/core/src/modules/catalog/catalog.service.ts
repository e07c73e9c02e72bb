/**
 * The catalog as buyers see it: platforms in one language with their options and prices.
 * Reads are served from a per-process cache, because every storefront page asks for the
 * catalog and it changes only when staff edit it.
 */
import { inject, injectable } from 'inversify';
import { NotFoundError } from '../../shared/errors.js';
import { isCurrencyCode, money, type Money } from '../../shared/money.js';
import { PlatformRepository } from './platform.repository.js';
import type { PlatformModel } from './models/platform.model.js';
import type { LanguageId, PlatformView } from './catalog.types.js';

const CACHE_TTL_MS = 60_000;

export function durationName(months: number, languageId: LanguageId): string {
  if (languageId === 2) return `${months}개월`;
  return months === 1 ? '1 Month' : `${months} Months`;
}

@injectable()
export class CatalogService {
  private cache = new Map<LanguageId, { at: number; platforms: PlatformView[] }>();

  constructor(@inject(PlatformRepository) private readonly platforms: PlatformRepository) {}

  /** Every enabled platform, in display order. */
  async listPlatforms(languageId: LanguageId): Promise<PlatformView[]> {
    const cached = this.cache.get(languageId);
    if (cached && Date.now() - cached.at < CACHE_TTL_MS) return cached.platforms;
    const [models, months, typeNames] = await Promise.all([this.platforms.findAllEnabled(), this.platforms.durationMonths(), this.platforms.planTypeNames()]);
    const views = models.map((model) => toView(model, languageId, months, typeNames));
    this.cache.set(languageId, { at: Date.now(), platforms: views });
    return views;
  }

  async getPlatform(id: number, languageId: LanguageId): Promise<PlatformView> {
    const platform = (await this.listPlatforms(languageId)).find((candidate) => candidate.id === id);
    if (!platform) throw new NotFoundError('This platform does not exist.', 'platform_not_found');
    return platform;
  }

  /** Called after any catalog change so that the next read sees it. */
  invalidate(): void {
    this.cache.clear();
  }
}

function toView(model: PlatformModel, languageId: LanguageId, months: Map<number, number>, typeNames: Map<string, string>): PlatformView {
  const text = model.texts?.find((candidate) => candidate.language_id === languageId) ?? model.texts?.find((candidate) => candidate.language_id === 1);
  const inLanguage = <T extends { language_id: number }>(rows: T[] | undefined) => (rows ?? []).filter((row) => row.language_id === languageId);

  const durations = (model.durations ?? [])
    .map((row) => ({ id: row.duration_id, months: months.get(row.duration_id) ?? 0, isEnabled: row.is_enabled }))
    .sort((a, b) => a.months - b.months)
    .map((row) => ({ ...row, name: durationName(row.months, languageId) }));

  const types = [...(model.planTypes ?? [])]
    .sort((a, b) => a.position - b.position || a.plan_type_id - b.plan_type_id)
    .map((row) => ({
      id: row.plan_type_id,
      name: typeNames.get(`${row.plan_type_id}:${languageId}`) ?? typeNames.get(`${row.plan_type_id}:1`) ?? String(row.plan_type_id),
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
  };
}
