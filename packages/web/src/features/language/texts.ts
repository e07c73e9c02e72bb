/**
 * The one translator of the web app. A feature's texts are one `defineTexts(en, ko)` table of
 * flat keys with `{name}` placeholders; `translate` (sagas) and `useT` (components) read any such
 * table in the interface language. The shell's dictionary (`dictionary/`) is in the first
 * download; checkout, panel and admin keep their tables with the feature, so they travel in
 * their lazy chunk. Both languages of a table weigh a few KiB, less than an i18n library.
 */
import { isKoreanParticle, withParticle } from '@subshare/core/korean';
import { PROMISED_TEXT_VARS } from '@subshare/core/promises';
import type { LanguageId } from './languages.js';

/** One language's texts of a table; `Record` makes a missing or misspelt Korean key a type error. */
export type TextTable<K extends string> = Readonly<Record<K, string>>;

/** A table's texts in both interface languages. */
export type Texts<K extends string> = Readonly<Record<LanguageId, TextTable<K>>>;

export type TranslateVars = Readonly<Record<string, string | number>>;

export type Translate<K extends string> = (key: K, vars?: TranslateVars) => string;

/**
 * A table from its English and Korean texts. The keys are the English table's (inferred when
 * the tables are written inline); the Korean one must have exactly those, or it does not compile.
 */
export function defineTexts<K extends string>(en: TextTable<K>, ko: NoInfer<TextTable<K>>): Texts<K> {
  return { 1: en, 2: ko };
}

/** The keys of a `defineTexts` table: `TextKey<typeof PANEL_TEXTS>`. */
export type TextKey<T> = T extends Texts<infer K> ? K : never;

/**
 * The text of `key` in this language (English when missing), placeholders filled from `vars`.
 * `{name:을}` in a Korean text is the value followed by the particle's form that fits it (을 or
 * 를, by its final consonant; core's korean-particles), not both forms with brackets.
 */
export function translate<K extends string>(texts: Texts<K>, languageId: LanguageId, key: K, vars?: TranslateVars): string {
  const text = texts[languageId]?.[key] ?? texts[1][key] ?? key;
  return fillVars(text, vars ?? {});
}

/**
 * Fills `{name}` and `{name:particle}` placeholders; an unknown name is left as written. The
 * numbers promised to buyers (`{reminderDays}`, `{activationHours}`, core's promises) are filled
 * without being passed, so a text names them and never writes them.
 */
export function fillVars(text: string, vars: Readonly<Record<string, string | number | undefined>>): string {
  return text.replace(/\{(\w+)(?::([\uac00-\ud7a3]+))?\}/g, (match, name: string, particle?: string) => {
    const value = vars[name] ?? (PROMISED_TEXT_VARS as Readonly<Record<string, number | undefined>>)[name];
    if (value === undefined) return match;
    return particle && isKoreanParticle(particle) ? withParticle(String(value), particle) : String(value);
  });
}
