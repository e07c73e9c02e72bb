/**
 * What the platforms' e-mails carry, read from one raw message (shared/reference protocols.md,
 * section 7): Netflix's household and travel links, and ChatGPT/OpenAI's six-digit login codes.
 *
 * Parsing is deliberately narrow. MIME and quoted-printable are decoded by mailparser first (a
 * `=3D` or a soft line break inside a link broke several public parsers); the HTML part's
 * `<a href>` values are preferred and matched by path and token; a code is taken only right after
 * a known anchor, never by a bare six-digit search over the HTML (colour codes such as `#177010`
 * and dates would match). Who may send it and which hosts its links may name are the platform's
 * data (its alert rules' `senders` and `linkHosts`), checked by `speaksFor` when a buyer asks;
 * only mail that passed DMARC for its From domain is parsed for buyers at all (issue 33).
 * Nothing here logs.
 */
import he from 'he';
import type { AddressObject, MailParser as MailParserType } from 'mailparser';
import { fromSender, headerFields, parseFrom } from './mail-address.js';

export type PlatformMailKind = 'householdLink' | 'loginCode';

export interface PlatformMail {
  kind: PlatformMailKind;
  /** The link or the code. A secret: never logged, never audited. */
  value: string;
  /** The author (From, RFC 5322), lower case; the mail counts only for a platform whose senders include it. */
  from: string;
  /** The addresses the message was delivered to (To, Cc, Delivered-To, X-Original-To), lower case. */
  recipients: string[];
  /** The message's own Date header, when it has a valid one. */
  sentAt?: Date;
}

/** What a platform's mail must be from, and where its links may point (the platform's alert rules). */
export interface PlatformVoice {
  senders: readonly string[];
  linkHosts: readonly string[];
}

/** The "Get Code" (travel / temporary access) and "Yes, This Was Me" (household update) buttons. */
const HOUSEHOLD_PATHS = [/^\/account\/travel\/verify\/?$/i, /^\/account\/update-primary-location\/?$/i];
const HOUSEHOLD_TOKEN_PARAMS = ['nftoken', 'token'];

/** Subjects that carry the code themselves: "Your ChatGPT code is 123456", "你的 ChatGPT 代码为 642496", "Your OpenAI code is …". */
const CODE_IN_SUBJECT = /(chatgpt|openai)[^\d]{0,40}?(?<!\d)(\d{6})(?!\d)/i;
/** Body anchors after which the first standalone six digits are the code. */
const CODE_ANCHORS = [/verification code to continue:?/i, /log-?in code/i, /login code/i, /verification code/i, /your (chatgpt|openai) code/i];
const SIX_DIGITS = /(?<![\d#])(\d{6})(?!\d)/;
/** How far after an anchor the code may stand. */
const ANCHOR_REACH = 200;
/** Text and HTML read of one message at most (the kept prefix is about this size already, mail-intake.ts). */
const TEXT_LIMIT = 2 * 1024 * 1024;

/** One message as the shop reads it: the header it needs and the text parts, never an attachment. */
export interface ReadMail {
  /** The one author (RFC 5322), lower case; '' when the From line names none or several. */
  from: string;
  to: string[];
  cc: string[];
  /** Delivered-To and X-Original-To. */
  deliveredTo: string[];
  subject: string;
  messageId?: string;
  date?: Date;
  text: string;
  html: string;
}

/**
 * Parses the kept prefix of a message (mail-intake.ts) with mailparser's stream: MIME and
 * quoted-printable decoded, text and HTML parts kept up to TEXT_LIMIT, attachments drained
 * unread (the parser waits for each to be released).
 */
export async function readMail(source: Buffer | string): Promise<ReadMail> {
  // Loaded on first use: most processes never read a mailbox (see imapflow-mail-source.ts).
  const { MailParser } = await import('mailparser');
  const raw = typeof source === 'string' ? Buffer.from(source) : source;
  const parser: MailParserType = new MailParser({ skipImageLinks: true, skipTextToHtml: true, maxHtmlLengthToParse: TEXT_LIMIT });
  let headers = new Map<string, unknown>();
  let text = '';
  let html = '';
  await new Promise<void>((resolve, reject) => {
    parser.on('headers', (parsed: Map<string, unknown>) => (headers = parsed));
    parser.on('data', (data: { type: string; text?: string; html?: string | false; content?: NodeJS.ReadableStream; release?: (() => void) | null }) => {
      if (data.type === 'attachment') {
        data.content?.on('end', () => data.release?.());
        data.content?.resume();
        return;
      }
      if (data.type === 'text') {
        text = (data.text ?? '').slice(0, TEXT_LIMIT);
        html = typeof data.html === 'string' ? data.html.slice(0, TEXT_LIMIT) : '';
      }
    });
    parser.on('error', reject);
    parser.on('end', () => resolve());
    parser.end(raw);
  });
  const fromLines = headerFields(raw, 'from');
  const date = headers.get('date');
  const subject = headers.get('subject');
  const messageId = headers.get('message-id');
  return {
    from: fromLines.length === 1 ? (parseFrom(fromLines[0])?.address ?? '') : '',
    to: addressesOf(headers.get('to') as AddressObject | AddressObject[] | undefined),
    cc: addressesOf(headers.get('cc') as AddressObject | AddressObject[] | undefined),
    deliveredTo: [...headerAddresses(headers.get('delivered-to')), ...headerAddresses(headers.get('x-original-to'))],
    subject: typeof subject === 'string' ? subject : '',
    messageId: typeof messageId === 'string' ? messageId : undefined,
    date: date instanceof Date && !Number.isNaN(date.getTime()) ? date : undefined,
    text,
    html,
  };
}

/**
 * What one message offers buyers: the first household link (path and token of the platform's
 * buttons, any host: the platform's own hosts are checked against its rules when a buyer asks,
 * `speaksFor`) or else a login code; undefined when it has neither.
 */
export function platformMailOf(mail: ReadMail): PlatformMail | undefined {
  const recipients = unique([...mail.to, ...mail.cc, ...mail.deliveredTo]);
  const base = { from: mail.from, recipients, sentAt: mail.date };
  const link = householdLink(mail.html, mail.text);
  if (link) return { kind: 'householdLink', value: link, ...base };
  const code = loginCode(mail.subject, mail.text, mail.html);
  return code ? { kind: 'loginCode', value: code, ...base } : undefined;
}

/** Parses one raw message; undefined when it is none of the e-mails the shop reads. */
export async function parsePlatformMail(source: Buffer | string): Promise<PlatformMail | undefined> {
  return platformMailOf(await readMail(source));
}

/** Whether a found mail may be handed out for this platform: from its senders, and a link only to its own hosts. */
export function speaksFor(mail: Pick<PlatformMail, 'kind' | 'value' | 'from'>, platform: PlatformVoice): boolean {
  if (!mail.from || !fromSender(mail.from, platform.senders)) return false;
  return mail.kind !== 'householdLink' || linkHostAllowed(mail.value, platform.linkHosts);
}

/** Whether the link's host is one of the platform's (exact host names, lower case). */
export function linkHostAllowed(link: string, hosts: readonly string[]): boolean {
  const host = hostOf(link);
  return host !== undefined && hosts.some((allowed) => allowed.toLowerCase() === host);
}

export function hostOf(link: string): string | undefined {
  try {
    return new URL(link).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** The first household or travel link: `<a href>` values of the HTML part first, then URLs in the text part. */
export function householdLink(html: string, text: string): string | undefined {
  const hrefs = [...html.matchAll(/<a\b[^>]*?\bhref\s*=\s*(["'])(.*?)\1/gis)].map((match) => he.decode(match[2], { isAttributeValue: true }));
  const textUrls = [...text.matchAll(/https?:\/\/[^\s<>"')\]]+/gi)].map((match) => match[0]);
  for (const candidate of [...hrefs, ...textUrls]) {
    const link = buttonLink(candidate.trim());
    if (link) return link;
  }
  return undefined;
}

function buttonLink(candidate: string): string | undefined {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:') return undefined;
  if (!HOUSEHOLD_PATHS.some((path) => path.test(url.pathname))) return undefined;
  if (!HOUSEHOLD_TOKEN_PARAMS.some((name) => url.searchParams.get(name))) return undefined;
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

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
