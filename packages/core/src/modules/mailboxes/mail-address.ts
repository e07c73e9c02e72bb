/**
 * Addresses as RFC 5322 (section 3.4) writes them, for the one question the shop asks of a
 * From line: which domain does this mailbox belong to? The domain is what follows the last `@`
 * outside quotes, comments and display names, so `"x@evil.example"@netflix.com` is netflix.com's
 * and `Netflix <"x@netflix.com"@evil.example>` is evil.example's, never the other way round.
 * Anything this parser cannot read as exactly that grammar is no address at all.
 */

export interface MailAddress {
  /** The local part as the mailbox knows it (quotes removed, escapes resolved). */
  local: string;
  /** Lower case, without a trailing dot. */
  domain: string;
  /** `local@domain`, the local part quoted again when it needs quotes; lower case. */
  address: string;
}

type Token = { type: 'atom' | 'quoted'; value: string } | { type: 'special'; value: string };

const SPECIALS = new Set(['<', '>', '@', ',', ':', ';', '.', '[', ']']);
const ATOM = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~\u0080-\uFFFF]+$/;
const DOMAIN_LABEL = /^[a-z0-9\u0080-\uffff]([a-z0-9\u0080-\uffff-]*[a-z0-9\u0080-\uffff])?$/;

/** The mailboxes of an address-list header value (From, To, Cc, Delivered-To); undefined when it does not parse. */
export function parseMailboxList(value: string): MailAddress[] | undefined {
  const tokens = tokenize(value.replace(/\r?\n[ \t]/g, ' '));
  if (!tokens) return undefined;
  const mailboxes: MailAddress[] = [];
  let current: Token[] = [];
  let inAngle = false;
  let inGroup = false;
  const flush = () => {
    if (current.length === 0) return true;
    const mailbox = parseMailbox(current);
    current = [];
    if (!mailbox) return false;
    mailboxes.push(mailbox);
    return true;
  };
  for (const token of tokens) {
    if (token.type === 'special' && token.value === '<') inAngle = true;
    if (token.type === 'special' && token.value === '>') inAngle = false;
    if (!inAngle && token.type === 'special' && token.value === ':' && !inGroup) {
      // A group ("undisclosed: a@b, c@d;"): the display name before the colon is dropped.
      inGroup = true;
      current = [];
      continue;
    }
    if (!inAngle && token.type === 'special' && (token.value === ',' || (token.value === ';' && inGroup))) {
      if (token.value === ';') inGroup = false;
      if (!flush()) return undefined;
      continue;
    }
    current.push(token);
  }
  if (inAngle || !flush()) return undefined;
  return mailboxes;
}

/** The one author of a From line; undefined when there is none, several, or it does not parse (DMARC cannot be evaluated then). */
export function parseFrom(value: string | undefined): MailAddress | undefined {
  if (value === undefined) return undefined;
  const list = parseMailboxList(value);
  return list && list.length === 1 ? list[0] : undefined;
}

function parseMailbox(tokens: Token[]): MailAddress | undefined {
  const open = tokens.findIndex((token) => token.type === 'special' && token.value === '<');
  if (open === -1) return parseAddrSpec(tokens);
  const close = tokens.findIndex((token, index) => index > open && token.type === 'special' && token.value === '>');
  // Nothing but a display name may stand before the angle brackets, nothing after them.
  if (close !== tokens.length - 1) return undefined;
  if (tokens.slice(0, open).some((token) => token.type === 'special' && token.value !== '.')) return undefined;
  let inner = tokens.slice(open + 1, close);
  // Obsolete source route (<@relay.example:a@b.c>): the route is not the address.
  const colon = inner.findIndex((token) => token.type === 'special' && token.value === ':');
  if (colon !== -1 && inner[0]?.type === 'special' && inner[0].value === '@') inner = inner.slice(colon + 1);
  return parseAddrSpec(inner);
}

function parseAddrSpec(tokens: Token[]): MailAddress | undefined {
  const ats = tokens.flatMap((token, index) => (token.type === 'special' && token.value === '@' ? [index] : []));
  if (ats.length !== 1) return undefined;
  const local = dotted(tokens.slice(0, ats[0]), true);
  const domain = dotted(tokens.slice(ats[0] + 1), false)
    ?.toLowerCase()
    .replace(/\.$/, '');
  if (local === undefined || !domain || !domain.split('.').every((label) => DOMAIN_LABEL.test(label))) return undefined;
  const shownLocal = ATOM.test(local.replace(/\./g, 'a')) && !/^\.|\.\.|\.$/.test(local) ? local : `"${local.replace(/(["\\])/g, '\\$1')}"`;
  return { local, domain, address: `${shownLocal}@${domain}`.toLowerCase() };
}

/** Words joined by dots (`a.b."c d"`); quoted words only in a local part. */
function dotted(tokens: Token[], quotedAllowed: boolean): string | undefined {
  if (tokens.length === 0) return undefined;
  let out = '';
  let expectWord = true;
  for (const token of tokens) {
    if (expectWord) {
      if (token.type === 'atom' || (token.type === 'quoted' && quotedAllowed)) out += token.value;
      else return undefined;
    } else if (token.type === 'special' && token.value === '.') out += '.';
    else return undefined;
    expectWord = !expectWord;
  }
  return expectWord ? undefined : out;
}

/** Atoms, quoted strings and specials; comments and white space dropped. Undefined on an unclosed quote or comment. */
function tokenize(value: string): Token[] | undefined {
  const tokens: Token[] = [];
  let index = 0;
  while (index < value.length) {
    const char = value[index];
    if (/\s/.test(char)) {
      index += 1;
    } else if (char === '(') {
      let depth = 0;
      for (; index < value.length; index += 1) {
        if (value[index] === '\\') index += 1;
        else if (value[index] === '(') depth += 1;
        else if (value[index] === ')' && --depth === 0) break;
      }
      if (depth !== 0) return undefined;
      index += 1;
    } else if (char === '"') {
      let text = '';
      index += 1;
      for (; index < value.length && value[index] !== '"'; index += 1) {
        if (value[index] === '\\') index += 1;
        text += value[index] ?? '';
      }
      if (index >= value.length) return undefined;
      index += 1;
      tokens.push({ type: 'quoted', value: text });
    } else if (SPECIALS.has(char)) {
      tokens.push({ type: 'special', value: char });
      index += 1;
    } else {
      let end = index;
      while (end < value.length && !/[\s"()]/.test(value[end]) && !SPECIALS.has(value[end])) end += 1;
      const atom = value.slice(index, end);
      if (!ATOM.test(atom)) return undefined;
      tokens.push({ type: 'atom', value: atom });
      index = end;
    }
  }
  return tokens;
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
