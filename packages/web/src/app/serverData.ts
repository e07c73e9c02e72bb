/**
 * Optional data the server may send with a pre-rendered storefront page, so the app's first
 * render shows the same content at once instead of asking for it again:
 *
 *   <script id="ssr-data" type="application/json">
 *     {"languageId":1,"home":{"platforms":[…],"currencyCode":"EUR"}}
 *   </script>
 *   (or "platform": {"platform":{…},"currencyCode":"EUR"} for /platform/{id})
 *
 * The shapes are the API's own answers (GET /api/main/home, GET /api/platform/getplatform) in
 * `languageId`. Used only when they match the visitor's language and chosen currency; anything
 * missing or malformed is ignored and the app asks the API as usual (app/prefetch.ts does so
 * before the first render, so the pre-rendered page stays on screen meanwhile).
 */
import type { CurrencyCode, HomeResponse, PlatformResponse } from '../services/api';
import { LANGUAGES, toLanguageId, type LanguageId } from '../features/language/languages';
import { isCurrencyCode } from '../features/catalog/rules';

export const SERVER_DATA_ELEMENT_ID = 'ssr-data';

export interface ServerData {
  languageId: LanguageId;
  home?: HomeResponse;
  platform?: PlatformResponse;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function isPlatformLike(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value.id === 'number' &&
    Array.isArray(value.duration) &&
    Array.isArray(value.type) &&
    Array.isArray(value.prices) &&
    Array.isArray(value.faq) &&
    Array.isArray(value.howItWorks)
  );
}

export function parseServerData(text: string | null | undefined): ServerData | null {
  if (!text) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(value)) return null;
  const languageId = toLanguageId(value.languageId);
  if (!languageId) return null;
  const data: ServerData = { languageId };
  const { home, platform } = value;
  if (isObject(home) && Array.isArray(home.platforms) && home.platforms.every(isPlatformLike) && isCurrencyCode(home.currencyCode)) {
    data.home = home as unknown as HomeResponse;
  }
  if (isObject(platform) && isPlatformLike(platform.platform) && isCurrencyCode(platform.currencyCode)) {
    data.platform = platform as unknown as PlatformResponse;
  }
  return data;
}

/**
 * The data of a pre-rendered page: the #ssr-data element when there is one; otherwise, when
 * the server pre-rendered the page into `container`, at least its language (`<html lang>`),
 * which the server chose exactly as the country lookup would (`?lang`, else the visitor's
 * country or Accept-Language). Null for a page that was not pre-rendered.
 */
export function readServerData(container: Element): ServerData | null {
  try {
    const data = parseServerData(document.getElementById(SERVER_DATA_ELEMENT_ID)?.textContent);
    if (data) return data;
    if (container.childElementCount === 0) return null;
    const culture = document.documentElement.lang.trim().toLowerCase().split('-')[0];
    const language = LANGUAGES.find((candidate) => candidate.culture === culture);
    return language ? { languageId: language.id } : null;
  } catch {
    return null;
  }
}

/** Whether an answer in `currencyCode` suits a visitor who chose `chosen` (null: the server decides). */
export function matchesCurrency(currencyCode: CurrencyCode, chosen: CurrencyCode | null): boolean {
  return chosen === null || chosen === currencyCode;
}
