import type { RootState } from '../../app/store';

export const selectPlatforms = (state: RootState) => state.catalog.platforms;
export const selectHomeStatus = (state: RootState) => state.catalog.homeStatus;
export const selectCurrencyCode = (state: RootState) => state.catalog.currencyCode;
export const selectSelection = (state: RootState) => state.catalog.selection;
export const selectCarouselLogos = (state: RootState) => state.catalog.carouselLogos;
export const selectCarouselItems = (state: RootState) => state.catalog.carousel.items;
export const selectPlatformById = (state: RootState, id: number) => state.catalog.platforms.find((platform) => platform.id === id);
