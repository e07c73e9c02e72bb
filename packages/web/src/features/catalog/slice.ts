/**
 * The catalog and the buyer's current choice (spec section 3): platforms, the current
 * currency, the platform page, the selected platform, type and duration (1 until a platform
 * page sets them) and the home carousel.
 *
 * Currency: the server decides it (KRW for Korea, EUR elsewhere: the first HTML of every page
 * names it, and home and getplatform answer it) until the visitor picks one with the switch;
 * that choice is stored, sent with every catalog call and answered back by the server. So every
 * page, whichever is opened first, shows the same currency.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { CurrencyCode, HomeResponse, Platform, PlatformResponse } from '../../services/api';
import { STORAGE_KEYS, readItem } from '../../services/storage';
import { CURRENCY_META_NAME } from '../../ssr/currencyMeta';
import {
  DEFAULT_CURRENCY,
  advanceCarousel,
  carouselLogosOf,
  createCarousel,
  firstEnabled,
  isCurrencyCode,
  type CarouselLogo,
  type CarouselState,
} from './rules';
import { loadSelection, type Selection } from './selection';

export type { Selection } from './selection';

export type LoadStatus = 'idle' | 'loading' | 'loaded' | 'failed';

/** The platform page: what /platform/{id} shows. */
export interface PlatformPageState {
  /** The id in the URL; null when no platform page is open. */
  id: number | null;
  status: LoadStatus | 'notFound';
  /** The platform shown: the server's answer, or meanwhile the copy from the home list. */
  platform: Platform | null;
  /** Set by the reducer when the page opens: false when the state was made ready before the page opened. */
  requestNeeded: boolean;
  /**
   * Made before the page opened (the data a pre-rendered page came with, or asked for before
   * the first render, see main.tsx): the first opening for this id uses it instead of asking again.
   */
  reuse: boolean;
}

export interface CatalogState {
  platforms: Platform[];
  homeStatus: LoadStatus;
  /** The currency prices are shown in. */
  currencyCode: CurrencyCode;
  /** The visitor's own choice (the switch), stored in localStorage and sent to the server; null: the server decides. */
  chosenCurrency: CurrencyCode | null;
  selection: Selection;
  /** The visitor changed an option on the current platform page (a reload of the same platform keeps it). */
  selectionTouched: boolean;
  page: PlatformPageState;
  /** Every platform's carousel logo, in catalog order. */
  carouselLogos: CarouselLogo[];
  /** The rotating list shown on the home page. */
  carousel: CarouselState;
}

/** The currency the server chose for this visitor, as the first HTML names it (none on the server itself). */
function serverCurrency(): CurrencyCode | null {
  if (typeof document === 'undefined') return null;
  const named = document.querySelector(`meta[name="${CURRENCY_META_NAME}"]`)?.getAttribute('content');
  return isCurrencyCode(named) ? named : null;
}

function initialState(): CatalogState {
  const stored = readItem(STORAGE_KEYS.currency);
  const chosenCurrency = isCurrencyCode(stored) ? stored : null;
  return {
    platforms: [],
    homeStatus: 'idle',
    currencyCode: chosenCurrency ?? serverCurrency() ?? DEFAULT_CURRENCY,
    chosenCurrency,
    selection: loadSelection(),
    selectionTouched: false,
    page: { id: null, status: 'idle', platform: null, requestNeeded: false, reuse: false },
    carouselLogos: [],
    carousel: createCarousel([]),
  };
}

/** Keeps a valid choice (same platform, options still enabled); otherwise the first enabled type and duration. */
function preselect(state: CatalogState, platform: Platform, keepChoice: boolean): void {
  const { selection } = state;
  const valid =
    keepChoice &&
    selection.platformId === platform.id &&
    platform.type.some((type) => type.id === selection.typeId && type.isEnable) &&
    platform.duration.some((duration) => duration.id === selection.durationId && duration.isEnable);
  if (valid) return;
  state.selection = {
    platformId: platform.id,
    typeId: firstEnabled(platform.type)?.id ?? selection.typeId,
    durationId: firstEnabled(platform.duration)?.id ?? selection.durationId,
  };
  state.selectionTouched = false;
}

function sameLogos(a: readonly CarouselLogo[], b: readonly CarouselLogo[]): boolean {
  return (
    a.length === b.length && a.every((logo, index) => logo.platformId === b[index]!.platformId && logo.logo === b[index]!.logo && logo.name === b[index]!.name)
  );
}

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
      const logos = carouselLogosOf(platforms);
      // A reload in another currency keeps the carousel turning where it was.
      if (!sameLogos(logos, state.carouselLogos)) {
        state.carouselLogos = logos;
        state.carousel = createCarousel(logos);
      }
    },
    homeFailed(state) {
      state.homeStatus = 'failed';
    },
    /** The currency the server chose for the visitor (rendering a page on the server): shown unless they chose one. */
    currencyDecided(state, action: PayloadAction<CurrencyCode>) {
      if (!state.chosenCurrency) state.currencyCode = action.payload;
    },
    /** The currency switch: stored and sent to the server from now on (catalog saga). */
    currencyChosen(state, action: PayloadAction<CurrencyCode>) {
      state.chosenCurrency = action.payload;
      state.currencyCode = action.payload;
    },

    /** /platform/{id} opened; `id` is null for a malformed id (not found without asking). */
    platformPageOpened(state, action: PayloadAction<number | null>) {
      const id = action.payload;
      const { page } = state;
      if (id === null) {
        state.page = { id: null, status: 'notFound', platform: null, requestNeeded: false, reuse: false };
        return;
      }
      if (page.reuse && page.id === id) {
        // Ready since before the page opened (rendered by the server): shown as it is, no second
        // request. Unless a reload was asked for meanwhile (a stored currency applied once the
        // page hydrated): opening cancels that request (takeLatest), so the page asks again.
        page.reuse = false;
        page.requestNeeded = page.status === 'loading';
        return;
      }
      // Meanwhile the home list's copy is shown (the loading overlay covers it until the answer).
      const cached = state.platforms.find((platform) => platform.id === id) ?? null;
      state.page = { id, status: 'loading', platform: cached, requestNeeded: true, reuse: false };
      state.selection.platformId = id;
      if (cached) preselect(state, cached, false);
      state.selectionTouched = false;
    },
    platformPageClosed(state) {
      state.page = { id: null, status: 'idle', platform: null, requestNeeded: false, reuse: false };
    },
    /** The same platform again (another currency, or a retry after a failure): the choice is kept. */
    platformRefreshRequested(state) {
      if (state.page.id !== null) state.page.status = 'loading';
    },
    platformLoaded(state, action: PayloadAction<PlatformResponse>) {
      const { platform, currencyCode } = action.payload;
      // A late answer for a page the visitor already left changes nothing.
      if (state.page.id !== platform.id) return;
      const keepChoice = state.selectionTouched || state.page.platform !== null;
      state.page = { id: platform.id, status: 'loaded', platform, requestNeeded: false, reuse: state.page.reuse };
      if (isCurrencyCode(currencyCode)) state.currencyCode = currencyCode;
      preselect(state, platform, keepChoice);
    },
    /** Asked for before the first render (main.tsx), while the pre-rendered page stays on screen. */
    platformPrefetchRequested(state, action: PayloadAction<number>) {
      state.page = { id: action.payload, status: 'loading', platform: null, requestNeeded: false, reuse: true };
      state.selection.platformId = action.payload;
      state.selectionTouched = false;
    },
    /** The platform came with the page's HTML (app/serverData.ts); the page's opening then asks nothing. */
    platformPreloaded(state, action: PayloadAction<PlatformResponse>) {
      const { platform, currencyCode } = action.payload;
      state.page = { id: platform.id, status: 'loaded', platform, requestNeeded: false, reuse: true };
      if (isCurrencyCode(currencyCode)) state.currencyCode = currencyCode;
      preselect(state, platform, false);
    },
    platformNotFound(state) {
      state.page = { ...state.page, status: 'notFound', platform: null };
    },
    platformFailed(state) {
      state.page.status = 'failed';
    },

    /** Spec: changing the type or the duration stores it for the payment page. */
    selectionChanged(state, action: PayloadAction<Partial<Pick<Selection, 'typeId' | 'durationId'>>>) {
      Object.assign(state.selection, action.payload);
      state.selectionTouched = true;
    },
    /** The go-to-payment button: the saga stores the choice and opens /payment. */
    paymentRequested() {},

    carouselStarted() {},
    carouselStopped() {},
    carouselTicked(state) {
      state.carousel = advanceCarousel(state.carousel, state.carouselLogos);
    },
  },
});

export const {
  homeRequested,
  homeLoaded,
  homeFailed,
  currencyChosen,
  currencyDecided,
  platformPageOpened,
  platformPageClosed,
  platformRefreshRequested,
  platformLoaded,
  platformPreloaded,
  platformPrefetchRequested,
  platformNotFound,
  platformFailed,
  selectionChanged,
  paymentRequested,
  carouselStarted,
  carouselStopped,
  carouselTicked,
} = catalogSlice.actions;
export const catalogReducer = catalogSlice.reducer;
