/**
 * Taking one message in from the server without holding it whole (issue 33, bounded reading):
 * the stream runs through the authenticator (DKIM hashes the body as it passes) while only a
 * prefix of at most KEPT_BYTES is kept, parsed as soon as the message has passed (text parts
 * only, attachments drained) and dropped. A platform's mail is a few kilobytes of text; a 20 MB
 * attachment passes through and is gone, and what stays of a message is its header fields and
 * text.
 */
import { PassThrough, Readable } from 'node:stream';
import type { MailAuthentication } from '../../validation/mail-trust.js';
import type { MailAuthenticator } from './mail-authentication.js';
import { readMail, type ReadMail } from './platform-mail.js';

/** What is kept of a message for parsing: its header and about 2 MB of text after it. */
export const KEPT_BYTES = 2 * 1024 * 1024 + 64 * 1024;

/** How many more times a message whose check hit a DNS failure is checked (its lookups are retried too). */
const CHECK_AGAIN = 2;

export interface TakenMessage {
  /** What the first KEPT_BYTES of the message say; undefined when they do not parse as a message. */
  mail?: ReadMail;
  /** Whether the message went on past what was parsed. */
  truncated: boolean;
  authentication: MailAuthentication;
}

/**
 * `reopen` streams the same message from the server again: a message too large to keep whole
 * whose check hit a DNS failure is checked again from a fresh download, so a lost answer never
 * becomes a verdict for good.
 */
export async function takeIn(content: Readable, authenticator: MailAuthenticator, reopen?: () => Promise<Readable | undefined>): Promise<TakenMessage> {
  const toCheck = new PassThrough({ highWaterMark: 256 * 1024 });
  const checked = authenticator.check(toCheck);
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let truncated = false;
  try {
    for await (const chunk of content) {
      const bytes = chunk as Buffer;
      if (keptBytes < KEPT_BYTES) {
        const part = bytes.subarray(0, KEPT_BYTES - keptBytes);
        kept.push(Buffer.from(part)); // a copy: the rest of the chunk is not held through it
        keptBytes += part.length;
        if (part.length < bytes.length) truncated = true;
      } else truncated = true;
      if (!toCheck.write(bytes)) await new Promise((resolve) => toCheck.once('drain', resolve));
    }
    toCheck.end();
  } catch (error) {
    toCheck.destroy();
    await checked.catch(() => undefined);
    throw error;
  }
  let verdict = await checked;
  const whole = Buffer.concat(kept);
  kept.length = 0;
  // A DNS answer lost on the way (a busy resolver, a dropped packet) must not turn a genuine
  // platform mail unverified for good: a message kept whole is checked again from memory, a
  // larger one from the server.
  for (let again = 0; verdict.transient && again < CHECK_AGAIN; again += 1) {
    const message = truncated ? await reopen?.() : Readable.from([whole]);
    if (!message) break;
    verdict = await authenticator.check(message);
  }
  const mail = await readMail(whole).catch(() => undefined);
  return { mail, truncated, authentication: alignedWithFrom(verdict.authentication, verdict.domain, mail) };
}

/**
 * The verdict holds only when it is about the From line the shop reads: one author, whose domain
 * (RFC 5322, mail-address.ts) is the domain the check judged. Another reading of the same line
 * (the library's parser against ours) is not the platform's mail.
 */
function alignedWithFrom(authentication: MailAuthentication, domain: string | undefined, mail: ReadMail | undefined): MailAuthentication {
  if (authentication !== 'verified') return authentication;
  // `mail.from` is the one author's address (RFC 5322), '' when there is none or several.
  const fromDomain = mail?.from ? mail.from.slice(mail.from.lastIndexOf('@') + 1) : undefined;
  return fromDomain && domain && fromDomain === domain ? 'verified' : 'notAligned';
}
