/** `/api/platform/*`: one platform of the catalog for its page. */
import { callApi } from './calls';
import type { CurrencyCode, PlatformResponse } from './types';

/**
 * The platform in a language. `currency` is the visitor's explicit choice (the server then
 * answers it as `currencyCode`); without it the server picks by country. 404 for an unknown
 * platform (`code: 'platform_not_found'`), 400 for a malformed id.
 */
export function getPlatform(id: number, languageId: number, currency?: CurrencyCode): Promise<PlatformResponse> {
  return callApi('getPlatform', { query: { id, languageId: languageId as 1 | 2, currency } });
}
