import type { RootState } from '../../app/store';

export const selectPlatforms = (state: RootState) => state.catalog.platforms;
export const selectHomeStatus = (state: RootState) => state.catalog.homeStatus;
export const selectCurrencyCode = (state: RootState) => state.catalog.currencyCode;
/** The currency to send to the server: the visitor's choice, or undefined to let the server decide. */
export const selectRequestedCurrency = (state: RootState) => state.catalog.chosenCurrency ?? undefined;
export const selectSelection = (state: RootState) => state.catalog.selection;
export const selectPlatformPage = (state: RootState) => state.catalog.page;
export const selectCarouselLogos = (state: RootState) => state.catalog.carouselLogos;
export const selectCarouselItems = (state: RootState) => state.catalog.carousel.items;
