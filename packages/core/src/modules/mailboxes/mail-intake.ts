/**
 * Taking one message in from the server without holding it whole (issue 33, bounded reading):
 * the stream runs through the authenticator (DKIM hashes the body as it passes) while only a
 * prefix of at most KEPT_BYTES is kept for parsing. A platform's mail is a few kilobytes of
 * text; a 20 MB attachment passes through and is gone.
 */
import { PassThrough, type Readable } from 'node:stream';
import type { MailAuthentication } from '../../validation/mail-trust.js';
import { parseFrom } from './mail-address.js';
import type { MailAuthenticator } from './mail-authentication.js';

/** What is kept of a message for parsing: its header and about 2 MB of text after it. */
export const KEPT_BYTES = 2 * 1024 * 1024 + 64 * 1024;

export interface TakenMessage {
  /** The first KEPT_BYTES of the raw message. */
  source: Buffer;
  /** Whether the message went on past `source`. */
  truncated: boolean;
  authentication: MailAuthentication;
}

export async function takeIn(content: Readable, authenticator: MailAuthenticator): Promise<TakenMessage> {
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
  const source = Buffer.concat(kept);
  const verdict = await checked;
  return { source, truncated, authentication: alignedWithFrom(verdict.authentication, verdict.domain, source) };
}

/**
 * The verdict holds only when it is about the From line the shop reads: one author, whose domain
 * (RFC 5322, mail-address.ts) is the domain the check judged. Another reading of the same line
 * (the library's parser against ours) is not the platform's mail.
 */
function alignedWithFrom(authentication: MailAuthentication, domain: string | undefined, source: Buffer): MailAuthentication {
  if (authentication !== 'verified') return authentication;
  const fromLines = headerFields(source, 'from');
  const from = fromLines.length === 1 ? parseFrom(fromLines[0]) : undefined;
  return from && domain && from.domain === domain ? 'verified' : 'notAligned';
}

/** The unfolded values of one header field, from the header block of a raw message. */
export function headerFields(source: Buffer, name: string): string[] {
  const text = source.subarray(0, 256 * 1024).toString('utf8');
  const end = text.search(/\r?\n\r?\n/);
  const header = end === -1 ? text : text.slice(0, end);
  const wanted = name.toLowerCase();
  return header
    .replace(/\r?\n[ \t]/g, ' ')
    .split(/\r?\n/)
    .flatMap((line) => {
      const colon = line.indexOf(':');
      return colon > 0 && line.slice(0, colon).trim().toLowerCase() === wanted ? [line.slice(colon + 1).trim()] : [];
    });
}
