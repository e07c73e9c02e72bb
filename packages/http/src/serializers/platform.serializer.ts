/**
 * A platform in the spec's wire shape (section 3): prices as decimal major units per
 * currency id, options with `isEnable`, texts in the requested language.
 */
import { CURRENCIES, toMajorUnits, type Money, type PlatformView } from '@subshare/core';

const priceList = (prices: Money[]) => prices.map((price) => ({ currencyId: CURRENCIES[price.currency].id, price: toMajorUnits(price) }));

export function serializePlatform(platform: PlatformView) {
  return {
    id: platform.id,
    name: platform.name,
    description: platform.description,
    logoBase: platform.logoBase,
    logoCarousel: platform.logoCarousel,
    colorOne: platform.colorOne,
    colorTwo: platform.colorTwo,
    howItWorks: platform.howItWorks,
    duration: platform.durations.map((duration) => ({ id: duration.id, name: duration.name, value: duration.months, isEnable: duration.isEnabled })),
    type: platform.types.map((type) => ({ id: type.id, name: type.name, isEnable: type.isEnabled })),
    prices: platform.prices.map((price) => ({
      durationId: price.durationId,
      typeId: price.typeId,
      price: priceList(price.price),
      salePrice: priceList(price.salePrice),
    })),
    faq: platform.faq,
    slotsCount: platform.slotsCount,
    // Beyond the spec: what the panel and payment page need to know about the platform.
    platformType: platform.category,
    haveInvitation: platform.needsInvitation,
    offSale: platform.offSale,
  };
}
