/**
 * What a template works with, bound to the e-mail's language and the shop's configuration: the
 * checks of its data (a missing or malformed field is a `ValidationError` naming it, thrown at
 * `enqueue`), its dates, and its links.
 */
import { ValidationError } from '../../../shared/errors.js';
import type { BusinessDetails } from '../../../shared/config.js';
import type { EmailDate, EmailLanguageId } from '../email-kinds.js';
import { formatDate } from './dates.js';
import { safeUrl, singleLine } from './layout.js';
import { EMAIL_PAGES, absolute } from './links.js';
import { SHARED_WORDS, type Lang, type SharedWords } from './words.js';

export interface RenderContext {
  brand: string;
  publicUrl: string;
  business: BusinessDetails;
}

export interface Tools {
  languageId: EmailLanguageId;
  lang: Lang;
  /** The words kinds share, in this e-mail's language. */
  shared: SharedWords;
  brand: string;
  publicHost: string;
  /** Refuses the data: a validation error naming `data.<field>`. */
  invalid(field: string, why: string): never;
  date(value: EmailDate, field: string): string;
  /** A required piece of text from the data, on one line. */
  text(value: unknown, field: string): string;
  /** An optional piece of text: undefined when missing or blank. */
  optionalText(value: unknown): string | undefined;
  id(value: unknown, field: string): string;
  /** The buyer's panel (the home page when the e-mail is about no user), or the given link when it is a valid http(s) URL. */
  panelUrl(given: string | undefined): string;
  /** A shop page (a path of EMAIL_PAGES), or the given link when it is a valid http(s) URL. */
  page(path: string, given?: string): string;
}

export function tools(languageId: EmailLanguageId, ctx: RenderContext, userId: number | null | undefined): Tools {
  const invalid = (field: string, why: string): never => {
    throw new ValidationError('The e-mail data is invalid.', { [`data.${field}`]: why });
  };
  const lang: Lang = languageId === 2 ? 'ko' : 'en';
  const page = (path: string, given?: string) => safeUrl(given, absolute(ctx.publicUrl, path));
  return {
    languageId,
    lang,
    shared: SHARED_WORDS[lang],
    brand: ctx.brand,
    publicHost: new URL(ctx.publicUrl).host,
    invalid,
    date(value, field) {
      const date = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : new Date(Number.NaN);
      if (Number.isNaN(date.getTime())) return invalid(field, 'must be a date');
      return formatDate(languageId, date);
    },
    text(value, field) {
      const text = typeof value === 'string' ? singleLine(value) : '';
      return text || invalid(field, 'is required');
    },
    optionalText(value) {
      const text = typeof value === 'string' ? singleLine(value) : '';
      return text || undefined;
    },
    id(value, field) {
      return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? String(value) : invalid(field, 'must be a positive whole number');
    },
    panelUrl(given) {
      return page(userId ? EMAIL_PAGES.panel(userId) : EMAIL_PAGES.home(), given);
    },
    page,
  };
}
