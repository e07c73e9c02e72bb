/**
 * Whether a mail is really from the domain its From line names (issue 33): only then may it
 * speak for a platform. Two ways, chosen by configuration:
 *
 * - DKIM here (default): mailauth verifies every DKIM signature against the keys in DNS, over
 *   the message as it streams from the server (the body is hashed, never kept), and evaluates
 *   DMARC. `verified` needs DMARC to pass by a signature whose `d=` aligns with the From domain
 *   (relaxed: the same organizational domain); SPF is never counted (the shop reads a mailbox, it
 *   saw no connecting IP). The resolver asks MAIL_DNS_SERVERS, else the system's servers.
 * - MAIL_AUTHSERV_ID: the shop's own mail server already checked. Only its Authentication-Results
 *   header (that authserv-id, topmost) counts: `dmarc=pass` with `header.from` equal to the From
 *   domain. Headers of any other authserv-id are ignored: anyone can write them.
 *
 * Any doubt is not `verified`: a DNS failure, a missing DMARC record, two From addresses.
 */
import { Resolver } from 'node:dns/promises';
import type { Readable } from 'node:stream';
import type { MailAuthentication } from '../../validation/mail-trust.js';
import { headerFields, parseFrom } from './mail-address.js';

export interface MailCheck {
  authentication: MailAuthentication;
  /**
   * The verdict may change on asking again: a DNS lookup failed (a key or the DMARC policy could not
   * be read), not the signature. Such a mail is checked again rather than judged on a lost answer.
   */
  transient?: boolean;
  /** The From domain the verdict is about, lower case. */
  domain?: string;
}

export interface MailAuthenticator {
  /** Reads the whole message from `message` (drains it) and judges it. Never throws: a failure is not `verified`. */
  check(message: Readable): Promise<MailCheck>;
}

/** The DKIM/DMARC check over DNS, with mailauth. */
export class DkimMailAuthenticator implements MailAuthenticator {
  private readonly resolver: (name: string, type: string) => Promise<string[][] | string[]>;

  /** `servers`: `host:port` entries (MAIL_DNS_SERVERS); empty: the system's resolvers. */
  constructor(servers: string[], timeoutMs = 2_000) {
    const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
    if (servers.length > 0) resolver.setServers(servers);
    this.resolver = cachedLookups((name, type) => resolver.resolve(name, type) as Promise<string[][] | string[]>);
  }

  async check(message: Readable): Promise<MailCheck> {
    try {
      // Loaded on first use, as mailparser and imapflow are: most processes never read a mailbox.
      const { authenticate } = await import('mailauth');
      const result = await authenticate(message, { resolver: this.resolver, disableArc: true, disableBimi: true, mta: 'subshare' });
      const signatures = result.dkim?.results ?? [];
      const dmarc = result.dmarc || undefined;
      // The From line as mailauth read it (DMARC's own `header.from` is the organizational domain):
      // one author, whose domain the caller compares with its own reading (mail-intake.ts).
      const authors = result.dkim?.headerFrom ?? [];
      const domain = authors.length === 1 ? authors[0].slice(authors[0].lastIndexOf('@') + 1).toLowerCase() : undefined;
      const passing = signatures.filter((signature) => signature.status.result === 'pass');
      if (dmarc?.status.result === 'pass' && passing.some((signature) => signature.status.aligned)) return { authentication: 'verified', domain };
      const transient = dmarc?.status.result === 'temperror' || signatures.some((signature) => signature.status.result === 'temperror');
      if (passing.some((signature) => !signature.status.aligned)) return { authentication: 'notAligned', domain, transient };
      if (signatures.some((signature) => signature.status.result !== 'none')) return { authentication: 'badSignature', domain, transient };
      return { authentication: 'noSignature', domain };
    } catch {
      message.resume();
      return { authentication: 'badSignature', transient: true };
    }
  }
}

/** Trusts the Authentication-Results header of one authserv-id (the shop's own mail server). */
export class AuthservMailAuthenticator implements MailAuthenticator {
  constructor(private readonly authservId: string) {}

  async check(message: Readable): Promise<MailCheck> {
    const header = await readHeader(message);
    const fromLines = headerFields(header, 'from');
    const fromDomain = fromLines.length === 1 ? parseFrom(fromLines[0])?.domain : undefined;
    // The topmost header of that id: the shop's server adds its own above whatever came in.
    const trusted = headerFields(header, 'authentication-results')
      .map((value) => parseAuthenticationResults(value))
      .find((results) => results?.authservId === this.authservId.toLowerCase());
    if (!trusted) return { authentication: 'noSignature', domain: fromDomain };
    const dmarc = trusted.methods.find((method) => method.method === 'dmarc');
    if (dmarc?.result === 'pass' && fromDomain && dmarc.properties['header.from'] === fromDomain) return { authentication: 'verified', domain: fromDomain };
    const dkim = trusted.methods.filter((method) => method.method === 'dkim');
    if (dkim.some((method) => method.result === 'pass')) return { authentication: 'notAligned', domain: fromDomain };
    if (dkim.some((method) => method.result !== 'none')) return { authentication: 'badSignature', domain: fromDomain };
    return { authentication: 'noSignature', domain: fromDomain };
  }
}

/** At most this much header is read for Authentication-Results (the rest of the message is drained). */
const HEADER_LIMIT = 256 * 1024;

async function readHeader(message: Readable): Promise<Buffer> {
  let kept = Buffer.alloc(0);
  let done = false;
  for await (const chunk of message) {
    if (done) continue; // drained, not kept
    kept = Buffer.concat([kept, chunk as Buffer]);
    const end = kept.indexOf('\r\n\r\n');
    const endLf = kept.indexOf('\n\n');
    const at = [end, endLf].filter((index) => index !== -1).sort((a, b) => a - b)[0];
    if (at !== undefined || kept.length >= HEADER_LIMIT) {
      kept = kept.subarray(0, at ?? HEADER_LIMIT);
      done = true;
    }
  }
  return kept;
}

interface AuthenticationResults {
  authservId: string;
  methods: Array<{ method: string; result: string; properties: Record<string, string> }>;
}

/** RFC 8601: `authserv-id [version]; method=result (comment) ptype.property=value …; …`. */
export function parseAuthenticationResults(value: string): AuthenticationResults | undefined {
  const withoutComments = stripComments(value);
  const [head, ...rest] = withoutComments.split(';');
  const authservId = head.trim().split(/\s+/)[0]?.replace(/^"|"$/g, '').toLowerCase();
  if (!authservId) return undefined;
  const methods = rest
    .map((part) => part.trim())
    .filter((part) => part && part.toLowerCase() !== 'none')
    .map((part) => {
      const [first, ...properties] = part.split(/\s+/);
      const [method, result] = first.toLowerCase().split('=');
      const props: Record<string, string> = {};
      for (const property of properties) {
        const eq = property.indexOf('=');
        if (eq > 0)
          props[property.slice(0, eq).toLowerCase()] = property
            .slice(eq + 1)
            .replace(/^"|"$/g, '')
            .toLowerCase();
      }
      return { method: method.split('/')[0], result: result ?? '', properties: props };
    });
  return { authservId, methods };
}

/** Drops (comments), nested ones too, outside quoted strings. */
function stripComments(value: string): string {
  let out = '';
  let depth = 0;
  let quoted = false;
  for (let index = 0; index < value.length; index += 1) {
    const char = value[index];
    if (char === '\\') {
      if (depth === 0) out += value.slice(index, index + 2);
      index += 1;
    } else if (char === '"' && depth === 0) {
      quoted = !quoted;
      out += char;
    } else if (char === '(' && !quoted) depth += 1;
    else if (char === ')' && !quoted && depth > 0) depth -= 1;
    else if (depth === 0) out += char;
  }
  return out;
}

/** How long a DNS answer (a key, a DMARC policy, or "there is none") is reused. */
export const DNS_ANSWER_MS = 5 * 60_000;
/** DNS errors that say nothing about the name: asked again at once, never remembered. */
const TRANSIENT_DNS = new Set(['ETIMEOUT', 'ECONNREFUSED', 'ESERVFAIL', 'EREFUSED', 'ECANCELLED', 'EAI_AGAIN']);

/**
 * The same few names (a platform's selector keys, its `_dmarc` record) are asked for every mail:
 * one lookup serves every mail that asks within DNS_ANSWER_MS, and lookups asked for at once share
 * one query. A transient failure (a timeout, a server error) is tried once more and then left
 * unremembered, so it turns one mail unverified at most, never the next ones; a signed platform
 * mail read in a burst with sixty others is not judged by a lost UDP packet.
 */
export function cachedLookups(
  lookup: (name: string, type: string) => Promise<string[][] | string[]>,
  now: () => number = Date.now,
): (name: string, type: string) => Promise<string[][] | string[]> {
  const answers = new Map<string, { until: number; answer: Promise<string[][] | string[]> }>();
  const transient = (error: unknown) => TRANSIENT_DNS.has((error as { code?: string } | undefined)?.code ?? '');
  return (name, type) => {
    const key = `${type} ${name.toLowerCase()}`;
    const known = answers.get(key);
    if (known && known.until > now()) return known.answer;
    const answer = lookup(name, type).catch((error: unknown) => (transient(error) ? lookup(name, type) : Promise.reject(error)));
    answers.set(key, { until: now() + DNS_ANSWER_MS, answer });
    answer.catch((error: unknown) => {
      if (transient(error) && answers.get(key)?.answer === answer) answers.delete(key);
    });
    if (answers.size > 1_000) answers.delete(answers.keys().next().value!);
    return answer;
  };
}
