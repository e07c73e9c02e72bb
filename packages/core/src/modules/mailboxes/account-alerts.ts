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
import type { AlertKind, AlertRules } from '../../validation/alert-rules.js';
import type { MailAuthentication } from '../../validation/mail-trust.js';
import { fromSender } from './mail-address.js';
import type { FetchedMessage } from './mail-source.js';
import { hostOf, htmlToText, linkHostAllowed, platformMailOf } from './platform-mail.js';

export { fromSender };

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
  /** Whether it passed DMARC for its From domain, or why not: only a verified mail speaks for a platform. */
  authentication: MailAuthentication;
  /** The host of the household link it carries (the link itself is a secret and stays out). */
  linkHost?: string;
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
    const mail = message.mail;
    const found = platformMailOf(mail);
    return {
      uid: message.uid,
      uidValidity: message.uidValidity ?? '0',
      messageId: mail.messageId?.slice(0, 500),
      from: mail.from,
      subject: mail.subject.slice(0, 500),
      receivedAt: message.receivedAt,
      recipients: [...mail.to, ...mail.cc],
      text: `${mail.text}\n${htmlToText(mail.html)}`.slice(0, BODY_REACH),
      readForBuyers: found !== undefined,
      authentication: message.authentication,
      linkHost: found?.kind === 'householdLink' ? hostOf(found.value) : undefined,
    };
  } catch {
    return undefined;
  }
}

/** Whether the mail's household link points outside the platform's hosts (it is never handed out; staff see that it was dropped). */
export function linkDropped(mail: Pick<HeardMail, 'linkHost'>, rules: Pick<AlertRules, 'linkHosts'>): boolean {
  return mail.linkHost !== undefined && !linkHostAllowed(`https://${mail.linkHost}/`, rules.linkHosts);
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
