/** `/api/main/*`: the public calls behind the storefront shell and home page. */
import { callApi } from './calls';
import type { BusinessInfo, CurrencyCode, HomeResponse, LoginPageData } from './types';

/** The visitor's language id guessed from the country (1 English, 2 Korean). */
export function getCountry(): Promise<number> {
  return callApi('getCountry', {});
}

/**
 * Every platform of the catalog in a language. `currency` is the visitor's explicit choice
 * (answered back as `currencyCode`); without it the server picks by country.
 */
export function getHome(languageId: number, currency?: CurrencyCode): Promise<HomeResponse> {
  return callApi('getHome', { query: { languageId: languageId as 1 | 2, currency } });
}

export function getBusiness(): Promise<BusinessInfo> {
  return callApi('getBusiness', {});
}

/** KR or GLOBAL: which social button the login page offers. */
export function getLoginPageData(): Promise<LoginPageData> {
  return callApi('getLoginPageData', {});
}
