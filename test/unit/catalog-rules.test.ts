import { expect } from 'chai';
import {
  CAROUSEL_FIXED_SLOTS,
  CAROUSEL_INTERVAL_MS,
  CAROUSEL_MAX_ITEMS,
  advanceCarousel,
  canRotate,
  carouselLogosOf,
  createCarousel,
  discountPercent,
  formatAmount,
  formatPrice,
  minMonthlyPrice,
  monthlyPrice,
  regularPrice,
  roundToCurrency,
  salePrice,
  type CarouselLogo,
  type CarouselState,
} from '../../packages/web/src/features/catalog/rules.js';
import type { Platform, PlatformPrice } from '../../packages/web/src/services/api/types.js';

const EUR = 1;
const KRW = 2;

/** One duration × type price: regular and sale price per currency id. */
function price(durationId: number, typeId: number, eur: [number, number], krw: [number, number]): PlatformPrice {
  return {
    durationId,
    typeId,
    price: [
      { currencyId: EUR, price: eur[0] },
      { currencyId: KRW, price: krw[0] },
    ],
    salePrice: [
      { currencyId: EUR, price: eur[1] },
      { currencyId: KRW, price: krw[1] },
    ],
  };
}

function platform(overrides: Partial<Platform> = {}): Platform {
  return {
    id: 7,
    name: 'Testflix',
    description: '',
    logoBase: '/media/platforms/testflix.svg',
    logoCarousel: '/media/platforms/testflix-carousel.svg',
    colorOne: '#111111',
    colorTwo: '#4338ca',
    howItWorks: [],
    duration: [
      { id: 1, name: '1 month', value: 1, isEnable: true },
      { id: 2, name: '3 months', value: 3, isEnable: true },
      { id: 3, name: '6 months', value: 6, isEnable: true },
      { id: 4, name: '12 months', value: 12, isEnable: true },
    ],
    type: [
      { id: 1, name: 'Standard', isEnable: true },
      { id: 2, name: 'Premium', isEnable: true },
    ],
    prices: [
      price(1, 1, [3.99, 3.59], [5900, 5300]),
      price(2, 1, [11.97, 10.19], [17700, 17900]),
      price(3, 1, [23.94, 19.19], [35400, 28300]),
      price(4, 1, [47.88, 35.99], [70800, 53100]),
      price(1, 2, [5.99, 5.39], [8900, 8000]),
      price(2, 2, [17.97, 15.29], [26700, 22700]),
      price(3, 2, [35.94, 28.79], [53400, 42700]),
      price(4, 2, [71.88, 53.99], [106800, 80100]),
    ],
    faq: [],
    slotsCount: 5,
    platformType: 0,
    haveInvitation: false,
    offSale: false,
    ...overrides,
  };
}

function logos(count: number): CarouselLogo[] {
  return Array.from({ length: count }, (_, index) => ({ platformId: index + 1, name: `P${index + 1}`, logo: `/media/p${index + 1}.svg` }));
}

const ids = (state: CarouselState) => state.items.map((item) => item.platformId);

describe('catalog rules (spec section 9)', () => {
  describe('monthly price', () => {
    it('is the sale price of the chosen duration and type in the current currency, divided by the months', () => {
      const p = platform();
      expect(salePrice(p, 2, 1, 'EUR')).to.equal(10.19);
      expect(monthlyPrice(p, 2, 1, 'EUR')).to.equal(3.4); // 10.19 / 3 = 3.3966…
      expect(monthlyPrice(p, 4, 2, 'EUR')).to.equal(4.5); // 53.99 / 12 = 4.4991…
      expect(monthlyPrice(p, 1, 2, 'EUR')).to.equal(5.39);
      expect(monthlyPrice(p, 3, 1, 'KRW')).to.equal(4717); // 28300 / 6 = 4716.66…
    });

    it('matches duration, type and currency id, never a neighbour', () => {
      const p = platform();
      expect(monthlyPrice(p, 3, 2, 'EUR')).to.equal(4.8); // 28.79 / 6 = 4.798…
      expect(monthlyPrice(p, 3, 2, 'KRW')).to.equal(7117); // 42700 / 6 = 7116.66…
      expect(salePrice(p, 2, 2, 'KRW')).to.equal(22700);
    });

    it('falls back to the regular price when a currency has no sale price, and is null without any price', () => {
      const p = platform({ prices: [{ durationId: 1, typeId: 1, price: [{ currencyId: EUR, price: 4 }], salePrice: [] }] });
      expect(salePrice(p, 1, 1, 'EUR')).to.equal(4);
      expect(monthlyPrice(p, 1, 1, 'EUR')).to.equal(4);
      expect(salePrice(p, 1, 1, 'KRW')).to.equal(null);
      expect(monthlyPrice(p, 2, 1, 'EUR')).to.equal(null);
      expect(monthlyPrice(p, 1, 1, 'KRW')).to.equal(null);
    });

    it('is null for a duration of zero months or an unknown duration', () => {
      const p = platform();
      p.duration[0]!.value = 0;
      expect(monthlyPrice(p, 1, 1, 'EUR')).to.equal(null);
      expect(monthlyPrice(p, 99, 1, 'EUR')).to.equal(null);
    });

    it('shows the regular price and the discount beside the sale price', () => {
      const p = platform();
      expect(regularPrice(p, 4, 1, 'EUR')).to.equal(47.88);
      expect(discountPercent(47.88, 35.99)).to.equal(25);
      expect(discountPercent(3.99, 3.99)).to.equal(0);
      expect(discountPercent(null, 3.99)).to.equal(0);
      // A "sale" above the regular price is no discount.
      expect(discountPercent(17700, 17900)).to.equal(0);
    });
  });

  describe('home minimum monthly price', () => {
    it('uses the first duration, when it is enabled, in the current currency', () => {
      const p = platform();
      expect(minMonthlyPrice(p, 'EUR')).to.equal(3.59);
      expect(minMonthlyPrice(p, 'KRW')).to.equal(5300);
    });

    it('skips disabled durations: the first ENABLED one decides, even when a later one is cheaper per month', () => {
      const p = platform();
      p.duration[0]!.isEnable = false; // 1 month off → 3 months: 10.19 / 3
      expect(minMonthlyPrice(p, 'EUR')).to.equal(3.4);
      expect(minMonthlyPrice(p, 'KRW')).to.equal(5967); // 17900 / 3 = 5966.66…
      // 12 months (35.99 / 12 = 3.00) would be cheaper, but it is not the first enabled duration.
      expect(monthlyPrice(p, 4, 1, 'EUR')).to.be.below(minMonthlyPrice(p, 'EUR')!);
    });

    it('follows the catalog order of durations, not their length', () => {
      const p = platform();
      p.duration = [p.duration[2]!, p.duration[0]!, p.duration[1]!, p.duration[3]!]; // 6 months listed first
      expect(minMonthlyPrice(p, 'EUR')).to.equal(3.2); // 19.19 / 6 = 3.198…
    });

    it('takes the first enabled type too', () => {
      const p = platform();
      p.type[0]!.isEnable = false;
      expect(minMonthlyPrice(p, 'EUR')).to.equal(5.39);
    });

    it('is null when nothing is enabled', () => {
      const noDuration = platform();
      noDuration.duration.forEach((duration) => (duration.isEnable = false));
      expect(minMonthlyPrice(noDuration, 'EUR')).to.equal(null);
      const noType = platform();
      noType.type.forEach((type) => (type.isEnable = false));
      expect(minMonthlyPrice(noType, 'EUR')).to.equal(null);
    });
  });

  describe('currencies', () => {
    it('rounds KRW to whole won and EUR to cents', () => {
      expect(roundToCurrency(5966.666, 'KRW')).to.equal(5967);
      expect(roundToCurrency(4716.5, 'KRW')).to.equal(4717);
      expect(roundToCurrency(4716.49, 'KRW')).to.equal(4716);
      expect(roundToCurrency(3.3966, 'EUR')).to.equal(3.4);
      expect(roundToCurrency(1.005, 'EUR')).to.equal(1.01);
      expect(Number.isInteger(monthlyPrice(platform(), 2, 1, 'KRW'))).to.equal(true);
    });

    it('formats KRW without decimals and EUR with two, in the language of the page', () => {
      expect(formatAmount(5966.666, 'KRW', 'ko')).to.equal('5,967');
      expect(formatAmount(5966.666, 'KRW', 'en')).to.equal('5,967');
      expect(formatAmount(106800, 'KRW', 'en')).to.equal('106,800');
      expect(formatAmount(3.4, 'EUR', 'en')).to.equal('3.40');
      expect(formatAmount(5, 'EUR', 'ko')).to.equal('5.00');
      expect(formatAmount(1234.5, 'EUR', 'en')).to.equal('1,234.50');
      expect(formatPrice(53100, 'KRW', 'ko')).to.equal('₩53,100');
      expect(formatPrice(53100, 'KRW', 'en')).to.equal('₩53,100');
      expect(formatPrice(35.99, 'EUR', 'en')).to.equal('€35.99');
      expect(formatPrice(5966.666, 'KRW', 'ko')).to.equal('₩5,967');
    });

    it('writes numbers as Intl.NumberFormat does for both interface languages', () => {
      for (const locale of ['en', 'ko']) {
        for (const amount of [0, 0.5, 3.4, 9.999, 999.995, 1234.5, 12345678.9, 106800, 5966.666]) {
          for (const [code, digits] of [
            ['EUR', 2],
            ['KRW', 0],
          ] as const) {
            const intl = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(roundToCurrency(amount, code));
            expect(formatAmount(amount, code, locale), `${locale} ${code} ${amount}`).to.equal(intl);
          }
        }
      }
    });
  });

  describe('home logo carousel', () => {
    it('rotates every 3500 ms and keeps at most 20 items behind 4 fixed slots', () => {
      expect(CAROUSEL_INTERVAL_MS).to.equal(3500);
      expect(CAROUSEL_MAX_ITEMS).to.equal(20);
      expect(CAROUSEL_FIXED_SLOTS).to.equal(4);
    });

    it('starts with the first four logos in the fixed slots, in catalog order', () => {
      const state = createCarousel(logos(6));
      expect(ids(state)).to.deep.equal([1, 2, 3, 4]);
      expect(state.nextIndex).to.equal(4);
      expect(canRotate(logos(6))).to.equal(true);
    });

    it('does not rotate with four logos or fewer', () => {
      expect(ids(createCarousel(logos(3)))).to.deep.equal([1, 2, 3]);
      expect(canRotate(logos(4))).to.equal(false);
      expect(canRotate(logos(0))).to.equal(false);
      const empty = createCarousel([]);
      expect(advanceCarousel(empty, [])).to.equal(empty);
    });

    it('appends the next logo on each rotation, and the index wraps at the end of the logo list', () => {
      const list = logos(6);
      let state = createCarousel(list);
      state = advanceCarousel(state, list); // 5
      state = advanceCarousel(state, list); // 6, then wraps
      expect(ids(state)).to.deep.equal([1, 2, 3, 4, 5, 6]);
      expect(state.nextIndex).to.equal(0);
      state = advanceCarousel(state, list);
      state = advanceCarousel(state, list);
      expect(ids(state)).to.deep.equal([1, 2, 3, 4, 5, 6, 1, 2]);
      expect(state.nextIndex).to.equal(2);
      // The newest four are the visible slots.
      expect(ids(state).slice(-CAROUSEL_FIXED_SLOTS)).to.deep.equal([5, 6, 1, 2]);
    });

    it('caps the list at 20 items by dropping the oldest', () => {
      const list = logos(6);
      let state = createCarousel(list);
      for (let tick = 0; tick < 16; tick++) state = advanceCarousel(state, list);
      expect(state.items).to.have.length(20);
      expect(state.items[0]!.platformId).to.equal(1);
      state = advanceCarousel(state, list);
      expect(state.items).to.have.length(20);
      // 21 logos went in (4 + 17 rotations): the very first one is gone.
      expect(state.items[0]!.key).to.equal(1);
      for (let tick = 0; tick < 50; tick++) state = advanceCarousel(state, list);
      expect(state.items).to.have.length(20);
      // Keys stay unique, so the view can key and animate every item.
      expect(new Set(state.items.map((item) => item.key)).size).to.equal(20);
      const last = state.items[state.items.length - 1]!;
      expect(last.key).to.equal(state.nextKey - 1);
    });

    it('takes the carousel logo of each platform, else its base logo, and leaves out platforms without one', () => {
      const withCarousel = platform({ id: 1, logoCarousel: '/c.svg' });
      const withBase = platform({ id: 2, logoCarousel: '', logoBase: '/b.svg' });
      const withNone = platform({ id: 3, logoCarousel: '', logoBase: '' });
      expect(carouselLogosOf([withCarousel, withBase, withNone])).to.deep.equal([
        { platformId: 1, name: 'Testflix', logo: '/c.svg' },
        { platformId: 2, name: 'Testflix', logo: '/b.svg' },
      ]);
    });
  });
});
