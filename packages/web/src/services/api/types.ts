/**
 * Wire shapes of the subshare API as the storefront reads them (spec section 3 and the
 * product brief). Types only: Node unit tests import this file through catalog/rules.ts.
 */

import type { InferType } from 'yup';
import type { account, catalog } from '@subshare/core/wire';

/** One element of a list type. */
export type Item<T> = T extends readonly (infer I)[] ? I : never;

export type CurrencyCode = catalog.HomeAnswer['currencyCode'];

export type Platform = catalog.Platform;
/** An amount in one currency; `price` is a decimal in major units (4.99 EUR, 6900 KRW). */
export type CurrencyAmount = Item<PlatformPrice['price']>;
export type PlatformDuration = Item<Platform['duration']>;
export type PlatformType = Item<Platform['type']>;
export type PlatformPrice = Item<Platform['prices']>;
export type PlatformFaq = Item<Platform['faq']>;

/** `GET /api/main/home`. */
export type HomeResponse = catalog.HomeAnswer;
/** `GET /api/platform/getplatform`. */
export type PlatformResponse = catalog.PlatformAnswer;
export type BusinessInfo = catalog.BusinessAnswer;

/** What authenticate, register and the social logins answer (`tokenExpiration`: ISO date-time). */
export type AuthResponse = account.LoginAnswer;

/** The server's error body: `{ message, code }` plus `errors` on validation failures; as it arrives, unchecked (ApiError types `code`). */
export interface ApiErrorBody {
  message?: string;
  code?: string;
  params?: Record<string, string | number>;
  errors?: Record<string, string>;
}

/** `GET /api/main/loginpagedata`: decides which social button the login page shows. */
export type LoginPageData = InferType<typeof account.loginPageAnswer>;

/**
 * `GET /api/user/socialproviders` (beyond the spec): what the server has configured; `null` hides
 * that button. The login page offers Google and Naver (spec section 2), so it reads only those.
 */
export type SocialProviders = Pick<account.SocialProvidersAnswer, 'google' | 'naver'>;

export type AuthenticateRequest = account.AuthenticateInput;
export type RegisterRequest = account.RegisterInput;
export type VerifyCodeRequest = account.VerifyCodeInput;
export type ResetPasswordRequest = account.ResetPasswordInput;
