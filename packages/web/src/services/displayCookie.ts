/**
 * The display cookies: the visitor's language and currency, kept for one year (the privacy
 * policy says so). Their names are the server's (`@subshare/core/storefront`), which renders a
 * storefront page by them before any script has run, and sets them itself when the chooser is
 * used without script (POST /display). localStorage keeps a copy for the app. Never throws
 * (cookies may be blocked).
 */
import { parseCookie, stringifySetCookie } from 'cookie';
import { DISPLAY_COOKIES, DISPLAY_COOKIE_MAX_AGE_SECONDS, type DisplayCookieName } from '@subshare/core/storefront';

export { DISPLAY_COOKIES, DISPLAY_COOKIE_MAX_AGE_SECONDS };

export function writeDisplayCookie(name: DisplayCookieName, value: string): void {
  try {
    document.cookie = stringifySetCookie(name, value, {
      maxAge: DISPLAY_COOKIE_MAX_AGE_SECONDS,
      path: '/',
      sameSite: 'lax',
      secure: window.location.protocol === 'https:',
    });
  } catch {
    // Cookies blocked: the server pre-renders in its defaults and the app corrects it.
  }
}

/**
 * The cookie's value, or undefined when it is not set (or cookies are blocked). Written and read
 * by the `cookie` package, as on the server: a value that is not valid percent-encoding (a cookie
 * another app wrote) comes back as is.
 */
export function readDisplayCookie(name: DisplayCookieName): string | undefined {
  try {
    return parseCookie(document.cookie)[name]?.trim();
  } catch {
    // Blocked: as if unset.
  }
  return undefined;
}
