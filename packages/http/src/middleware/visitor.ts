/**
 * Where a visitor is, for defaults only (language, currency, which social login to offer).
 * A country header is believed only when the operator configured one (e.g. a CDN's
 * `cf-ipcountry`); otherwise the browser's Accept-Language decides.
 */
import type { Request } from 'express';
import type { AppConfig, CurrencyCode, LanguageId } from '@subshare/core';

export type Country = 'KR' | 'GLOBAL';

export function visitorCountry(req: Request, config: AppConfig): Country {
  if (config.countryHeader) {
    const header = req.get(config.countryHeader);
    if (header) return header.trim().toUpperCase() === 'KR' ? 'KR' : 'GLOBAL';
  }
  const first = (req.get('accept-language') ?? '').split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('ko') ? 'KR' : 'GLOBAL';
}

export function defaultLanguage(country: Country): LanguageId {
  return country === 'KR' ? 2 : 1;
}

/** An explicit choice wins; otherwise Korean visitors pay in KRW and everyone else in EUR. */
export function chooseCurrency(req: Request, config: AppConfig, requested?: string): CurrencyCode {
  if (requested === 'EUR' || requested === 'KRW') return requested;
  return visitorCountry(req, config) === 'KR' ? 'KRW' : 'EUR';
}
