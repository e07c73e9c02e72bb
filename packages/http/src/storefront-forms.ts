/**
 * The two forms of the storefront that work before and without script (issue 24), answered
 * with 303 redirects so the browser lands on a page:
 *
 * - POST /display (the language and currency chooser): stores the choice in its display cookie,
 *   which the page rendering reads (seo/storefront.ts), and goes back to the page it came from
 *   (without `?lang` / `?currency`, which would override the choice).
 * - GET /checkout (the platform page's "Go to payment"): a verified caller goes to /payment with
 *   the choice (and the promotion code the platform page's link carried); anyone else to /login with that address as the return URL, which the login page
 *   keeps and follows once the buyer is in (spec section 2). A browser's plain navigation carries
 *   no login (the app keeps it in localStorage and sends it as a bearer token), so without script
 *   a buyer always passes by /login, whose app sends a verified buyer straight on.
 *
 * Names and fields: `@subshare/core/storefront`, shared with the web app's forms.
 */
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { Container } from 'inversify';
import { ValidationError, fail, AuthService } from '@subshare/core';
import {
  DISPLAY_COOKIES,
  DISPLAY_COOKIE_MAX_AGE_SECONDS,
  DISPLAY_FIELDS,
  loginPathReturningTo,
  paymentPathOf,
  readChoice,
  readPromoCode,
  safeReturnUrl,
} from '@subshare/core/storefront';
import { calls } from '@subshare/core/wire';
import { authorizedCaller } from './middleware/auth.js';

const LANGUAGE_IDS: Record<string, string> = { en: '1', ko: '2' };
const CURRENCY_CODES = new Set(['EUR', 'KRW']);

/** The page to go back to: a path of this shop, without the display parameters that would override the choice. */
function backTo(raw: unknown): string {
  const path = safeReturnUrl(typeof raw === 'string' ? raw : undefined);
  const url = new URL(path, 'http://shop.invalid');
  url.searchParams.delete('lang');
  url.searchParams.delete('currency');
  return url.pathname + url.search;
}

export function storefrontFormRoutes(container: Container): Router {
  const auth = container.get(AuthService);
  const router = express.Router();

  router.post(
    calls.pages.displayChoice.path,
    express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 10 }),
    (req: Request, res: Response, next: NextFunction) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const language = body[DISPLAY_FIELDS.language];
      const currency = body[DISPLAY_FIELDS.currency];
      const languageId = typeof language === 'string' ? LANGUAGE_IDS[language.toLowerCase()] : undefined;
      const currencyCode = typeof currency === 'string' && CURRENCY_CODES.has(currency.toUpperCase()) ? currency.toUpperCase() : undefined;
      if (language !== undefined && !languageId) return next(new ValidationError('Choose en or ko.', { lang: 'Choose en or ko.' }));
      if (currency !== undefined && !currencyCode) return next(new ValidationError('Choose EUR or KRW.', { currency: 'Choose EUR or KRW.' }));
      if (!languageId && !currencyCode) return next(new ValidationError('Choose a language or a currency.'));
      // Not HttpOnly: the app reads them too (app/startReact.tsx), as it writes them itself.
      const options = { maxAge: DISPLAY_COOKIE_MAX_AGE_SECONDS * 1000, path: '/', sameSite: 'lax' as const, secure: req.secure, encode: String };
      if (languageId) res.cookie(DISPLAY_COOKIES.language, languageId, options);
      if (currencyCode) res.cookie(DISPLAY_COOKIES.currency, currencyCode, options);
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(303, backTo(body[DISPLAY_FIELDS.returnTo]));
    },
  );

  router.get(calls.pages.checkoutRedirect.path, async (req: Request, res: Response, next: NextFunction) => {
    const params = new URL(req.originalUrl, 'http://shop.invalid').searchParams;
    const choice = readChoice(params);
    if (!choice) return next(fail('invalid_choice'));
    // A promotion code the platform page's link carried goes on to the order (issue 37).
    const payment = paymentPathOf(choice, readPromoCode(params));
    res.setHeader('Cache-Control', 'no-store');
    const authorization = req.get('authorization');
    if (authorization) {
      try {
        await authorizedCaller(auth, authorization, 'verified');
        res.redirect(303, payment);
        return;
      } catch {
        // Not logged in, expired or not verified: the login page (and its verification step).
      }
    }
    res.redirect(303, loginPathReturningTo(payment));
  });

  return router;
}
