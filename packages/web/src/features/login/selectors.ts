import { injectedLoginSlice } from './slice';

// Read through the injected slice: before the slice's first action they answer its initial state.
export const { selectStep, selectLoginEmail, selectPending, selectCountry, selectProviders, selectPageOpen } = injectedLoginSlice.selectors;
