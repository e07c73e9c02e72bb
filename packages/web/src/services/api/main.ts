/** `/api/main/*`: the public calls behind the storefront shell and home page. */
import { apiGet } from './client';
import type { BusinessInfo, HomeResponse, LoginPageData } from './types';

/** The visitor's language id guessed from the country (1 English, 2 Korean). */
export function getCountry(): Promise<number> {
  return apiGet<number>('/api/main/getcountry');
}

export function getHome(languageId: number): Promise<HomeResponse> {
  return apiGet<HomeResponse>('/api/main/home', { languageId });
}

export function getBusiness(): Promise<BusinessInfo> {
  return apiGet<BusinessInfo>('/api/main/business');
}

/** KR or GLOBAL: which social button the login page offers. */
export function getLoginPageData(): Promise<LoginPageData> {
  return apiGet<LoginPageData>('/api/main/loginpagedata');
}
