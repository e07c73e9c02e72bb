/**
 * Wire shapes of the subshare API as the storefront reads them (spec section 3 and the
 * product brief). Types only: Node unit tests import this file through catalog/rules.ts.
 */

export type CurrencyCode = 'EUR' | 'KRW';

/** An amount in one currency; `price` is a decimal in major units (4.99 EUR, 6900 KRW). */
export interface CurrencyAmount {
  currencyId: number;
  price: number;
}

export interface PlatformDuration {
  id: number;
  name: string;
  /** Length in months. */
  value: number;
  isEnable: boolean;
}

export interface PlatformType {
  id: number;
  name: string;
  isEnable: boolean;
}

export interface PlatformPrice {
  durationId: number;
  typeId: number;
  price: CurrencyAmount[];
  salePrice: CurrencyAmount[];
}

export interface PlatformFaq {
  question: string;
  answer: string;
}

export interface Platform {
  id: number;
  name: string;
  description: string;
  /** URLs such as `/media/platforms/streamio.svg`. */
  logoBase: string;
  logoCarousel: string;
  colorOne: string;
  colorTwo: string;
  howItWorks: string[];
  duration: PlatformDuration[];
  type: PlatformType[];
  prices: PlatformPrice[];
  faq: PlatformFaq[];
  slotsCount: number;
  /** Beyond the spec: 0 video streaming, 1 music, 8 AI chat. */
  platformType?: number;
  /** Beyond the spec: the buyer joins a family group with the e-mail of their own login. */
  haveInvitation?: boolean;
}

export interface HomeResponse {
  platforms: Platform[];
  currencyCode: CurrencyCode;
}

/** `GET /api/platform/getplatform`. */
export interface PlatformResponse {
  platform: Platform;
  currencyCode: CurrencyCode;
}

export interface BusinessInfo {
  name: string;
  registrationNumber: string;
  mailOrderNumber: string;
  address: string;
  representative: string;
  supportPhone: string;
  supportEmail: string;
}

/** What authenticate, register and the social logins answer. */
export interface AuthResponse {
  id: number;
  token: string;
  /** ISO date-time (a number of milliseconds is accepted too). */
  tokenExpiration: string | number;
  isEmailVerified: boolean;
  photoUrl: string | null;
  role: number;
}

/** The server's error body: `{ message, code }` plus `errors` on validation failures. */
export interface ApiErrorBody {
  message?: string;
  code?: string;
  errors?: Record<string, string>;
}

/** `GET /api/main/loginpagedata`: decides which social button the login page shows. */
export interface LoginPageData {
  country: 'KR' | 'GLOBAL';
}

/**
 * `GET /api/user/socialproviders` (beyond the spec): what the server has configured; `null`
 * hides that button. Naver's authorize URL already carries a signed, single-use `state`.
 */
export interface SocialProviders {
  google: { clientId: string } | null;
  naver: { authorizeUrl: string } | null;
}

export interface AuthenticateRequest {
  email: string;
  password: string;
  /** 14-day token instead of 2 days. */
  rememberMe: boolean;
}

export interface RegisterRequest {
  email: string;
  password: string;
  /** The language of the account's e-mails: 1 English, 2 Korean. */
  languageId: number;
}

export interface VerifyCodeRequest {
  email: string;
  code: string;
}

export interface ResetPasswordRequest {
  email: string;
  code: string;
  password: string;
}
