/**
 * The storefront's plain-HTML contract, one definition for the server (packages/http) and the
 * browser (packages/web): the display cookies the server renders pages by, and the fields of the
 * two forms that work before and without script (the language/currency chooser, posted to
 * DISPLAY_CHOICE_PATH; the platform page's choice, submitted to CHECKOUT_PATH). Plain constants
 * and pure functions importing only the page declarations (also import-free): the browser's
 * first download carries this file.
 */
import { CHOICE_FIELDS, PAGES, pagePath, PROMO_CODE_PARAM, RETURN_URL_PARAM, type PageChoice as StorefrontChoice } from '../pages/index.js';

export { CHOICE_FIELDS, PROMO_CODE_PARAM, RETURN_URL_PARAM, type StorefrontChoice };
/** What a checkout takes from the buyer's credit: the server's rule, which the payment page shows before paying. */
export { creditToSpend } from './credit-to-spend.js';

export const DISPLAY_COOKIES = {
  /** "1" English, "2" Korean. */
  language: 'subshare_lang',
  /** "EUR" or "KRW"; only once the visitor chose one. */
  currency: 'subshare_currency',
} as const;

export type DisplayCookieName = (typeof DISPLAY_COOKIES)[keyof typeof DISPLAY_COOKIES];

/** One year: the privacy policy says so. */
export const DISPLAY_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** POST here (form-encoded `lang` or `currency`, and `return`): the server stores the choice in its cookie and answers 303 to `return`. */
export const DISPLAY_CHOICE_PATH = '/display';

/** The chooser form's fields. `lang` is a culture ("en", "ko"), `currency` a code ("EUR", "KRW"). */
export const DISPLAY_FIELDS = { language: 'lang', currency: 'currency', returnTo: 'return' } as const;

/**
 * GET here with the platform page's choice: the server answers 303 to /payment with it for a
 * verified caller, else 303 to /login with that address as the return URL.
 */
export const CHECKOUT_PATH = '/checkout';

function positiveId(value: unknown): number | null {
  if (typeof value !== 'string' || !/^[1-9][0-9]{0,8}$/.test(value)) return null;
  return Number(value);
}

/** The choice in a query string or form, or null when a field is missing or not a positive id. */
export function readChoice(params: URLSearchParams): StorefrontChoice | null {
  const platformId = positiveId(params.get(CHOICE_FIELDS.platform));
  const typeId = positiveId(params.get(CHOICE_FIELDS.type));
  const durationId = positiveId(params.get(CHOICE_FIELDS.duration));
  return platformId && typeId && durationId ? { platformId, typeId, durationId } : null;
}

/** Type and duration alone (the platform page's own query), each when it is a positive id. */
export function readOptionChoice(params: URLSearchParams): { typeId: number | null; durationId: number | null } {
  return { typeId: positiveId(params.get(CHOICE_FIELDS.type)), durationId: positiveId(params.get(CHOICE_FIELDS.duration)) };
}

/** The longest promotion code a link carries on (a guard against junk in an address, not the codes' rule). */
export const PROMO_CODE_MAX_LENGTH = 64;

/**
 * The promotion code a query or form carries (`?code=`), trimmed; undefined when there is none or
 * it cannot be a code (longer than PROMO_CODE_MAX_LENGTH, or other than letters, digits, `-` and
 * `_`), so a damaged link still orders, without a code. Whether it applies is the server's answer.
 */
export function readPromoCode(params: URLSearchParams): string | undefined {
  const value = params.get(PROMO_CODE_PARAM)?.trim();
  return value && value.length <= PROMO_CODE_MAX_LENGTH && /^[\p{L}\p{N}_-]+$/u.test(value) ? value : undefined;
}

/** `/payment?platform=1&type=2&duration=3` (and `&code=…`): the page that orders this choice, with that code. */
export function paymentPathOf(choice: StorefrontChoice, promoCode?: string): string {
  return pagePath.payment(choice, promoCode);
}

/** `/login?returnUrl=…`: the login page, which goes on to `returnUrl` once the visitor is verified. */
export function loginPathReturningTo(returnUrl: string): string {
  return pagePath.login(returnUrl);
}

/** The pages a login leads away from: never a place to return to. */
const LOGIN_PAGES = [PAGES.login, PAGES.register, PAGES.naverCallback];

/**
 * Only a path of this site is a place to return to: anything else ('//evil.example',
 * 'https://…', '/login' itself) becomes '/', so a return URL can never lead off-site.
 */
export function safeReturnUrl(url: string | null | undefined): string {
  if (!url || !url.startsWith('/') || url.startsWith('//') || url.startsWith('/\\')) return '/';
  const path = url.split(/[?#]/)[0]!.replace(/\/+$/, '');
  if (LOGIN_PAGES.some((page) => path === page.path || path.startsWith(`${page.path}/`))) return '/';
  return url;
}

/**
 * How an amount is written, everywhere: the storefront, the panel, the admin area, e-mails and the
 * pages e-mails link to. One form in both languages: the symbol before the number, "," between
 * thousands, "." before the cents: "€4.99", "₩54,100" (never "54,100원" or "54,100 KRW"; KRW has
 * no minor unit). Written by hand rather than with Intl.NumberFormat: ICU's forms differ between
 * locales and Node versions, and its first use costs a phone tens of milliseconds.
 * `amount` is in major units (4.99, 54100).
 */
export function formatMoney(amount: number, currency: string): string {
  const digits = MONEY_DIGITS[currency] ?? 2;
  const fixed = Math.abs(amount).toFixed(digits);
  const [whole = '0', fraction] = fixed.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const symbol = MONEY_SYMBOLS[currency];
  const number = `${grouped}${fraction ? `.${fraction}` : ''}`;
  const sign = amount < 0 && Number(fixed) !== 0 ? '-' : '';
  return symbol ? `${sign}${symbol}${number}` : `${sign}${number} ${currency}`;
}

/** The shop's currencies: their symbols and the digits after the point. */
const MONEY_SYMBOLS: Record<string, string> = { EUR: '€', KRW: '₩' };
const MONEY_DIGITS: Record<string, number> = { EUR: 2, KRW: 0 };
