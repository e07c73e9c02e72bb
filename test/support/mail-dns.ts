/**
 * The platforms' mail, signed as the platforms sign it (issue 33): a real DNS server on the
 * loopback (dns2, UDP and TCP on one free port) publishes a DKIM public key generated for this
 * process (on first use: most files never ask) at `test._domainkey.<domain>` and a DMARC policy `p=reject` at `_dmarc.<domain>` for every
 * sender domain of the shipped platforms, plus `evil.example` (a domain that signs its own mail
 * well, to forge another's). The shop under test asks it through MAIL_DNS_SERVERS (testEnv, in
 * harness.ts), so its own DKIM and DMARC checks run as in production, only against these keys.
 *
 * `signMessage` signs a raw message with the private half, as the platform's mail server would.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import dns2 from 'dns2';
import { dkimSign } from 'mailauth';
import { freePort, SHIPPED_ALERT_RULES } from '@subshare/core';

const { Packet } = dns2;
/** What this server reads of a question and writes in an answer (the DefinitelyTyped types leave these out). */
interface Question {
  questions: Array<{ name: string; type: number }>;
}
interface Answer {
  answers: Array<{ name: string; type: number; class: number; ttl: number; data: string[] }>;
  header: { rcode: number };
}

export const DKIM_SELECTOR = 'test';
/** A domain that publishes its own key and DMARC record: its signatures verify, but only for itself. */
export const FOREIGN_DOMAIN = 'evil.example';

interface Published {
  privateKey: KeyObject;
  publicKeyBase64: string;
}

/**
 * The process's key of each domain, made when first asked for. A 2048-bit RSA key takes tens of
 * milliseconds of CPU; made for every domain at every file's start, they were most of a harness's
 * start (0.2-0.4 CPU-s a file) for files that never check a signature.
 */
const processKeys = new Map<string, Published>();
function keyOf(domain: string): Published {
  let key = processKeys.get(domain);
  if (!key) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    key = { privateKey, publicKeyBase64: publicKey.export({ type: 'spki', format: 'der' }).toString('base64') };
    processKeys.set(domain, key);
  }
  return key;
}

export class TestMailDns {
  /** The published domains, lower case. */
  private readonly published: Set<string>;
  private server?: ReturnType<typeof dns2.createServer>;
  private portNumber = 0;
  /** How many questions it answered (a test can see that the shop asked it). */
  questions = 0;

  constructor(domains: string[]) {
    // One key per domain (keyOf): a signature by one domain never verifies as another's.
    this.published = new Set(domains.map((value) => value.toLowerCase()));
  }

  /** `127.0.0.1:port`, as MAIL_DNS_SERVERS takes it. */
  get address(): string {
    return `127.0.0.1:${this.portNumber}`;
  }

  get domains(): string[] {
    return [...this.published];
  }

  async start(): Promise<void> {
    this.portNumber = await freePort();
    this.server = dns2.createServer({ udp: true, tcp: true, handle: (request, send) => send(this.answer(request as unknown as Question) as never) });
    await this.server.listen({ udp: { port: this.portNumber, address: '127.0.0.1' }, tcp: { port: this.portNumber, address: '127.0.0.1' } });
  }

  async stop(): Promise<void> {
    await this.server?.close();
  }

  /** The raw message with a DKIM-Signature of `domain` (d=) on top; `domain` must be one this server publishes. */
  async signMessage(raw: string, domain: string): Promise<string> {
    if (!this.published.has(domain.toLowerCase())) throw new Error(`the test DNS publishes no key for ${domain}`);
    const key = keyOf(domain.toLowerCase());
    // mailauth's README form (`signatureData`); its bundled typings describe a flat form the code does not read.
    const options = {
      signatureData: [
        {
          canonicalization: 'relaxed/relaxed',
          signingDomain: domain,
          selector: DKIM_SELECTOR,
          privateKey: key.privateKey.export({ type: 'pkcs8', format: 'pem' }),
        },
      ],
    };
    const signed = await dkimSign(raw, options as unknown as Parameters<typeof dkimSign>[1]);
    if (signed.errors.length > 0 || !signed.signatures.startsWith('DKIM-Signature:')) throw new Error(`signing failed: ${JSON.stringify(signed.errors)}`);
    return signed.signatures + raw;
  }

  /** The published domain a From domain signs as (itself or its parent: `account.netflix.com` → `netflix.com`). */
  signingDomainOf(fromDomain: string): string | undefined {
    const labels = fromDomain.toLowerCase().split('.');
    for (let index = 0; index < labels.length - 1; index += 1) {
      const candidate = labels.slice(index).join('.');
      if (this.published.has(candidate)) return candidate;
    }
    return undefined;
  }

  private answer(request: Question): Answer {
    this.questions += 1;
    const response = Packet.createResponseFromRequest(request as never) as unknown as Answer;
    const [question] = request.questions;
    const name = question?.name.toLowerCase() ?? '';
    const txt = question?.type === Packet.TYPE.TXT ? this.txt(name) : undefined;
    if (txt) response.answers.push({ name: question!.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data: txt });
    else if (!this.knows(name)) response.header.rcode = 3; // NXDOMAIN
    return response;
  }

  /** The TXT strings of a name (split in 255-byte character-strings as DNS requires). */
  private txt(name: string): string[] | undefined {
    const dkim = new RegExp(`^${DKIM_SELECTOR}\\._domainkey\\.(.+)$`).exec(name);
    if (dkim && this.published.has(dkim[1]!)) return chunks(`v=DKIM1; k=rsa; p=${keyOf(dkim[1]!).publicKeyBase64}`);
    const dmarc = /^_dmarc\.(.+)$/.exec(name);
    if (dmarc && this.published.has(dmarc[1]!)) return ['v=DMARC1; p=reject; adkim=r; aspf=r'];
    return undefined;
  }

  /** Whether the name is under a published domain (then: no record of that type, not "no such name"). */
  private knows(name: string): boolean {
    return [...this.published].some((domain) => name === domain || name.endsWith(`.${domain}`));
  }
}

function chunks(value: string): string[] {
  const out: string[] = [];
  for (let index = 0; index < value.length; index += 255) out.push(value.slice(index, index + 255));
  return out;
}

/** The organizational domains of every shipped platform's senders (`payments-noreply@google.com` → google.com). */
export function platformSenderDomains(): string[] {
  return Object.values(SHIPPED_ALERT_RULES).flatMap((rules) =>
    rules.senders.map((sender) => {
      const domain = sender.slice(sender.lastIndexOf('@') + 1);
      return domain.split('.').slice(-2).join('.');
    }),
  );
}

let running: TestMailDns | undefined;

/** The file's test DNS (started and stopped with the harness, as the database is). */
export async function startMailDns(): Promise<TestMailDns> {
  if (running) return running;
  const dns = new TestMailDns([...platformSenderDomains(), FOREIGN_DOMAIN]);
  await dns.start();
  running = dns;
  return dns;
}

/** Stops the file's test DNS (the harness's teardown); the next file starts its own. */
export async function stopMailDns(): Promise<void> {
  const dns = running;
  running = undefined;
  await dns?.stop();
}

/** The file's test DNS; undefined before the harness started it. */
export function mailDns(): TestMailDns | undefined {
  return running;
}
