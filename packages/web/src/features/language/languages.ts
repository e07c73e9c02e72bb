/** The interface languages (spec section 3): 1 English (default), 2 Korean. */

export type LanguageId = 1 | 2;

export interface Language {
  id: LanguageId;
  name: string;
  nameShort: string;
  /** BCP 47 tag for <html lang> and Intl formatting. */
  culture: string;
}

export const LANGUAGES: readonly Language[] = [
  { id: 1, name: 'English', nameShort: 'EN', culture: 'en' },
  { id: 2, name: 'Korean', nameShort: 'KO', culture: 'ko' },
];

export const DEFAULT_LANGUAGE_ID: LanguageId = 1;

/** Accepts what storage or the server hands over ("2", 2) and rejects anything else. */
export function toLanguageId(value: unknown): LanguageId | null {
  const id = typeof value === 'string' ? Number(value.trim()) : value;
  return LANGUAGES.some((language) => language.id === id) ? (id as LanguageId) : null;
}

export function getLanguage(id: LanguageId): Language {
  return LANGUAGES.find((language) => language.id === id) ?? LANGUAGES[0]!;
}
