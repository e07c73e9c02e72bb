/**
 * The display cookies: the visitor's language and currency, kept for one year (the privacy
 * policy says so). localStorage stays the client's source of truth; the cookies exist so the
 * server can pre-render a storefront page in the visitor's language and currency on the next
 * visit, before any script has run. Never throws (cookies may be blocked).
 */

export const DISPLAY_COOKIES = {
  /** "1" English, "2" Korean. */
  language: 'subshare_lang',
  /** "EUR" or "KRW"; only once the visitor chose one with the switch. */
  currency: 'subshare_currency',
} as const;

export const DISPLAY_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

export function writeDisplayCookie(name: (typeof DISPLAY_COOKIES)[keyof typeof DISPLAY_COOKIES], value: string): void {
  try {
    const secure = window.location.protocol === 'https:' ? '; Secure' : '';
    document.cookie = `${name}=${encodeURIComponent(value)}; Max-Age=${DISPLAY_COOKIE_MAX_AGE_SECONDS}; Path=/; SameSite=Lax${secure}`;
  } catch {
    // Cookies blocked: the server pre-renders in its defaults and the app corrects it.
  }
}
