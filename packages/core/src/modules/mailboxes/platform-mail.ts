/**
 * What the platforms' e-mails carry, read from one raw message (shared/reference protocols.md,
 * section 7): Netflix's household and travel links, and ChatGPT/OpenAI's six-digit login codes.
 *
 * Parsing is deliberately narrow. MIME and quoted-printable are decoded by mailparser first (a
 * `=3D` or a soft line break inside a link broke several public parsers); the HTML part's
 * `<a href>` values are preferred and matched by host + path; the sender must be the platform's
 * own domain; a code is taken only right after a known anchor, never by a bare six-digit search
 * over the HTML (colour codes such as `#177010` and dates would match). Nothing here logs.
 */
import he from 'he';
import type { AddressObject } from 'mailparser';

export type PlatformMailKind = 'householdLink' | 'loginCode';

export interface PlatformMail {
  kind: PlatformMailKind;
  /** The link or the code. A secret: never logged, never audited. */
  value: string;
  /** The addresses the message was delivered to (To, Cc, Delivered-To, X-Original-To), lower case. */
  recipients: string[];
  /** The message's own Date header, when it has a valid one. */
  sentAt?: Date;
}

const NETFLIX_SENDER = /(^|[.@])netflix\.com$/i;
const OPENAI_SENDER = /(^|[.@])(openai\.com|chatgpt\.com)$/i;
const NETFLIX_HOST = /^(www\.)?netflix\.com$/i;
/** The "Get Code" (travel / temporary access) and "Yes, This Was Me" (household update) buttons. */
const NETFLIX_PATHS = [/^\/account\/travel\/verify\/?$/i, /^\/account\/update-primary-location\/?$/i];
const NETFLIX_TOKEN_PARAMS = ['nftoken', 'token'];

/** Subjects that carry the code themselves: "Your ChatGPT code is 123456", "你的 ChatGPT 代码为 642496", "Your OpenAI code is …". */
const CODE_IN_SUBJECT = /(chatgpt|openai)[^\d]{0,40}?(?<!\d)(\d{6})(?!\d)/i;
/** Body anchors after which the first standalone six digits are the code. */
const CODE_ANCHORS = [/verification code to continue:?/i, /log-?in code/i, /login code/i, /verification code/i, /your (chatgpt|openai) code/i];
const SIX_DIGITS = /(?<![\d#])(\d{6})(?!\d)/;
/** How far after an anchor the code may stand. */
const ANCHOR_REACH = 200;

/** Parses one raw message; undefined when it is none of the e-mails the shop reads. */
export async function parsePlatformMail(source: Buffer | string): Promise<PlatformMail | undefined> {
  // Loaded on first use: most processes never read a mailbox (see imapflow-mail-source.ts).
  const { simpleParser } = await import('mailparser');
  const mail = await simpleParser(source, { skipImageLinks: true, skipTextToHtml: true });
  const from = addressesOf(mail.from)[0] ?? '';
  const recipients = [
    ...addressesOf(mail.to),
    ...addressesOf(mail.cc),
    ...headerAddresses(mail.headers.get('delivered-to')),
    ...headerAddresses(mail.headers.get('x-original-to')),
  ];
  const sentAt = mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date : undefined;
  const html = typeof mail.html === 'string' ? mail.html : '';
  const text = mail.text ?? '';

  if (NETFLIX_SENDER.test(domainOf(from))) {
    const link = householdLink(html, text);
    return link ? { kind: 'householdLink', value: link, recipients: unique(recipients), sentAt } : undefined;
  }
  if (OPENAI_SENDER.test(domainOf(from))) {
    const code = loginCode(mail.subject ?? '', text, html);
    return code ? { kind: 'loginCode', value: code, recipients: unique(recipients), sentAt } : undefined;
  }
  return undefined;
}

/** The first household or travel link: `<a href>` values of the HTML part first, then URLs in the text part. */
export function householdLink(html: string, text: string): string | undefined {
  const hrefs = [...html.matchAll(/<a\b[^>]*?\bhref\s*=\s*(["'])(.*?)\1/gis)].map((match) => he.decode(match[2], { isAttributeValue: true }));
  const textUrls = [...text.matchAll(/https?:\/\/[^\s<>"')\]]+/gi)].map((match) => match[0]);
  for (const candidate of [...hrefs, ...textUrls]) {
    const link = netflixLink(candidate.trim());
    if (link) return link;
  }
  return undefined;
}

function netflixLink(candidate: string): string | undefined {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' || !NETFLIX_HOST.test(url.hostname)) return undefined;
  if (!NETFLIX_PATHS.some((path) => path.test(url.pathname))) return undefined;
  if (!NETFLIX_TOKEN_PARAMS.some((name) => url.searchParams.get(name))) return undefined;
  return url.toString();
}

/** The six-digit code: from the subject when it names it, otherwise after a known anchor in the text, then in the HTML's text. */
export function loginCode(subject: string, text: string, html: string): string | undefined {
  const inSubject = CODE_IN_SUBJECT.exec(subject);
  if (inSubject) return inSubject[2];
  for (const body of [text, htmlToText(html)]) {
    const flat = body.replace(/\s+/g, ' ');
    for (const anchor of CODE_ANCHORS) {
      const at = anchor.exec(flat);
      if (!at) continue;
      const after = flat.slice(at.index + at[0].length, at.index + at[0].length + ANCHOR_REACH);
      const code = SIX_DIGITS.exec(after);
      if (code) return code[1];
    }
  }
  return undefined;
}

/**
 * Visible text of an HTML body: no styles, scripts, tags or attribute values (no colour codes).
 * Tags go first, then `he` decodes every entity in one pass, so `&amp;lt;` stays the text `&lt;`.
 */
export function htmlToText(html: string): string {
  return he.decode(html.replace(/<(style|script|head)\b[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' '));
}

export function addressesOf(field: AddressObject | AddressObject[] | undefined): string[] {
  if (!field) return [];
  const objects = Array.isArray(field) ? field : [field];
  const out: string[] = [];
  const walk = (entries: Array<{ address?: string; group?: Array<{ address?: string }> }>) => {
    for (const entry of entries) {
      if (entry.address) out.push(entry.address.toLowerCase());
      if (entry.group) walk(entry.group);
    }
  };
  for (const object of objects) walk(object.value);
  return out;
}

/** Delivered-To / X-Original-To: plain addresses, possibly several headers, possibly in angle brackets. */
function headerAddresses(value: unknown): string[] {
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values.flatMap((item) => {
    const textValue = typeof item === 'string' ? item : ((item as { text?: string })?.text ?? '');
    return [...textValue.matchAll(/[^\s<>,;"]+@[^\s<>,;"]+/g)].map((match) => match[0].toLowerCase());
  });
}

function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1);
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
