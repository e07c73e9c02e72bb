/**
 * A deliberately tiny i18n: two flat dictionaries and `{name}` placeholders. Both languages
 * together weigh a few KiB, less than any i18n library would add to the first download.
 */
import type { LanguageId } from '../languages';
import { en, type Dictionary, type DictionaryKey } from './en';
import { ko } from './ko';

export type { Dictionary, DictionaryKey };

const dictionaries: Record<LanguageId, Dictionary> = { 1: en, 2: ko };

export function getDictionary(languageId: LanguageId): Dictionary {
  return dictionaries[languageId];
}

export type TranslateVars = Record<string, string | number>;

export function translate(dictionary: Dictionary, key: DictionaryKey, vars?: TranslateVars): string {
  const text = dictionary[key] ?? en[key] ?? key;
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (match, name: string) => (name in vars ? String(vars[name]) : match));
}
