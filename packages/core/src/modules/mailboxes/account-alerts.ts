/**
 * Account alerts (issue 29): what a platform's own mail says about the account, decided by the
 * platform's rules (data, validation/alert-rules.ts). The watcher hands every message it reads
 * or hears to the `HeardMailSink` as a `HeardMail`; the sink (the account-health flow) finds the
 * account the mail concerns and calls `classifyAlert` with that platform's rules.
 *
 * A `HeardMail` carries the visible text of the body for the rules to read, in memory only: the
 * body may hold a sign-in code or a link, so nothing but the subject, the sender and the times
 * is ever stored, logged or audited.
 */
import { simpleParser } from 'mailparser';
import type { AlertKind, AlertRules } from '../../validation/alert-rules.js';
import type { MailAuthentication } from '../../validation/mail-trust.js';
import type { FetchedMessage } from './mail-source.js';
import { addressesOf, htmlToText, parsePlatformMail } from './platform-mail.js';

export interface HeardMail {
  uid: number;
  /** UIDVALIDITY of the folder (with `uid`, the message's key); '0' when the server gave none. */
  uidValidity: string;
  messageId?: string;
  /** The sender's address, lower case. */
  from: string;
  subject: string;
  receivedAt: Date;
  /** The addresses it was delivered to, lower case. */
  recipients: string[];
  /** Visible text of the body. A secret (it may hold a code): never stored, logged or audited. */
  text: string;
  /** A household link or login code the shop reads for buyers: never an alert. */
  readForBuyers: boolean;
  /** Whether the mail passed DMARC for its From domain (issue 33), or why not. */
  authentication: MailAuthentication;
}

/** Where the watcher hands what it read; bound by the composition root (the account-health flow). */
export interface HeardMailSink {
  heard(mailboxId: number, mails: HeardMail[]): Promise<void>;
}

export type AlertVerdict = AlertKind | 'unrecognised';

/** The body text the rules read at most (a phrase stands near the top of an alert mail). */
const BODY_REACH = 20_000;

export async function heardMail(message: FetchedMessage): Promise<HeardMail | undefined> {
  try {
    const mail = await simpleParser(message.source, { skipImageLinks: true, skipTextToHtml: true });
    const html = typeof mail.html === 'string' ? mail.html : '';
    const recipients = [...addressesOf(mail.to), ...addressesOf(mail.cc)];
    return {
      uid: message.uid,
      uidValidity: message.uidValidity ?? '0',
      messageId: mail.messageId?.slice(0, 500),
      from: addressesOf(mail.from)[0] ?? '',
      subject: (mail.subject ?? '').slice(0, 500),
      receivedAt: message.receivedAt,
      recipients,
      text: `${mail.text ?? ''}\n${htmlToText(html)}`.slice(0, BODY_REACH),
      readForBuyers: (await parsePlatformMail(message.source).catch(() => undefined)) !== undefined,
      // DKIM / DMARC checking is issue 33's items 1-2 (a separate change); until it lands nothing is verified here.
      authentication: 'noSignature',
    };
  } catch {
    return undefined;
  }
}

/** Whether the address is one of the senders: a full address, or a domain and its subdomains. */
export function fromSender(address: string, senders: readonly string[]): boolean {
  const from = address.toLowerCase();
  const domain = from.slice(from.lastIndexOf('@') + 1);
  return senders.some((sender) => {
    const wanted = sender.toLowerCase();
    if (wanted.includes('@')) return from === wanted;
    return domain === wanted || domain.endsWith(`.${wanted}`);
  });
}

/**
 * The verdict on one mail under one platform's rules: undefined when it is not from the
 * platform's senders (nothing to say), the first matching rule's kind, or 'unrecognised' (the
 * platform wrote, no rule knows the mail: recorded as `unclassified` for staff, it changes
 * nothing). Mail the shop reads for buyers is always `ignore`.
 */
export function classifyAlert(mail: Pick<HeardMail, 'from' | 'subject' | 'text' | 'readForBuyers'>, rules: AlertRules): AlertVerdict | undefined {
  if (!fromSender(mail.from, rules.senders)) return undefined;
  if (mail.readForBuyers) return 'ignore';
  const subject = fold(mail.subject);
  const body = fold(mail.text);
  for (const rule of rules.rules) {
    const subjectHit = rule.subject.length > 0 && rule.subject.some((phrase) => subject.includes(fold(phrase)));
    const bodyHit = rule.body.length > 0 && rule.body.some((phrase) => body.includes(fold(phrase)));
    // Both lists given: both must hit; one given: that one.
    const matches = rule.subject.length > 0 && rule.body.length > 0 ? subjectHit && bodyHit : subjectHit || bodyHit;
    if (matches) return rule.kind;
  }
  return 'unrecognised';
}

/**
 * The subject as it may be kept and shown to staff. A mail the shop reads for buyers may name its
 * code in the subject ("Your ChatGPT code is 123456"): its runs of 4 to 8 digits are masked.
 */
export function subjectToKeep(mail: Pick<HeardMail, 'subject' | 'readForBuyers'>): string {
  return mail.readForBuyers ? mail.subject.replace(/\d{4,8}/g, '••••••') : mail.subject;
}

/** Lower case, curly apostrophes straight, whitespace folded: how phrases and mail are compared. */
function fold(value: string): string {
  return value
    .normalize('NFC')
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}
