/**
 * The MailSource port over IMAP with imapflow. Every step has a deadline: a server that is down,
 * slow or silent becomes a MailSourceError within `timeoutMs`, never a hanging request. imapflow
 * logs nothing (`logger: false`): its debug lines would hold message contents.
 */
import type { ImapFlow } from 'imapflow';
import type { MailAuthenticator } from './mail-authentication.js';
import { takeIn } from './mail-intake.js';
import { MailSourceError, type FetchedMessage, type MailboxLogin, type MailSource, type MailWatch, type MailWatchHandlers } from './mail-source.js';

export interface ImapServer {
  host: string;
  port: number;
  /** TLS from the first byte (imaps://); otherwise STARTTLS when the server offers it. */
  secure: boolean;
  /** Budget of one read: connect, log in, search, fetch. */
  timeoutMs: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** One partial FETCH of a download: bounds what is in memory at once, and a 20 MB message takes 80 round trips, not 320. */
const DOWNLOAD_CHUNK_BYTES = 256 * 1024;
/** After this much quiet a watch restarts IDLE (some servers drop idle connections silently). */
const MAX_IDLE_MS = 60_000;

export class ImapFlowMailSource implements MailSource {
  constructor(
    private readonly server: ImapServer,
    private readonly authenticator: MailAuthenticator,
  ) {}

  async recent(login: MailboxLogin, since: Date, limit: number): Promise<FetchedMessage[]> {
    const client = await this.client(login, { watching: false });
    return this.withDeadline(client, async () => {
      await client.connect();
      try {
        return await this.readRecent(client, since, limit);
      } finally {
        await client.logout().catch(() => client.close());
      }
    });
  }

  async watch(login: MailboxLogin, since: Date, limit: number, handlers: MailWatchHandlers): Promise<{ watch: MailWatch; messages: FetchedMessage[] }> {
    const client = await this.client(login, { watching: true });
    let stopped = false;
    let begun = false;
    let ended = false;
    let lastUid = 0;
    let failure: unknown;
    let open!: () => void;
    // Nothing is reported before begin(); new-mail events wait in this queue until then.
    let queue = new Promise<void>((resolve) => (open = resolve));

    const end = () => {
      if (ended) return;
      ended = true;
      if (!stopped) handlers.onEnd(failure);
    };
    // New mail: fetch what is above the last UID seen, one fetch at a time, in arrival order. The
    // listener is there before the first read, so mail landing during it is not missed.
    const fetchNew = () => {
      queue = queue.then(async () => {
        if (stopped || ended) return;
        try {
          const listed = (await client.fetchAll(`${lastUid + 1}:*`, { uid: true, internalDate: true, size: true }, { uid: true })).filter(
            (message) => message.uid > lastUid,
          );
          const fresh = await this.download(client, listed);
          if (fresh.length === 0) return;
          lastUid = Math.max(lastUid, ...fresh.map((message) => message.uid));
          handlers.onMessages(fresh.sort((a, b) => a.uid - b.uid));
        } catch (error) {
          failure = error;
          client.close();
        }
      });
    };
    client.on('exists', fetchNew);
    client.on('close', () => {
      if (begun) end();
    });

    const messages = await this.withDeadline(client, async () => {
      await client.connect();
      const found = await this.readRecent(client, since, limit);
      lastUid = Math.max(0, ...found.map((message) => message.uid));
      return found;
    });

    const watch: MailWatch = {
      begin() {
        if (begun) return;
        begun = true;
        if (!client.usable) return end();
        open();
        fetchNew(); // whatever landed between the first read and now
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        await Promise.race([client.logout(), new Promise((resolve) => setTimeout(resolve, 1_000).unref())]).catch(() => undefined);
        client.close();
      },
    };
    return { watch, messages };
  }

  private async client(login: MailboxLogin, { watching }: { watching: boolean }): Promise<ImapFlow> {
    // Loaded on first use, as mailparser is (platform-mail.ts): most processes never read a
    // mailbox, and the two are a third of the CPU it takes to load @subshare/core.
    const { ImapFlow } = await import('imapflow');
    const client = new ImapFlow({
      host: this.server.host,
      port: this.server.port,
      secure: this.server.secure,
      auth: { user: login.address, pass: login.password },
      logger: false,
      connectionTimeout: this.server.timeoutMs,
      greetingTimeout: this.server.timeoutMs,
      // A read answers within the budget; a watch idles, and the server's keep-alives (Dovecot:
      // every 2 minutes) or our IDLE restarts keep the line busy well within this.
      socketTimeout: watching ? 5 * 60_000 : this.server.timeoutMs,
      disableAutoIdle: !watching,
      autoIdleDelay: 100,
      maxIdleTime: MAX_IDLE_MS,
      clientInfo: { name: 'subshare' },
    });
    // Errors also arrive as events; unhandled they would end the process. The caller sees them as rejections or `onEnd`.
    client.on('error', () => undefined);
    return client;
  }

  /** Inbox messages received at or after `since`, newest first. SEARCH SINCE counts whole days: the exact moment is filtered here. */
  private async readRecent(client: ImapFlow, since: Date, limit: number): Promise<FetchedMessage[]> {
    const lock = await client.getMailboxLock('INBOX');
    try {
      const uids = (await client.search({ since: new Date(since.getTime() - DAY_MS) }, { uid: true })) || [];
      const newest = [...uids].sort((a, b) => b - a).slice(0, limit);
      if (newest.length === 0) return [];
      // Dates and sizes first; only the messages of the asked moment are then streamed in.
      const listed = (await client.fetchAll(newest.join(','), { uid: true, internalDate: true, size: true }, { uid: true })).filter(
        (message) => message.internalDate && new Date(message.internalDate).getTime() >= since.getTime(),
      );
      return (await this.download(client, listed)).sort((a, b) => b.receivedAt.getTime() - a.receivedAt.getTime() || b.uid - a.uid);
    } finally {
      lock.release();
    }
  }

  /**
   * Streams each message in, one at a time: the authenticator hashes it as it passes and only a
   * bounded prefix is kept (mail-intake.ts), so a 20 MB attachment never sits in memory.
   */
  private async download(client: ImapFlow, listed: Array<{ uid: number; internalDate?: Date | string }>): Promise<FetchedMessage[]> {
    const uidValidity = uidValidityOf(client);
    const out: FetchedMessage[] = [];
    for (const message of listed) {
      if (!message.internalDate) continue;
      const open = async () => (await client.download(String(message.uid), undefined, { uid: true, chunkSize: DOWNLOAD_CHUNK_BYTES })).content;
      const content = await open();
      if (!content) continue; // expunged meanwhile
      const { mail, truncated, authentication } = await takeIn(content, this.authenticator, open);
      // A message that does not parse is nobody's mail: nothing to hand out or to classify.
      if (mail) out.push({ uid: message.uid, uidValidity, receivedAt: new Date(message.internalDate), mail, truncated, authentication });
    }
    return out;
  }

  /** Runs `work` within the budget; past it the connection is closed and the read fails as a timeout. */
  private async withDeadline<T>(client: ImapFlow, work: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        client.close();
        reject(new MailSourceError(`The mailbox server did not answer within ${this.server.timeoutMs} ms.`, 'timeout'));
      }, this.server.timeoutMs);
    });
    try {
      return await Promise.race([work().catch((error: unknown) => Promise.reject(classify(error))), deadline]);
    } catch (error) {
      client.close();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The open folder's UIDVALIDITY as text (imapflow gives a BigInt, which JSON cannot carry). */
function uidValidityOf(client: ImapFlow): string | undefined {
  const mailbox = client.mailbox;
  return mailbox && mailbox.uidValidity !== undefined ? String(mailbox.uidValidity) : undefined;
}

/** The error as the reader needs it; the original stays the cause (it never holds the password). */
function classify(error: unknown): MailSourceError {
  if (error instanceof MailSourceError) return error;
  const details = error as { code?: string; authenticationFailed?: boolean; message?: string } | undefined;
  if (details?.authenticationFailed) return new MailSourceError('The mailbox server refused the login.', 'login', { cause: error });
  const code = details?.code ?? '';
  if (['CONNECT_TIMEOUT', 'GREETING_TIMEOUT', 'ETIMEDOUT', 'ETIMEOUT'].includes(code))
    return new MailSourceError('The mailbox server did not answer in time.', 'timeout', { cause: error });
  if (
    [
      'ECONNREFUSED',
      'ENOTFOUND',
      'EHOSTUNREACH',
      'ENETUNREACH',
      'ECONNRESET',
      'EAI_AGAIN',
      'NoConnection',
      'ClosedAfterConnectText',
      'EConnectionClosed',
    ].includes(code)
  )
    return new MailSourceError(`The mailbox server cannot be reached (${code}).`, 'unreachable', { cause: error });
  return new MailSourceError(`The mailbox server answered unexpectedly (${code || 'no code'}).`, 'protocol', { cause: error });
}
