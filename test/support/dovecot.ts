/**
 * A real Dovecot IMAP server for the mailbox tests, started per test file (`before`) and stopped
 * in `after`: a minimal configuration in a temporary folder (base_dir, state, log, maildirs and
 * passwd-files there, nothing under /etc or /var), plain-text login on a free loopback port.
 *
 * It runs as whoever runs the tests. As a normal user every Dovecot process runs as that user.
 * As root (CI containers) Dovecot refuses to run its login processes and to deliver mail as
 * root, so those run as the package's own unprivileged users (`dovenull`, `dovecot`) and the
 * temporary folder is made readable for them.
 *
 * Mail is delivered with IMAP APPEND as the mailbox's user, with the received date the test
 * chooses (INTERNALDATE), so "older than the request" needs no waiting.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { mailDns } from './mail-dns.js';
import { onFreePort } from './ports.js';
import { waitFor } from './wait.js';

const DOVECOT = process.env.DOVECOT_BIN ?? '/usr/sbin/dovecot';

export interface MailToDeliver {
  from: string;
  to: string;
  subject: string;
  html?: string;
  text?: string;
  /** The message's Date header; defaults to `receivedAt`. */
  date?: Date;
  /** The server's received date (INTERNALDATE); defaults to now. */
  receivedAt?: Date;
  /** Extra raw header lines, e.g. `Delivered-To: …`. */
  headers?: string[];
  /**
   * Who DKIM-signs it (mail-dns.ts): by default the From domain's published domain, as the
   * platforms sign their mail (none when the test DNS publishes no key for it); `false`: unsigned
   * (a forgery); a domain: signed by that domain instead.
   */
  signAs?: string | false;
  /** Changes the message after it was signed (a mail altered on the way). */
  afterSigning?: (raw: string) => string;
  /** An attachment of this many bytes (a third more as base64 in the message), after the text parts. */
  attachmentBytes?: number;
}

interface RunAs {
  internalUser: string;
  internalGroup: string;
  loginUser: string;
  mailUid: number;
  mailGid: number;
}

export class TestDovecot {
  readonly dir: string;
  private portNumber = 0;
  private child?: ChildProcess;
  private readonly users = new Map<string, string>();
  private readonly runAs: RunAs;

  constructor() {
    this.dir = mkdtempSync(path.join(os.tmpdir(), 'subshare-dovecot-'));
    this.runAs = whoRuns();
  }

  get port(): number {
    return this.portNumber;
  }

  get running(): boolean {
    return this.child !== undefined;
  }

  /** `imap://127.0.0.1:<port>` for MAILBOX_IMAP_URL. */
  get url(): string {
    return `imap://127.0.0.1:${this.portNumber}`;
  }

  /** The server's own log (for a failing test's message). */
  log(): string {
    const file = path.join(this.dir, 'dovecot.log');
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  }

  async start(): Promise<void> {
    if (this.child) return;
    if (!existsSync(DOVECOT)) throw new Error(`Dovecot is not installed (${DOVECOT}); apt-get install dovecot-imapd (.ci/run does).`);
    // A restart keeps its port (clients were told it); a first start takes another port when the
    // probed one was taken before Dovecot bound it.
    if (this.portNumber) return this.launch();
    await onFreePort(async (port) => {
      this.portNumber = port;
      await this.launch();
    });
  }

  private async launch(): Promise<void> {
    this.writeConfig();
    // Its own process group: stopping ends the master and every process it started, even a login
    // process that would otherwise keep the listening socket open for a while after the master.
    const child = spawn(DOVECOT, ['-F', '-c', path.join(this.dir, 'dovecot.conf')], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    const killGroup = () => signalGroup(child, 'SIGKILL');
    process.once('exit', killGroup);
    child.once('exit', () => process.off('exit', killGroup));
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let exited = false;
    child.once('exit', () => (exited = true));
    this.child = child;
    try {
      await waitFor(async () => (exited ? Promise.reject(new Error(`dovecot exited: ${stderr}${this.log()}`)) : await canConnect(this.portNumber)), {
        what: 'Dovecot to listen',
        timeoutMs: 10_000,
      });
    } catch (error) {
      // Its own failure is the news (a port held by another process never stops answering).
      await this.stop().catch(() => undefined);
      throw error;
    }
  }

  /** SIGTERM, then wait until it is gone and the port refuses connections. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      signalGroup(child, 'SIGTERM');
      const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), 5_000);
      await gone;
      clearTimeout(timer);
    }
    signalGroup(child, 'SIGKILL'); // whatever of the group outlived the master
    await waitFor(async () => !(await canConnect(this.portNumber)), { what: 'Dovecot to stop listening', timeoutMs: 5_000 });
  }

  /** Stops the server and removes its folder. */
  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /**
   * Adds a mailbox user. Each user has a passwd-file of its own (the path holds `%u`): Dovecot
   * notices a rewritten file by its modification time, in whole seconds, so one shared file
   * changed twice within a second would keep the older list.
   */
  addUser(address: string, password: string): void {
    const user = address.toLowerCase();
    if (!/^[a-z0-9._+-]+@[a-z0-9.-]+$/.test(user)) throw new Error(`not a test mailbox address: ${address}`);
    this.users.set(user, password);
    const file = path.join(this.dir, 'users', user);
    writeFileSync(file, `${user}:{PLAIN}${password}::::::\n`, { mode: 0o644 });
    chmodSync(file, 0o644);
  }

  /** Puts a message into the user's inbox (IMAP APPEND, logged in as that user). */
  async deliver(address: string, mail: MailToDeliver): Promise<void> {
    const password = this.users.get(address.toLowerCase());
    if (password === undefined) throw new Error(`no mailbox user ${address}`);
    const client = new ImapFlow({ host: '127.0.0.1', port: this.portNumber, secure: false, auth: { user: address, pass: password }, logger: false });
    client.on('error', () => undefined);
    await client.connect();
    try {
      await client.append('INBOX', await signedMessage(mail), [], mail.receivedAt ?? new Date()).catch((error: { responseText?: string }) => {
        throw new Error(`APPEND to ${address} failed: ${error.responseText ?? String(error)}`);
      });
    } finally {
      await client.logout().catch(() => client.close());
    }
  }

  private writeConfig(): void {
    const { dir, runAs } = this;
    for (const sub of ['run', 'state', 'mail', 'users']) mkdirSync(path.join(dir, sub), { recursive: true });
    chmodSync(dir, 0o755);
    chmodSync(path.join(dir, 'users'), 0o755);
    if (process.getuid?.() === 0) chownSync(path.join(dir, 'mail'), runAs.mailUid, runAs.mailGid);
    const config = `# subshare test Dovecot: nothing outside ${dir}
base_dir = ${dir}/run
state_dir = ${dir}/state
instance_name = subshare-test-${randomUUID().slice(0, 8)}
log_path = ${dir}/dovecot.log
info_log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = ${runAs.internalUser}
default_internal_group = ${runAs.internalGroup}
default_login_user = ${runAs.loginUser}
first_valid_uid = ${runAs.mailUid}
last_valid_uid = ${runAs.mailUid}
first_valid_gid = ${runAs.mailGid}
last_valid_gid = ${runAs.mailGid}
mail_location = maildir:${dir}/mail/%u
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/users/%u
}
userdb {
  driver = static
  args = uid=${runAs.mailUid} gid=${runAs.mailGid} home=${dir}/mail/%u
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${this.portNumber}
  }
  inet_listener imaps {
    port = 0
  }
}
service pop3-login {
  inet_listener pop3 {
    port = 0
  }
}
service submission-login {
  inet_listener submission {
    port = 0
  }
}
service anvil {
  chroot =
}
service imap-urlauth-login {
  chroot =
}
`;
    writeFileSync(path.join(dir, 'dovecot.conf'), config);
  }
}

export async function startDovecot(): Promise<TestDovecot> {
  const dovecot = new TestDovecot();
  await dovecot.start();
  return dovecot;
}

function whoRuns(): RunAs {
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  if (uid !== 0) {
    const me = os.userInfo().username;
    const group = execFileSync('id', ['-gn'], { encoding: 'utf8' }).trim();
    return { internalUser: me, internalGroup: group, loginUser: me, mailUid: uid, mailGid: gid };
  }
  const id = (flag: string, user: string) => Number(execFileSync('id', [flag, user], { encoding: 'utf8' }).trim());
  return { internalUser: 'dovecot', internalGroup: 'dovecot', loginUser: 'dovenull', mailUid: id('-u', 'dovecot'), mailGid: id('-g', 'dovecot') };
}

/** Signals the process group of a child started with `detached: true` (its id is the child's pid). */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is gone already
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The message as `deliver` appends it: signed as `signAs` says, then altered by `afterSigning`. */
export async function signedMessage(mail: MailToDeliver): Promise<string> {
  const raw = rawMessage(mail);
  const dns = mailDns();
  const fromDomain = /@([^>\s]+)>?\s*$/.exec(mail.from)?.[1] ?? '';
  const signer = mail.signAs === false ? undefined : (mail.signAs ?? dns?.signingDomainOf(fromDomain));
  if (signer && !dns) throw new Error('no test DNS to sign with: the harness starts it');
  const signed = signer && dns ? await dns.signMessage(raw, signer) : raw;
  return mail.afterSigning ? mail.afterSigning(signed) : signed;
}

/** A small MIME message: text and/or HTML (quoted-printable, so links are soft-wrapped and `=` encoded as in real mail). */
export function rawMessage(mail: MailToDeliver): string {
  const date = mail.date ?? mail.receivedAt ?? new Date();
  const head = [
    `From: ${mail.from}`,
    `To: ${mail.to}`,
    `Subject: ${encodeHeader(mail.subject)}`,
    `Date: ${date.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <${randomUUID()}@test.localhost>`,
    'MIME-Version: 1.0',
    ...(mail.headers ?? []),
  ];
  const boundary = `b-${randomUUID()}`;
  const parts: string[] = [];
  if (mail.text !== undefined)
    parts.push(`Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${quotedPrintable(mail.text)}`);
  if (mail.html !== undefined)
    parts.push(`Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${quotedPrintable(mail.html)}`);
  const body =
    parts.length === 1
      ? parts[0]
      : `Content-Type: multipart/alternative; boundary="${boundary}"\r\n\r\n${parts.map((part) => `--${boundary}\r\n${part}\r\n`).join('')}--${boundary}--`;
  if (!mail.attachmentBytes) return `${head.join('\r\n')}\r\n${body}\r\n`;
  const mixed = `m-${randomUUID()}`;
  const attachment = `Content-Type: application/octet-stream; name="statement.bin"\r\nContent-Disposition: attachment; filename="statement.bin"\r\nContent-Transfer-Encoding: base64\r\n\r\n${base64Lines(mail.attachmentBytes)}`;
  return `${head.join('\r\n')}\r\nContent-Type: multipart/mixed; boundary="${mixed}"\r\n\r\n--${mixed}\r\n${body}\r\n--${mixed}\r\n${attachment}\r\n--${mixed}--\r\n`;
}

/** `bytes` of random-looking data as base64 in 76-character lines. */
function base64Lines(bytes: number): string {
  const block = Buffer.from(Array.from({ length: 57 * 1024 }, (_, index) => (index * 7919) % 251)).toString('base64');
  const lines = block.match(/.{1,76}/g)!.join('\r\n');
  const blocks = Math.ceil(bytes / (57 * 1024));
  return Array.from({ length: blocks }, () => lines).join('\r\n');
}

function encodeHeader(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** Quoted-printable with soft line breaks every 60 characters. */
function quotedPrintable(text: string): string {
  const bytes = Buffer.from(text.replace(/\r?\n/g, '\r\n'), 'utf8');
  let out = '';
  let line = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i];
    if (byte === 0x0d && bytes[i + 1] === 0x0a) {
      out += '\r\n';
      line = 0;
      i += 1;
      continue;
    }
    const char = (byte >= 33 && byte <= 126 && byte !== 61) || byte === 32 ? String.fromCharCode(byte) : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    if (line + char.length > 60) {
      out += '=\r\n';
      line = 0;
    }
    out += char;
    line += char.length;
  }
  return out;
}
