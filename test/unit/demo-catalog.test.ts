import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { DEMO_DURATIONS, DEMO_LANGUAGE_IDS, DEMO_PLAN_TYPES, DEMO_PLATFORMS, type DemoPlatform } from '../../packages/core/src/modules/catalog/demo-catalog.js';
import { PLATFORM_CATEGORY } from '../../packages/core/src/modules/catalog/catalog.types.js';

const MEDIA_DIR = fileURLToPath(new URL('../../packages/http/media/', import.meta.url));
const LANGUAGES = Object.keys(DEMO_LANGUAGE_IDS) as Array<keyof typeof DEMO_LANGUAGE_IDS>;

/** WCAG 2 relative luminance of a `#rrggbb` colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrastWithWhite(hex: string): number {
  return 1.05 / (luminance(hex) + 0.05);
}

function enabledPairs(platform: DemoPlatform): Array<{ durationId: number; planTypeId: number }> {
  return platform.durations
    .filter((d) => d.isEnabled)
    .flatMap((d) => platform.planTypes.filter((t) => t.isEnabled).map((t) => ({ durationId: d.durationId, planTypeId: t.planTypeId })));
}

function monthsOf(durationId: number): number {
  const duration = DEMO_DURATIONS.find((d) => d.id === durationId);
  if (!duration) throw new Error(`unknown duration ${durationId}`);
  return duration.months;
}

function mediaFile(url: string): string {
  expect(url).to.match(/^\/media\//);
  return MEDIA_DIR + url.slice('/media/'.length);
}

describe('demo catalog data', () => {
  it('has durations 1, 3, 6 and 12 months with ids 1 to 4', () => {
    expect(DEMO_DURATIONS.map((d) => [d.id, d.months])).to.deep.equal([
      [1, 1],
      [2, 3],
      [3, 6],
      [4, 12],
    ]);
  });

  it('has at least two plan types, each named in English and Korean', () => {
    expect(DEMO_PLAN_TYPES.length).to.be.at.least(2);
    expect(new Set(DEMO_PLAN_TYPES.map((t) => t.code)).size).to.equal(DEMO_PLAN_TYPES.length);
    for (const type of DEMO_PLAN_TYPES) {
      expect(type.names.en, type.code).to.be.a('string').and.not.be.empty;
      expect(type.names.ko, type.code).to.match(/[\uac00-\ud7a3]/);
    }
  });

  it('has at least six platforms with unique ids, slugs and sort orders', () => {
    expect(DEMO_PLATFORMS.length).to.be.at.least(6);
    expect(new Set(DEMO_PLATFORMS.map((p) => p.id)).size).to.equal(DEMO_PLATFORMS.length);
    expect(new Set(DEMO_PLATFORMS.map((p) => p.slug)).size).to.equal(DEMO_PLATFORMS.length);
    expect(new Set(DEMO_PLATFORMS.map((p) => p.sortOrder)).size).to.equal(DEMO_PLATFORMS.length);
    for (const p of DEMO_PLATFORMS) expect(p.slug).to.match(/^[a-z0-9-]+$/);
  });

  it('covers video streaming (at least two), music and AI chat', () => {
    const count = (category: number) => DEMO_PLATFORMS.filter((p) => p.category === category).length;
    expect(count(PLATFORM_CATEGORY.videoStreaming)).to.be.at.least(2);
    expect(count(PLATFORM_CATEGORY.music)).to.be.at.least(1);
    expect(count(PLATFORM_CATEGORY.aiChat)).to.be.at.least(1);
    for (const p of DEMO_PLATFORMS) expect([0, 1, 8]).to.include(p.category);
  });

  it('has exactly one platform that needs a family invitation', () => {
    const invitation = DEMO_PLATFORMS.filter((p) => p.needsInvitation);
    expect(invitation).to.have.length(1);
    expect([PLATFORM_CATEGORY.videoStreaming, PLATFORM_CATEGORY.music]).to.include(invitation[0].category);
  });

  it('varies slot counts from a whole account (1) up to 6', () => {
    const slots = DEMO_PLATFORMS.map((p) => p.slotsCount);
    expect(slots).to.include(1);
    expect(new Set(slots).size).to.be.at.least(4);
    for (const s of slots) expect(s).to.be.within(1, 6);
    for (const p of DEMO_PLATFORMS) expect(p.maxQuantity).to.be.within(1, 10);
  });

  it('has English and Korean names and descriptions for every platform', () => {
    for (const p of DEMO_PLATFORMS) {
      for (const lang of LANGUAGES) {
        expect(p.texts[lang].name, `${p.slug} ${lang}`).to.be.a('string').and.not.be.empty;
        expect(p.texts[lang].description.length, `${p.slug} ${lang}`).to.be.above(40);
      }
      expect(p.texts.ko.name, p.slug).to.match(/[\uac00-\ud7a3]/);
      expect(p.texts.ko.description, p.slug).to.match(/[\uac00-\ud7a3]/);
      expect(p.texts.en.description, p.slug).not.to.match(/[\uac00-\ud7a3]/);
    }
  });

  it('has 3 to 4 how-it-works points in each language', () => {
    for (const p of DEMO_PLATFORMS) {
      for (const lang of LANGUAGES) {
        expect(p.howItWorks[lang].length, `${p.slug} ${lang}`).to.be.within(3, 4);
        for (const text of p.howItWorks[lang]) expect(text).not.to.be.empty;
      }
      expect(p.howItWorks.en.length, p.slug).to.equal(p.howItWorks.ko.length);
    }
  });

  it('has a 2 to 4 entry FAQ for every platform but exactly one, which has none', () => {
    const withoutFaq = DEMO_PLATFORMS.filter((p) => p.faq.en.length === 0 && p.faq.ko.length === 0);
    expect(withoutFaq).to.have.length(1);
    for (const p of DEMO_PLATFORMS) {
      if (withoutFaq.includes(p)) continue;
      for (const lang of LANGUAGES) {
        expect(p.faq[lang].length, `${p.slug} ${lang}`).to.be.within(2, 4);
        for (const entry of p.faq[lang]) {
          expect(entry.question).not.to.be.empty;
          expect(entry.answer).not.to.be.empty;
        }
      }
      expect(p.faq.en.length, p.slug).to.equal(p.faq.ko.length);
    }
  });

  it('lists every duration for every platform, with at least one disabled somewhere', () => {
    for (const p of DEMO_PLATFORMS) {
      expect(p.durations.map((d) => d.durationId).sort(), p.slug).to.deep.equal(DEMO_DURATIONS.map((d) => d.id));
      expect(
        p.durations.some((d) => d.isEnabled),
        p.slug,
      ).to.equal(true);
    }
    expect(DEMO_PLATFORMS.some((p) => p.durations.some((d) => !d.isEnabled))).to.equal(true);
  });

  it('uses known plan types, with at least one disabled somewhere', () => {
    const typeIds = DEMO_PLAN_TYPES.map((t) => t.id);
    for (const p of DEMO_PLATFORMS) {
      expect(p.planTypes.length, p.slug).to.be.at.least(1);
      expect(
        p.planTypes.some((t) => t.isEnabled),
        p.slug,
      ).to.equal(true);
      for (const t of p.planTypes) expect(typeIds).to.include(t.planTypeId);
    }
    expect(DEMO_PLATFORMS.some((p) => p.planTypes.some((t) => !t.isEnabled))).to.equal(true);
  });

  it('prices every enabled duration × type in EUR and KRW', () => {
    for (const p of DEMO_PLATFORMS) {
      for (const pair of enabledPairs(p)) {
        for (const currency of ['EUR', 'KRW'] as const) {
          const prices = p.prices.filter((x) => x.durationId === pair.durationId && x.planTypeId === pair.planTypeId && x.currency === currency);
          expect(prices, `${p.slug} duration ${pair.durationId} type ${pair.planTypeId} ${currency}`).to.have.length(1);
        }
      }
    }
  });

  it('prices only options the platform lists, once each', () => {
    for (const p of DEMO_PLATFORMS) {
      const keys = p.prices.map((x) => `${x.durationId}/${x.planTypeId}/${x.currency}`);
      expect(new Set(keys).size, p.slug).to.equal(keys.length);
      for (const price of p.prices) {
        expect(p.durations.map((d) => d.durationId)).to.include(price.durationId);
        expect(p.planTypes.map((t) => t.planTypeId)).to.include(price.planTypeId);
      }
    }
  });

  it('has positive integer prices, sale never above the price, KRW in whole hundreds', () => {
    for (const p of DEMO_PLATFORMS) {
      for (const price of p.prices) {
        const label = `${p.slug} ${price.durationId}/${price.planTypeId} ${price.currency}`;
        expect(Number.isSafeInteger(price.priceMinor), label).to.equal(true);
        expect(Number.isSafeInteger(price.salePriceMinor), label).to.equal(true);
        expect(price.salePriceMinor, label).to.be.above(0);
        expect(price.salePriceMinor, label).to.be.at.most(price.priceMinor);
        if (price.currency === 'KRW') {
          expect(price.priceMinor % 100, label).to.equal(0);
          expect(price.salePriceMinor % 100, label).to.equal(0);
        }
      }
    }
  });

  it('is cheaper per month for longer durations, and KRW and EUR are in a realistic ratio', () => {
    for (const p of DEMO_PLATFORMS) {
      for (const type of p.planTypes) {
        for (const currency of ['EUR', 'KRW'] as const) {
          const perMonth = p.prices
            .filter((x) => x.planTypeId === type.planTypeId && x.currency === currency)
            .sort((a, b) => monthsOf(a.durationId) - monthsOf(b.durationId))
            .map((x) => x.salePriceMinor / monthsOf(x.durationId));
          for (let i = 1; i < perMonth.length; i++) expect(perMonth[i], `${p.slug} type ${type.planTypeId} ${currency}`).to.be.below(perMonth[i - 1]);
        }
      }
      for (const eur of p.prices.filter((x) => x.currency === 'EUR')) {
        const krw = p.prices.find((x) => x.currency === 'KRW' && x.durationId === eur.durationId && x.planTypeId === eur.planTypeId);
        if (!krw) throw new Error(`${p.slug}: no KRW price next to ${eur.durationId}/${eur.planTypeId}`);
        const wonPerEuro = krw.salePriceMinor / (eur.salePriceMinor / 100);
        expect(wonPerEuro, p.slug).to.be.within(1100, 1800);
      }
    }
  });

  it('uses valid colours, with white text readable on color_two (WCAG AA) and on color_one', () => {
    for (const p of DEMO_PLATFORMS) {
      expect(p.colorOne, p.slug).to.match(/^#[0-9a-f]{6}$/i);
      expect(p.colorTwo, p.slug).to.match(/^#[0-9a-f]{6}$/i);
      expect(contrastWithWhite(p.colorTwo), `${p.slug} color_two`).to.be.at.least(4.5);
      expect(contrastWithWhite(p.colorOne), `${p.slug} color_one`).to.be.at.least(4.5);
    }
  });

  it('points at logo files that exist, are small SVGs and load nothing external', () => {
    for (const p of DEMO_PLATFORMS) {
      expect(p.logoBase).to.equal(`/media/platforms/${p.slug}.svg`);
      expect(p.logoCarousel).to.equal(`/media/platforms/${p.slug}-carousel.svg`);
      for (const url of [p.logoBase, p.logoCarousel]) {
        const file = mediaFile(url);
        expect(existsSync(file), file).to.equal(true);
        expect(statSync(file).size, file).to.be.below(4096);
        const svg = readFileSync(file, 'utf8');
        expect(svg, file).to.match(/^<svg [^>]*viewBox="[\d. ]+"/);
        expect(svg.replace('xmlns="http://www.w3.org/2000/svg"', ''), file).not.to.match(/https?:|@import|<image|<script/i);
      }
    }
  });

  it('ships a lightweight hero illustration', () => {
    const file = mediaFile('/media/hero.svg');
    expect(existsSync(file)).to.equal(true);
    expect(statSync(file).size).to.be.below(6 * 1024);
    const svg = readFileSync(file, 'utf8');
    expect(svg).to.match(/^<svg [^>]*viewBox=/);
    expect(svg.replace('xmlns="http://www.w3.org/2000/svg"', '')).not.to.match(/https?:|@import|<image|<script/i);
  });
});
