/**
 * The one layout every e-mail shares. A template describes its content as plain-text blocks;
 * this file turns them into HTML (escaped here, in one place, so no template can forget) and
 * into the plain-text part, so the two always say the same thing.
 *
 * The HTML is what mail clients render reliably: tables for layout, inline styles, no scripts,
 * no images, a `lang` attribute, real text for links and sufficient contrast (WCAG AA).
 */
import type { BusinessDetails } from '../../../shared/config.js';
import { escapeHtml } from '../../../shared/html.js';
import type { EmailLanguageId } from '../email-kinds.js';
import { EMAIL_PAGES, absolute } from './links.js';

export type Block =
  | { type: 'paragraph'; text: string }
  | { type: 'code'; label: string; value: string }
  | { type: 'facts'; rows: Array<[label: string, value: string]> }
  | { type: 'steps'; items: string[] }
  | { type: 'button'; label: string; url: string }
  | { type: 'note'; text: string };

/** What a template returns: plain text only, never markup. */
export interface EmailContent {
  subject: string;
  /** The line mail clients show next to the subject in the inbox. */
  preheader: string;
  heading: string;
  blocks: Block[];
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

export interface LayoutContext {
  languageId: EmailLanguageId;
  brand: string;
  publicUrl: string;
  business: BusinessDetails;
}

/** Control characters (CR, LF included) would break a header or a line: they become spaces. */
export function singleLine(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}

/** Only http(s) links go into an e-mail; anything else (javascript:, data:, garbage) becomes the fallback. */
export function safeUrl(value: string | undefined, fallback: string): string {
  if (value === undefined) return fallback;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : fallback;
  } catch {
    return fallback;
  }
}

const FONT = "-apple-system, 'Segoe UI', Roboto, 'Apple SD Gothic Neo', 'Malgun Gothic', 'Noto Sans KR', Arial, sans-serif";
const TEXT_COLOR = '#1f2937';
const MUTED_COLOR = '#4b5563';
const ACCENT = '#4338ca'; // white on it: 7.2:1

const FOOTER_LABELS: Record<
  EmailLanguageId,
  { registration: string; mailOrder: string; representative: string; support: string; why: (host: string) => string }
> = {
  1: {
    registration: 'Company registration no.',
    mailOrder: 'Mail-order business report no.',
    representative: 'Representative',
    support: 'Support',
    why: (host) => `You receive this e-mail because of your account at ${host}.`,
  },
  2: {
    registration: '사업자등록번호',
    mailOrder: '통신판매업 신고번호',
    representative: '대표자',
    support: '고객센터',
    why: (host) => `본 메일은 ${host} 계정과 관련된 안내를 위해 발송되었습니다.`,
  },
};

/** The business details the law asks of a Korean online shop, and why the e-mail came (footer of both parts). */
function footerLines(ctx: LayoutContext): string[] {
  const { business } = ctx;
  const labels = FOOTER_LABELS[ctx.languageId];
  return [
    `${business.name} · ${labels.registration} ${business.registrationNumber} · ${labels.mailOrder} ${business.mailOrderNumber}`,
    `${business.address} · ${labels.representative}: ${business.representative}`,
    `${labels.support}: ${business.supportPhone} · ${business.supportEmail}`,
    labels.why(new URL(ctx.publicUrl).host),
  ];
}

function blockHtml(block: Block): string {
  const p = (text: string, style = '') => `<p style="margin:0 0 16px;${style}">${escapeHtml(text)}</p>`;
  switch (block.type) {
    case 'paragraph':
      return p(block.text);
    case 'note':
      return p(block.text, `font-size:14px;color:${MUTED_COLOR};`);
    case 'code':
      return (
        `<p style="margin:0 0 4px;font-size:14px;color:${MUTED_COLOR};">${escapeHtml(block.label)}</p>` +
        `<p style="margin:0 0 16px;font-family:'Courier New',Courier,monospace;font-size:32px;font-weight:bold;letter-spacing:6px;color:${TEXT_COLOR};">${escapeHtml(block.value)}</p>`
      );
    case 'facts':
      return (
        `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 16px;border-collapse:collapse;">` +
        block.rows
          .map(
            ([label, value]) =>
              `<tr><th scope="row" align="left" style="padding:4px 16px 4px 0;font-weight:normal;color:${MUTED_COLOR};vertical-align:top;">${escapeHtml(label)}</th>` +
              `<td style="padding:4px 0;font-weight:bold;color:${TEXT_COLOR};">${escapeHtml(value)}</td></tr>`,
          )
          .join('') +
        `</table>`
      );
    case 'steps':
      return `<ol style="margin:0 0 16px;padding-left:24px;">${block.items.map((item) => `<li style="margin:0 0 8px;">${escapeHtml(item)}</li>`).join('')}</ol>`;
    case 'button':
      return (
        `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:8px 0 24px;"><tr>` +
        `<td style="border-radius:6px;background-color:${ACCENT};">` +
        `<a href="${escapeHtml(block.url)}" style="display:inline-block;padding:12px 24px;font-family:${FONT};font-size:16px;font-weight:bold;color:#ffffff;text-decoration:none;border-radius:6px;">${escapeHtml(block.label)}</a>` +
        `</td></tr></table>` +
        `<p style="margin:0 0 16px;font-size:13px;color:${MUTED_COLOR};word-break:break-all;">${escapeHtml(block.url)}</p>`
      );
  }
}

function blockText(block: Block): string {
  switch (block.type) {
    case 'paragraph':
    case 'note':
      return block.text;
    case 'code':
      return `${block.label}\n\n    ${block.value}`;
    case 'facts':
      return block.rows.map(([label, value]) => `${label}: ${value}`).join('\n');
    case 'steps':
      return block.items.map((item, index) => `${index + 1}. ${item}`).join('\n');
    case 'button':
      return `${block.label}:\n${block.url}`;
  }
}

/** The header: the brand, above the heading. */
function headerHtml(ctx: LayoutContext): string {
  return `<tr><td style="padding:24px 32px 0;font-family:${FONT};font-size:18px;font-weight:bold;color:${ACCENT};">${escapeHtml(ctx.brand)}</td></tr>`;
}

/** The footer below the card: the business details, then the home page and the support address. */
function footerHtml(ctx: LayoutContext, footer: string[], site: string): string[] {
  return [
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;">`,
    `<tr><td style="padding:16px 32px;font-family:${FONT};font-size:12px;line-height:1.6;color:${MUTED_COLOR};">`,
    ...footer.map((line) => `<p style="margin:0 0 4px;">${escapeHtml(line)}</p>`),
    `<p style="margin:8px 0 0;"><a href="${escapeHtml(site)}" style="color:${MUTED_COLOR};">${escapeHtml(site)}</a> · ` +
      `<a href="mailto:${escapeHtml(ctx.business.supportEmail)}" style="color:${MUTED_COLOR};">${escapeHtml(ctx.business.supportEmail)}</a></p>`,
    `</td></tr>`,
    `</table>`,
  ];
}

export function renderLayout(content: EmailContent, ctx: LayoutContext): RenderedEmail {
  const lang = ctx.languageId === 2 ? 'ko' : 'en';
  const subject = singleLine(content.subject);
  const footer = footerLines(ctx);
  const site = absolute(ctx.publicUrl, EMAIL_PAGES.home());

  const html = [
    '<!doctype html>',
    `<html lang="${lang}" dir="ltr">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light">',
    `<title>${escapeHtml(subject)}</title>`,
    '</head>',
    `<body style="margin:0;padding:0;background-color:#f3f4f6;">`,
    `<div style="display:none;max-height:0;overflow:hidden;opacity:0;">${escapeHtml(content.preheader)}</div>`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background-color:#f3f4f6;">`,
    `<tr><td align="center" style="padding:24px 12px;">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background-color:#ffffff;border-radius:8px;">`,
    headerHtml(ctx),
    // Korean breaks between words, not inside them.
    `<tr><td style="padding:8px 32px 16px;font-family:${FONT};font-size:16px;line-height:1.6;color:${TEXT_COLOR};${lang === 'ko' ? 'word-break:keep-all;' : ''}">`,
    `<h1 style="margin:8px 0 16px;font-size:22px;line-height:1.3;color:${TEXT_COLOR};">${escapeHtml(content.heading)}</h1>`,
    ...content.blocks.map(blockHtml),
    `</td></tr>`,
    `</table>`,
    ...footerHtml(ctx, footer, site),
    `</td></tr>`,
    `</table>`,
    '</body>',
    '</html>',
  ].join('\n');

  const text = [content.heading, ...content.blocks.map(blockText), `-- \n${ctx.brand}\n${footer.join('\n')}\n${site}`].join('\n\n') + '\n';

  return { subject, html, text };
}
