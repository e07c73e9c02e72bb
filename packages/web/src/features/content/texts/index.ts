import { isKoreanParticle, withParticle } from '@subshare/core/korean';
import { PROMISED_TEXT_VARS } from '@subshare/core/promises';
import { en } from './en.js';
import { ko } from './ko.js';
import type { ContentTexts } from './types.js';

export type { ContentDocument, ContentDocumentKey, ContentFaqItem, ContentSection, ContentTexts } from './types.js';

/** Static page texts by language id (1 English, 2 Korean). */
export const CONTENT_TEXTS: Readonly<Record<1 | 2, ContentTexts>> = { 1: en, 2: ko };

/** The business details a text may name, e.g. `{businessName}`. */
export interface ContentPlaceholders {
  businessName?: string;
  representative?: string;
  address?: string;
  registrationNumber?: string;
  mailOrderNumber?: string;
  phone?: string;
  email?: string;
}

/**
 * Fills `{name}` placeholders, the promised numbers among them. Null when a placeholder has no value: the caller leaves that
 * paragraph out rather than printing a sentence with a hole in it.
 */
export function fillPlaceholders(text: string, values: ContentPlaceholders): string | null {
  let complete = true;
  const filled = text.replace(/\{(\w+)(?::([\uac00-\ud7a3]+))?\}/g, (match, name: string, particle?: string) => {
    // The promised numbers (`{activationHours}`, core's promises) need no business details.
    const promised = (PROMISED_TEXT_VARS as Readonly<Record<string, number | undefined>>)[name];
    const value = (values as Record<string, string | undefined>)[name] ?? (promised === undefined ? undefined : String(promised));
    if (value === undefined || value === '') {
      complete = false;
      return match;
    }
    // `{email:으로}`: the particle's form that fits the value (see core's korean-particles).
    return particle && isKoreanParticle(particle) ? withParticle(value, particle) : value;
  });
  return complete ? filled : null;
}
