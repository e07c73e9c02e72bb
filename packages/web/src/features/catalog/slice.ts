/**
 * The catalog and the buyer's current choice (spec section 3): platforms, the current
 * currency (the server decides it and answers currencyCode), the selected platform, type and
 * duration (1 until a platform page sets them) and the home carousel.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { CurrencyCode, HomeResponse, Platform } from '../../services/api';
import { DEFAULT_CURRENCY, advanceCarousel, carouselLogosOf, createCarousel, isCurrencyCode, type CarouselLogo, type CarouselState } from './rules';

export type LoadStatus = 'idle' | 'loading' | 'loaded' | 'failed';

export interface Selection {
  platformId: number;
  typeId: number;
  durationId: number;
}

export interface CatalogState {
  platforms: Platform[];
  homeStatus: LoadStatus;
  currencyCode: CurrencyCode;
  selection: Selection;
  /** Every platform's carousel logo, in catalog order. */
  carouselLogos: CarouselLogo[];
  /** The rotating list shown on the home page. */
  carousel: CarouselState;
}

const initialState: CatalogState = {
  platforms: [],
  homeStatus: 'idle',
  currencyCode: DEFAULT_CURRENCY,
  selection: { platformId: 1, typeId: 1, durationId: 1 },
  carouselLogos: [],
  carousel: createCarousel([]),
};

const catalogSlice = createSlice({
  name: 'catalog',
  initialState,
  reducers: {
    homeRequested(state) {
      state.homeStatus = 'loading';
    },
    homeLoaded(state, action: PayloadAction<HomeResponse>) {
      const platforms = Array.isArray(action.payload.platforms) ? action.payload.platforms : [];
      state.platforms = platforms;
      state.homeStatus = 'loaded';
      if (isCurrencyCode(action.payload.currencyCode)) state.currencyCode = action.payload.currencyCode;
      state.carouselLogos = carouselLogosOf(platforms);
      state.carousel = createCarousel(state.carouselLogos);
    },
    homeFailed(state) {
      state.homeStatus = 'failed';
    },
    currencySet(state, action: PayloadAction<CurrencyCode>) {
      state.currencyCode = action.payload;
    },
    platformSelected(state, action: PayloadAction<number>) {
      state.selection.platformId = action.payload;
    },
    selectionChanged(state, action: PayloadAction<Partial<Pick<Selection, 'typeId' | 'durationId'>>>) {
      Object.assign(state.selection, action.payload);
    },
    carouselStarted() {},
    carouselStopped() {},
    carouselTicked(state) {
      state.carousel = advanceCarousel(state.carousel, state.carouselLogos);
    },
  },
});

export const { homeRequested, homeLoaded, homeFailed, currencySet, platformSelected, selectionChanged, carouselStarted, carouselStopped, carouselTicked } =
  catalogSlice.actions;
export const catalogReducer = catalogSlice.reducer;
