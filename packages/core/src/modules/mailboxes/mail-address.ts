/**
 * Addresses as RFC 5322 (section 3.4) writes them, for the one question the shop asks of a
 * From line: which domain does this mailbox belong to? The domain is what follows the last `@`
 * outside quotes, comments and display names, so `"x@evil.example"@netflix.com` is netflix.com's
 * and `Netflix <"x@netflix.com"@evil.example>` is evil.example's, never the other way round.
 * The grammar is email-addresses' (RFC 5322 with its obsolete forms, RFC 6532 UTF-8); anything
 * it cannot read, and any domain that is not a host name, is no address at all.
 */
import emailAddresses from 'email-addresses';

export interface MailAddress {
  /** The local part as the mailbox knows it (quotes removed, escapes resolved). */
  local: string;
  /** Lower case. */
  domain: string;
  /** `local@domain`, the local part quoted again when it needs quotes; lower case. */
  address: string;
}

/**
 * RFC 5322's line limit (section 2.1.1). The parser backtracks, and its time grows with about the
 * square of the length on hostile input (0.1-0.8 s for 1,000 characters, 2-7 s for 8,000, measured
 * on a shared 2-core machine), so a longer field, which no one author's From line needs, is
 * refused before it is parsed: whoever sends a mail must not be able to stall the mail intake.
 */
const MAX_FIELD_LENGTH = 998;
const ATOM = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~\u0080-\uFFFF]+$/;
const DOMAIN_LABEL = /^[a-z0-9\u0080-\uffff]([a-z0-9\u0080-\uffff-]*[a-z0-9\u0080-\uffff])?$/;

/** The mailboxes of an address-list header value (From, To, Cc, Delivered-To); undefined when it does not parse. */
export function parseMailboxList(value: string): MailAddress[] | undefined {
  // Unfolding (RFC 5322 section 2.2.3); the parser itself knows only CRLF folds, stored mail often has bare LF.
  const unfolded = value.replace(/\r?\n(?=[ \t])/g, '');
  if (unfolded.length > MAX_FIELD_LENGTH) return undefined;
  let parsed: ReturnType<typeof emailAddresses.parseAddressList>;
  try {
    parsed = emailAddresses.parseAddressList(unfolded);
  } catch (error) {
    // Deeply nested comments overflow the recursive parser's stack: that is no address either.
    if (error instanceof RangeError) return undefined;
    throw error;
  }
  if (!parsed) return undefined;
  // A group ("undisclosed: a@b, c@d;"): its display name is dropped, its mailboxes count.
  const mailboxes = parsed.flatMap((entry) => (entry.type === 'group' ? entry.addresses : [entry])).map(toMailAddress);
  return mailboxes.every((mailbox) => mailbox !== undefined) ? mailboxes : undefined;
}

/** The one author of a From line; undefined when there is none, several, or it does not parse (DMARC cannot be evaluated then). */
export function parseFrom(value: string | undefined): MailAddress | undefined {
  if (value === undefined) return undefined;
  const list = parseMailboxList(value);
  return list && list.length === 1 ? list[0] : undefined;
}

function toMailAddress(mailbox: emailAddresses.ParsedMailbox): MailAddress | undefined {
  // Only a host name can be a sender's domain: a domain literal ([127.0.0.1]) or a label no DNS
  // name has (net_flix, -x) matches no platform and is refused here rather than compared later.
  const domain = mailbox.domain.toLowerCase();
  if (!domain.split('.').every((label) => DOMAIN_LABEL.test(label))) return undefined;
  // An unquoted local part cannot hold white space: what the obsolete form (`a . b`) keeps of it is folding.
  const local = mailbox.parts.local.tokens.includes('"') ? mailbox.local : mailbox.local.replace(/\s+/g, '');
  // The parser's own `address` drops the quotes ("x@evil.example"@netflix.com becomes
  // x@evil.example@netflix.com); quoting again keeps the address one mailbox.
  const shownLocal = ATOM.test(local.replace(/\./g, 'a')) && !/^\.|\.\.|\.$/.test(local) ? local : `"${local.replace(/(["\\])/g, '\\$1')}"`;
  return { local, domain, address: `${shownLocal}@${domain}`.toLowerCase() };
}

/** Whether the address is one of the senders: a full address, or a domain and its subdomains. */
export function fromSender(address: string, senders: readonly string[]): boolean {
  const from = address.toLowerCase();
  // The domain follows the last @: a quoted local part cannot hold a domain's place (see above).
  const domain = from.slice(from.lastIndexOf('@') + 1);
  return senders.some((sender) => {
    const wanted = sender.toLowerCase();
    if (wanted.includes('@')) return from === wanted;
    return domain === wanted || domain.endsWith(`.${wanted}`);
  });
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
