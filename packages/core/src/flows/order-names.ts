/**
 * What an order bought, named in a reader's language. An order keeps the names the buyer saw
 * (its items' snapshot, in the buyer's language); the buyer's panel and the staff's order lists
 * name them from the catalog in the reader's language instead, and keep the snapshot for a
 * platform, type or duration the catalog no longer sells.
 */
import type { CatalogService, LanguageId, PlatformView } from '../modules/catalog/index.js';
import type { OrderItemView, OrderView } from '../modules/orders/index.js';

/** The catalog's view of these platforms in a language; a platform no longer sold is left out (the snapshot serves). */
export async function platformsIn(catalog: CatalogService, ids: Iterable<number>, languageId: LanguageId): Promise<Map<number, PlatformView>> {
  const wanted = new Set(ids);
  if (wanted.size === 0) return new Map();
  const all = await catalog.listPlatforms(languageId);
  return new Map(all.filter((platform) => wanted.has(platform.id)).map((platform) => [platform.id, platform]));
}

/** The item's names and looks from `platform` (the catalog's, in the reader's language), else from its snapshot. */
export function namedItem(item: OrderItemView, platform: PlatformView | undefined): OrderItemView {
  if (!platform) return item;
  return {
    ...item,
    platformName: platform.name,
    platformLogoBase: platform.logoBase,
    platformColorOne: platform.colorOne,
    platformCategory: platform.category,
    typeName: platform.types.find((type) => type.id === item.typeId)?.name ?? item.typeName,
    durationName: platform.durations.find((duration) => duration.id === item.durationId)?.name ?? item.durationName,
  };
}

/** The orders with their items named in `languageId` (one catalog read for all of them). */
export async function ordersNamedIn(catalog: CatalogService, orders: OrderView[], languageId: LanguageId): Promise<OrderView[]> {
  const platforms = await platformsIn(
    catalog,
    orders.flatMap((order) => order.items.map((item) => item.platformId)),
    languageId,
  );
  return orders.map((order) => ({ ...order, items: order.items.map((item) => namedItem(item, platforms.get(item.platformId))) }));
}
