/**
 * Language and currency named in the URL: `?lang=en|ko` and `?currency=EUR|KRW`. The server
 * pre-renders these URLs in that language and currency (the Korean page of every storefront
 * URL is `…?lang=ko`, its hreflang alternate), so the app must show the same. Following such
 * a link counts as a choice: it is stored like a choice made in the dialog or the switch.
 */
import { isCurrencyCode } from '../features/catalog/rules';
import { LANGUAGES, type LanguageId } from '../features/language/languages';
import type { CurrencyCode } from '../services/api';

export interface UrlChoices {
  languageId?: LanguageId;
  currency?: CurrencyCode;
}

export function readUrlChoices(search: string): UrlChoices {
  const params = new URLSearchParams(search);
  const choices: UrlChoices = {};
  const lang = params.get('lang')?.trim().toLowerCase();
  const language = LANGUAGES.find((candidate) => candidate.culture === lang);
  if (language) choices.languageId = language.id;
  const currency = params.get('currency')?.trim().toUpperCase();
  if (isCurrencyCode(currency)) choices.currency = currency;
  return choices;
}
