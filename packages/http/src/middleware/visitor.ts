/**
 * Where a visitor is, for defaults only (language, currency, which social login to offer).
 * A country header is believed only when the operator configured one (e.g. a CDN's
 * `cf-ipcountry`); otherwise the browser's Accept-Language decides, negotiated by `negotiator`
 * (Express's own, q-values and language ranges included). Node's own request is enough: the front
 * door answers catalog reads before Express.
 */
import type { IncomingMessage } from 'node:http';
import Negotiator from 'negotiator';
import type { AppConfig, CurrencyCode, LanguageId } from '@subshare/core';

export type Country = 'KR' | 'GLOBAL';

const SHOP_LANGUAGES = ['en', 'ko'] as const;

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

export function visitorCountry(req: IncomingMessage, config: AppConfig): Country {
  if (config.countryHeader) {
    const country = header(req, config.countryHeader);
    if (country) return country.trim().toUpperCase() === 'KR' ? 'KR' : 'GLOBAL';
  }
  // The shop's languages, English first: it is the answer for `*` and for no header at all.
  return new Negotiator(req).language([...SHOP_LANGUAGES]) === 'ko' ? 'KR' : 'GLOBAL';
}

export function defaultLanguage(country: Country): LanguageId {
  return country === 'KR' ? 2 : 1;
}

/** An explicit choice wins; otherwise Korean visitors pay in KRW and everyone else in EUR. */
export function currencyFor(country: Country, requested?: string): CurrencyCode {
  if (requested === 'EUR' || requested === 'KRW') return requested;
  return country === 'KR' ? 'KRW' : 'EUR';
}

export function chooseCurrency(req: IncomingMessage, config: AppConfig, requested?: string): CurrencyCode {
  return currencyFor(visitorCountry(req, config), requested);
}
