/**
 * The catalog editor's form: what the admin types (texts, and amounts as they read them: EUR with
 * cents, KRW in whole won) and the editable platform of the wire (integer minor units). The rules
 * are the shared `catalogPlatformSchema` (@subshare/core/validation, the server's too): the form
 * converts its values to the wire body and validates that, so each error lands on the field it
 * names (`name.ko`, `durations[1].months`; a price's `prices[3].eur.salePrice` on its cell of the
 * grid). Pure: imported by Node unit tests (`.js` imports).
 */
import { catalogPlatformSchema, type AlertKind, type CatalogMessages, type CatalogPlatformInput, type PlatformCategory } from '@subshare/core/validation';

export { ALERT_KINDS } from '@subshare/core/validation';

/** What the logo upload accepts (the server's own limits), checked in the browser before sending. */
export { LOGO_MAX_BYTES, LOGO_TYPES } from '@subshare/core/validation';
import type { catalogAdmin } from '@subshare/core/wire';
import { ValidationError } from 'yup';

export type EditablePlatform = catalogAdmin.EditablePlatform;

export interface Localized {
  en: string;
  ko: string;
}

export interface AmountsValues {
  price: string;
  salePrice: string;
}

export interface PriceValues {
  eur: AmountsValues;
  krw: AmountsValues;
}

export interface DurationValues {
  key: string;
  id?: number;
  name: Localized;
  months: string;
  isEnabled: boolean;
  /** Orders name it: it can be disabled, not removed. */
  hasOrders: boolean;
}

export interface TypeValues {
  key: string;
  id?: number;
  name: Localized;
  isEnabled: boolean;
  hasOrders: boolean;
}

/** The fields the form holds as the wire has them; the others are what the admin types (numbers as text) or picks. */
type WireFields = Pick<
  EditablePlatform,
  'name' | 'description' | 'howItWorks' | 'faq' | 'colorOne' | 'colorTwo' | 'logoBase' | 'logoCarousel' | 'needsInvitation' | 'isEnabled'
>;

export interface EditorValues extends WireFields {
  category: string;
  slotsCount: string;
  durations: DurationValues[];
  types: TypeValues[];
  /** By `priceKey(durationKey, typeKey)`: one cell of the duration × type grid. */
  prices: Record<string, PriceValues>;
  /** The account-alert rules (issue 29): senders one a line; each rule's phrases one a line. */
  alertSenders: string;
  /** Hosts a household or verification link may point at, one a line (issue 33). */
  alertLinkHosts: string;
  alertRules: AlertRuleValues[];
}

export interface AlertRuleValues {
  kind: string;
  subject: string;
  body: string;
}

/** Lines of a text area: trimmed, empty ones dropped. */
const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

export type Currency = 'EUR' | 'KRW';

/** The grid cell of a duration and a type (a form path segment: never a bare number). */
export const priceKey = (durationKey: string, typeKey: string) => `p_${durationKey}__${typeKey}`;

export const EMPTY_EDITOR: EditorValues = {
  name: { en: '', ko: '' },
  description: { en: '', ko: '' },
  howItWorks: [],
  faq: [],
  colorOne: '#1f2937',
  colorTwo: '#7c3aed',
  logoBase: '',
  logoCarousel: '',
  category: '0',
  slotsCount: '4',
  needsInvitation: false,
  isEnabled: false,
  durations: [],
  types: [],
  prices: {},
  alertSenders: '',
  alertLinkHosts: '',
  alertRules: [],
};

/** Minor units as the admin reads them: 499 → "4.99" (EUR), 6900 → "6900" (KRW). */
export function formatAmount(minor: number, currency: Currency): string {
  if (currency === 'KRW') return String(minor);
  const cents = String(Math.abs(minor) % 100).padStart(2, '0');
  return `${minor < 0 ? '-' : ''}${Math.trunc(Math.abs(minor) / 100)}.${cents}`;
}

/**
 * What the admin typed as minor units: "4.99" or "4,99" → 499, "1,234.50" → 123450, "5" → 500
 * (EUR); "6900" or "6,900" → 6900 (KRW: a comma only groups thousands). Empty: undefined (the
 * schema says required). A number that is no whole cent or won stays a fraction (the schema says
 * why); anything else is NaN (not a number).
 */
export function parseAmount(text: string, currency: Currency): number | undefined {
  let value = text.trim().replace(/[\s_]/g, '');
  if (value === '') return undefined;
  // Commas group thousands, except a lone EUR comma, which is the decimal comma ("4,99").
  const decimalComma = currency === 'EUR' && !value.includes('.') && /^-?\d+,\d{1,2}$/.test(value);
  value = decimalComma ? value.replace(',', '.') : value.replace(/,(?=\d{3}(\D|$))/g, '');
  if (!/^-?\d+(\.\d+)?$/.test(value)) return Number.NaN;
  if (currency === 'KRW') return Number(value);
  const [whole, fraction = ''] = value.replace('-', '').split('.');
  const sign = value.startsWith('-') ? -1 : 1;
  // Exact for up to two decimals (no 4.99 * 100 = 499.00000000000006); more decimals stay a fraction.
  if (fraction.length <= 2) return sign * (Number(whole) * 100 + Number(fraction.padEnd(2, '0')));
  return sign * Number(`${whole}${fraction.slice(0, 2)}.${fraction.slice(2)}`);
}

/** A whole number typed in a text field; empty: undefined, anything else as Number reads it (the schema checks). */
function parseNumber(text: string): number | undefined {
  const value = text.trim();
  return value === '' ? undefined : Number(value);
}

const copy = (text: { en: string; ko: string }): Localized => ({ en: text.en, ko: text.ko });

/** The platform as the server has it, as form values. */
export function toEditorValues(platform: EditablePlatform): EditorValues {
  const prices: Record<string, PriceValues> = {};
  for (const price of platform.prices) {
    prices[priceKey(price.durationKey, price.typeKey)] = {
      eur: { price: formatAmount(price.eur.price, 'EUR'), salePrice: formatAmount(price.eur.salePrice, 'EUR') },
      krw: { price: formatAmount(price.krw.price, 'KRW'), salePrice: formatAmount(price.krw.salePrice, 'KRW') },
    };
  }
  return {
    name: copy(platform.name),
    description: copy(platform.description),
    howItWorks: platform.howItWorks.map(copy),
    faq: platform.faq.map((entry) => ({ question: copy(entry.question), answer: copy(entry.answer) })),
    colorOne: platform.colorOne,
    colorTwo: platform.colorTwo,
    logoBase: platform.logoBase,
    logoCarousel: platform.logoCarousel,
    category: String(platform.category),
    slotsCount: String(platform.slotsCount),
    needsInvitation: platform.needsInvitation,
    isEnabled: platform.isEnabled,
    durations: platform.durations.map((d) => ({
      key: d.key,
      id: d.id,
      name: copy(d.name),
      months: String(d.months),
      isEnabled: d.isEnabled,
      hasOrders: d.hasOrders,
    })),
    types: platform.types.map((t) => ({ key: t.key, id: t.id, name: copy(t.name), isEnabled: t.isEnabled, hasOrders: t.hasOrders })),
    prices,
    alertSenders: (platform.alertRules?.senders ?? []).join('\n'),
    alertLinkHosts: (platform.alertRules?.linkHosts ?? []).join('\n'),
    alertRules: (platform.alertRules?.rules ?? []).map((rule) => ({ kind: rule.kind, subject: rule.subject.join('\n'), body: rule.body.join('\n') })),
  };
}

/**
 * "Make a rule from this mail" (issue 33, from /jve/health): a new rule at the end of the list,
 * its subject phrase the mail's subject, kind `ignore` until staff choose, and the mail's sender
 * added unless a listed sender covers it already. Only the subject and the sender: the shop never
 * keeps a mail's body.
 */
export function withRuleFromMail(values: EditorValues, mail: { subject: string; sender: string }): EditorValues {
  const subject = mail.subject.replace(/\s+/g, ' ').trim();
  const sender = mail.sender.trim().toLowerCase();
  if (!subject) return values;
  const senders = lines(values.alertSenders).map((line) => line.toLowerCase());
  const domain = sender.slice(sender.lastIndexOf('@') + 1);
  const covered = senders.some((listed) => (listed.includes('@') ? listed === sender : domain === listed || domain.endsWith(`.${listed}`)));
  return {
    ...values,
    alertSenders: covered || !sender ? values.alertSenders : [...lines(values.alertSenders), sender].join('\n'),
    alertRules: [...values.alertRules, { kind: 'ignore', subject, body: '' }],
  };
}

/** The duration × type pairs of the grid: every pair of the lists, enabled ones first to be priced. */
export function pricePairs(values: Pick<EditorValues, 'durations' | 'types'>) {
  return values.durations.flatMap((duration) =>
    values.types.map((type) => ({ duration, type, key: priceKey(duration.key, type.key), enabled: duration.isEnabled && type.isEnabled })),
  );
}

/**
 * A cell of the grid with its four amounts ('' for each not typed yet): Formik creates a cell
 * with only the one amount typed first.
 */
export function priceCell(values: Pick<EditorValues, 'prices'>, key: string): PriceValues {
  const cell = values.prices[key];
  return {
    eur: { price: cell?.eur?.price ?? '', salePrice: cell?.eur?.salePrice ?? '' },
    krw: { price: cell?.krw?.price ?? '', salePrice: cell?.krw?.salePrice ?? '' },
  };
}

function isFilled(price: PriceValues): boolean {
  return [price.eur.price, price.eur.salePrice, price.krw.price, price.krw.salePrice].every((text) => text.trim() !== '');
}

/**
 * The wire body of create (update adds `id` and `version`), and which grid cell each price of it
 * came from (for its errors). Every enabled pair is sent (an empty amount fails as required); a
 * disabled pair keeps its price when all four amounts are filled, and is dropped otherwise.
 */
export function toWireBody(values: EditorValues): { body: CatalogPlatformInput; priceCells: string[] } {
  const priceCells: string[] = [];
  const prices: CatalogPlatformInput['prices'] = [];
  for (const pair of pricePairs(values)) {
    const amounts = priceCell(values, pair.key);
    if (!pair.enabled && !isFilled(amounts)) continue;
    priceCells.push(pair.key);
    prices.push({
      durationKey: pair.duration.key,
      typeKey: pair.type.key,
      eur: { price: parseAmount(amounts.eur.price, 'EUR')!, salePrice: parseAmount(amounts.eur.salePrice, 'EUR')! },
      krw: { price: parseAmount(amounts.krw.price, 'KRW')!, salePrice: parseAmount(amounts.krw.salePrice, 'KRW')! },
    });
  }
  const body = {
    name: { ...values.name },
    description: { ...values.description },
    howItWorks: values.howItWorks.map((point) => ({ ...point })),
    faq: values.faq.map((entry) => ({ question: { ...entry.question }, answer: { ...entry.answer } })),
    colorOne: values.colorOne,
    colorTwo: values.colorTwo,
    logoBase: values.logoBase,
    logoCarousel: values.logoCarousel,
    category: parseNumber(values.category) as PlatformCategory,
    slotsCount: parseNumber(values.slotsCount)!,
    needsInvitation: values.needsInvitation,
    isEnabled: values.isEnabled,
    durations: values.durations.map((d) => ({
      key: d.key,
      ...(d.id === undefined ? {} : { id: d.id }),
      name: { ...d.name },
      months: parseNumber(d.months)!,
      isEnabled: d.isEnabled,
    })),
    types: values.types.map((t) => ({ key: t.key, ...(t.id === undefined ? {} : { id: t.id }), name: { ...t.name }, isEnabled: t.isEnabled })),
    prices,
    alertRules: {
      senders: lines(values.alertSenders).map((sender) => sender.toLowerCase()),
      linkHosts: lines(values.alertLinkHosts).map((host) => host.toLowerCase()),
      rules: values.alertRules.map((rule) => ({ kind: rule.kind as AlertKind, subject: lines(rule.subject), body: lines(rule.body) })),
    },
  };
  return { body, priceCells };
}

/** Formik's errors object: nested like the values, a message at each failing field. */
export type EditorErrors = Record<string, unknown>;

/** `a.b[2].c` → ['a', 'b', '2', 'c']. */
const pathParts = (path: string) =>
  path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean);

function setError(errors: EditorErrors, parts: string[], message: string) {
  let node: Record<string, unknown> = errors;
  parts.forEach((part, index) => {
    if (index === parts.length - 1) {
      if (node[part] === undefined) node[part] = message;
      return;
    }
    const next = node[part];
    if (typeof next !== 'object' || next === null) {
      // Formik reads arrays of errors by index: build arrays where the values are arrays.
      node[part] = /^\d+$/.test(parts[index + 1] ?? '') ? [] : {};
    }
    node = node[part] as Record<string, unknown>;
  });
}

/**
 * Formik's `validate`: the shared schema on the wire body, every error at its form path (a
 * price's at its grid cell, `prices.<cell>.eur.salePrice`). Errors of a whole list (`prices`,
 * `durations`: "add at least one") stay at the list's name.
 */
export function validateEditor(values: EditorValues, messages: CatalogMessages): EditorErrors {
  const { body, priceCells } = toWireBody(values);
  const errors: EditorErrors = {};
  try {
    catalogPlatformSchema(messages).validateSync(body, { abortEarly: false });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    for (const issue of error.inner.length > 0 ? error.inner : [error]) {
      const parts = pathParts(issue.path ?? '');
      if (parts[0] === 'prices' && parts.length > 1) {
        const cell = priceCells[Number(parts[1])];
        if (cell) parts.splice(1, 1, cell);
      }
      // The rules' lists are text areas: an error of one line lands on its text area.
      if (parts[0] === 'alertRules') {
        if (parts[1] === 'senders') parts.splice(0, parts.length, 'alertSenders');
        else if (parts[1] === 'linkHosts') parts.splice(0, parts.length, 'alertLinkHosts');
        else if (parts[1] === 'rules' && parts.length > 2) parts.splice(0, parts.length, 'alertRules', parts[2]!, ...(parts[3] ? [parts[3]] : []));
      }
      setError(errors, parts.length > 0 ? parts : ['form'], issue.message);
    }
  }
  return errors;
}

/** A key for an item new in this form, unique beside the server's (`String(id)`). */
export function newKey(existing: Array<{ key: string }>): string {
  let n = existing.length + 1;
  while (existing.some((item) => item.key === `new-${n}`)) n += 1;
  return `new-${n}`;
}
