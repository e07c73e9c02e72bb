/**
 * What the visitor reads for a failed call. Spec section 8 shows the server's message; the
 * server always answers in English with a stable `code`, so the client translates by that code:
 * a Korean visitor reads the Korean text of the code (`ko.ts`, loaded with the first error),
 * filled with the answer's `params`. No answer at all (the network)
 * or an answer without a message gets the dictionary's fallback. Field errors (`errors`) are
 * never shown: every form checks the same shared yup rules first, with translated messages.
 */
import { fillIn } from '@subshare/core/wire/fill-in';
import { ApiError } from '../../../services/api/client.js';
import { DICTIONARY } from '../dictionary/index.js';
import type { LanguageId } from '../languages.js';
import { translate } from '../texts.js';

export type ErrorTexts = Readonly<Record<string, string>>;

/** The Korean texts of the server's codes for a Korean visitor; null in English (the message is shown as it comes). */
export async function loadErrorTexts(languageId: LanguageId): Promise<ErrorTexts | null> {
  return languageId === 2 ? (await import('./ko.js')).KOREAN_ERRORS : null;
}

/** The server's own message of `error` in the visitor's language; null when the server gave none. */
export function serverErrorText(error: unknown, texts: ErrorTexts | null): string | null {
  if (!(error instanceof ApiError) || !error.serverMessage) return null;
  const translated = error.code && texts && Object.hasOwn(texts, error.code) ? texts[error.code] : undefined;
  // Filled with the values the server filled into its English message ("4 tries left").
  return translated !== undefined ? fillIn(translated, error.params) : error.serverMessage;
}

/** The server's message in the visitor's language, else a translated fallback. */
export function errorText(error: unknown, languageId: LanguageId, texts: ErrorTexts | null): string {
  const fromServer = serverErrorText(error, texts);
  if (fromServer) return fromServer;
  if (error instanceof ApiError && error.status === 0) return translate(DICTIONARY, languageId, 'errors.network');
  return translate(DICTIONARY, languageId, 'errors.generic');
}
