/**
 * The parts e-mails are built from, each defined once: the blocks (layout.ts renders each to HTML
 * and to plain text), the fact rows several kinds show (order, platform, subscription, profile,
 * end date, an amount of money), the panel's and account health's buttons, and `emailTemplate`,
 * which joins a kind's words in both languages to the one function that arranges its blocks.
 * The header (brand), the footer (business details) and the page around the blocks are
 * layout.ts's.
 */
import type { EmailDataByKind, EmailKind, EmailPrice, ProfileNumber } from '../email-kinds.js';
import type { Block, EmailContent } from './layout.js';
import { EMAIL_PAGES } from './links.js';
import type { Tools } from './tools.js';
import type { Lang } from './words.js';

export type Row = [label: string, value: string];

export const paragraph = (text: string): Block => ({ type: 'paragraph', text });
/** Smaller and muted: what is good to know rather than what to do. */
export const note = (text: string): Block => ({ type: 'note', text });
/** A one-time code, large and monospaced. */
export const code = (label: string, value: string): Block => ({ type: 'code', label, value });
/** Labelled values, one a row; rows that are `undefined` (a missing optional value) are left out. */
export const facts = (...rows: Array<Row | undefined>): Block => ({ type: 'facts', rows: rows.filter((row) => row !== undefined) });
export const steps = (...items: string[]): Block => ({ type: 'steps', items });
/** A button, with the link written out below it (and in the text part). */
export const button = (label: string, url: string): Block => ({ type: 'button', label, url });

/** The fact rows kinds share, labelled in the e-mail's language. */
export const rows = {
  order: (t: Tools, order: string): Row => [t.shared.order, `#${order}`],
  platform: (t: Tools, platform: string): Row => [t.shared.platform, platform],
  subscription: (t: Tools, subscription: string): Row => [t.shared.subscription, `#${subscription}`],
  validUntil: (t: Tools, date: string): Row => [t.shared.validUntil, date],
  /** An amount of money, as callers format it with `formatMoney` ("€4.99", "₩6,900"). */
  amount: (t: Tools, amount: string, label = t.shared.amount): Row => [label, amount],
  /**
   * An order's money when a discount or credit lowered it (issue 37): the price and the discount
   * (with its code, or the welcome discount) when there is one, the total, and the credit applied
   * and what was paid (or, for a charge to come, `paidLabel`: what will be) when credit covered part
   * of it. None without `price`.
   */
  price(t: Tools, price: EmailPrice | null | undefined, paidLabel = t.shared.paid): Row[] {
    if (!price) return [];
    const amount = (value: unknown, field: string) => t.text(value, `price.${field}`);
    const minus = (value: string) => `-${value}`;
    const discount = t.optionalText(price.discount);
    const credit = t.optionalText(price.creditApplied);
    const code = t.optionalText(price.promoCode);
    const discountLabel = price.discountSource === 'welcome' || !code ? t.shared.welcomeDiscount : t.shared.discountCode(code);
    if (discount && price.discountSource !== 'welcome' && !code) return t.invalid('price.promoCode', 'is required for a code discount');
    // Without a discount the price is the total: one row says it.
    const result: Row[] = discount
      ? [
          [t.shared.subtotal, amount(price.subtotal, 'subtotal')],
          [discountLabel, minus(discount)],
        ]
      : [];
    result.push([t.shared.total, amount(price.total, 'total')]);
    if (credit) result.push([t.shared.creditApplied, minus(credit)], [paidLabel, amount(price.toPay, 'toPay')]);
    return result;
  },
  /** Which profile of a shared account: none when the platform has one slot (null or missing), 0 for the whole account. */
  profile(t: Tools, value: ProfileNumber): Row[] {
    if (value === undefined || value === null) return [];
    if (!Number.isInteger(value) || value < 0) return t.invalid('profileNumber', 'must be 0 (whole account) or a profile number');
    return [[t.shared.profile, value === 0 ? t.shared.wholeAccount : t.shared.profileNumber(value)]];
  },
};

/** The price rows as a block of their own (none without a price): the order e-mail and the receipt. */
export const priceFacts = (t: Tools, price: EmailPrice | null | undefined, paidLabel?: string): Block[] => {
  const priceRows = rows.price(t, price, paidLabel);
  return priceRows.length > 0 ? [facts(...priceRows)] : [];
};

/** "Open my panel": the buyer's panel, or the link the caller gave. */
export const panelButton = (t: Tools, given?: string): Block => button(t.shared.openPanel, t.panelUrl(given));

/** Staff: "Open account health", the accounts by health, or the link the caller gave. */
export const accountHealthButton = (t: Tools, given?: string): Block => button(t.shared.openAccountHealth, t.page(EMAIL_PAGES.accountHealth(), given));

export interface EmailTemplate<K extends EmailKind> {
  render(data: EmailDataByKind[K], t: Tools): EmailContent;
}

/**
 * One e-mail kind: its words in English and Korean (write the Korean as `const ko: typeof en`, so
 * a text missing in either does not compile) and the one function that builds its content from
 * the data and the words of the e-mail's language.
 */
export function emailTemplate<K extends EmailKind, Words>(
  _kind: K,
  words: Record<Lang, Words>,
  build: (data: EmailDataByKind[K], t: Tools, w: Words) => EmailContent,
): EmailTemplate<K> {
  return { render: (data, t) => build(data, t, words[t.lang]) };
}
