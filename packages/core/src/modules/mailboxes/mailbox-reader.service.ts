/**
 * Reads the platform mailboxes: the newest household link or login code that reached one
 * mailbox, addressed to the account, received after a given moment.
 *
 * Two ways to know what is in a mailbox, both behind the MailSource port:
 * - a read (connect, search, fetch, log out), whose parsed result is kept for CACHE_MS, so a
 *   burst of polls makes one IMAP connection;
 * - a watch (IMAP IDLE): the first read of a mailbox also leaves a connection open that hears
 *   new mail the moment it lands and parses it at once; while the watch lives, polls answer from
 *   memory without touching the server. A watch ends WATCH_IDLE_MS after the last poll for its
 *   mailbox, when its connection drops, or at `close()`; then reads take over again. IDLE is an
 *   accelerator only: with MAILBOX_IMAP_IDLE=false, or when MAX_WATCHES are open, every answer
 *   comes from reads.
 *
 * Links and codes are secrets: they stay in this process's memory, are never logged and never
 * audited. The logs name the mailbox id and what happened, nothing else.
 */
import { inject, injectable } from 'inversify';
import type { AppConfig } from '../../shared/config.js';
import type { Clock } from '../../shared/clock.js';
import { UnavailableError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { TOKENS } from '../../shared/tokens.js';
import { MailSourceError, type FetchedMessage, type MailboxLogin, type MailSource, type MailWatch } from './mail-source.js';
import { parsePlatformMail, type PlatformMailKind } from './platform-mail.js';
import { MAILBOX_SOURCE } from './tokens.js';

/** One mailbox to read, and the addresses that count as "sent to this account". */
export interface MailboxTarget {
  mailboxId: number;
  login: MailboxLogin;
  recipients: string[];
}

export interface FoundMail {
  value: string;
  receivedAt: Date;
}

/** A parsed read stays good this long (a poll every 10 s then mostly hits IMAP once per poll, a burst once). */
export const CACHE_MS = 5_000;
/** A failed read is answered again for this long, so a dead server is not hammered by every poll. */
export const FAILURE_MS = 5_000;
/** A watch outlives the last poll for its mailbox by this much (12 polls, 10 s apart, fit in it). */
export const WATCH_IDLE_MS = 150_000;
/** Open IDLE connections per process, at most. */
export const MAX_WATCHES = 25;
/** Messages read per mailbox and read. */
const READ_LIMIT = 30;
/** A message whose own Date is this much older than the moment asked for is stale, whatever the server's date says. */
const DATE_SKEW_MS = 5 * 60_000;
/** Parsed mail older than this is dropped from a watch's memory. */
const KEEP_MS = 60 * 60_000;

interface KnownMail {
  kind: PlatformMailKind;
  value: string;
  recipients: string[];
  receivedAt: Date;
  uid: number;
  sentAt?: Date;
}

interface MailboxState {
  key: string;
  known: KnownMail[];
  /** `known` holds every platform e-mail received at or after this moment. */
  coveredSince?: Date;
  /** When `known` was read (real time, ms); a live watch keeps it current without this. */
  readAt: number;
  failure?: { error: UnavailableError; at: number };
  watch?: MailWatch;
  live: boolean;
  lastWanted: number;
  inflight?: Promise<void>;
}

@injectable()
export class MailboxReaderService {
  private readonly states = new Map<number, MailboxState>();
  private sweeper?: NodeJS.Timeout;
  private closed = false;

  constructor(
    @inject(MAILBOX_SOURCE) private readonly source: MailSource | null,
    @inject(TOKENS.Config) private readonly config: AppConfig,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {}

  /** Whether this shop reads mailboxes at all (MAILBOX_IMAP_URL is set). */
  get enabled(): boolean {
    return this.source !== null;
  }

  /**
   * The newest e-mail of this kind in the mailbox, sent to one of the target's addresses and
   * received at or after `since`; null when there is none (yet). Throws UnavailableError (503)
   * when the server cannot be read in time.
   */
  async latest(target: MailboxTarget, kind: PlatformMailKind, since: Date): Promise<FoundMail | null> {
    if (!this.source || this.closed) throw new UnavailableError('Mailboxes are not read on this shop. Please contact support.', 'mailbox_reading_off');
    const state = this.stateOf(target);
    state.lastWanted = Date.now();
    if (!this.covers(state, since)) await this.refresh(state, target, since);
    return pick(state.known, kind, since, new Set(target.recipients.map((address) => address.toLowerCase())));
  }

  /** Ends every watch (process shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    await Promise.all([...this.states.values()].map((state) => this.endWatch(state)));
  }

  private stateOf(target: MailboxTarget): MailboxState {
    // A changed address or password (staff edited the mailbox) starts afresh.
    const key = `${target.login.address}\u0000${target.login.password}`;
    const existing = this.states.get(target.mailboxId);
    if (existing && existing.key === key) return existing;
    if (existing) void this.endWatch(existing);
    const state: MailboxState = { key, known: [], readAt: 0, live: false, lastWanted: Date.now() };
    this.states.set(target.mailboxId, state);
    return state;
  }

  private covers(state: MailboxState, since: Date): boolean {
    if (!state.coveredSince || state.coveredSince.getTime() > since.getTime()) return false;
    return state.live || Date.now() - state.readAt < CACHE_MS;
  }

  /** One read (or the start of a watch) per mailbox at a time; concurrent polls share it. */
  private async refresh(state: MailboxState, target: MailboxTarget, since: Date): Promise<void> {
    if (state.failure && Date.now() - state.failure.at < FAILURE_MS) throw state.failure.error;
    state.inflight ??= this.read(state, target, since).finally(() => {
      state.inflight = undefined;
    });
    await state.inflight;
    // A read that started earlier for a later moment does not cover this one: read again.
    if (!this.covers(state, since)) await this.read(state, target, since);
  }

  private async read(state: MailboxState, target: MailboxTarget, since: Date): Promise<void> {
    const source = this.source as MailSource;
    const started = Date.now();
    try {
      let messages: FetchedMessage[];
      let watch: MailWatch | undefined;
      if (this.config.mailbox.imapIdle && !state.watch && this.watchCount() < MAX_WATCHES) {
        ({ watch, messages } = await this.openWatch(state, target, since));
      } else {
        messages = await source.recent(target.login, since, READ_LIMIT);
      }
      state.known = await parseAll(messages);
      state.coveredSince = since;
      state.readAt = Date.now();
      state.failure = undefined;
      if (watch && this.closed) {
        await watch.stop();
      } else if (watch) {
        state.watch = watch;
        state.live = true;
        this.ensureSweeper();
        watch.begin();
      }
      this.logger.debug({ mailboxId: target.mailboxId, messages: messages.length, ms: Date.now() - started, watching: state.live }, 'mailbox read');
    } catch (error) {
      const reason = error instanceof MailSourceError ? error.reason : 'protocol';
      this.logger.warn({ mailboxId: target.mailboxId, reason, detail: error instanceof Error ? error.message : undefined }, 'mailbox read failed');
      const unavailable = new UnavailableError('The mailbox cannot be reached right now. Please try again in a minute.', 'mailbox_unavailable', error);
      state.failure = { error: unavailable, at: Date.now() };
      throw unavailable;
    }
  }

  /** The first read of a watch; it reports nothing until the caller has taken the read in and calls `begin()`. */
  private async openWatch(state: MailboxState, target: MailboxTarget, since: Date): Promise<{ watch: MailWatch; messages: FetchedMessage[] }> {
    const source = this.source as MailSource;
    const opened: { watch?: MailWatch } = {};
    const result = await source.watch(target.login, since, READ_LIMIT, {
      onMessages: (fresh) => {
        void parseAll(fresh).then((parsed) => {
          if (!opened.watch || state.watch !== opened.watch) return;
          const cutoff = this.clock.now().getTime() - KEEP_MS;
          state.known = [...state.known.filter((mail) => mail.receivedAt.getTime() >= cutoff), ...parsed];
          this.logger.debug({ mailboxId: target.mailboxId, messages: fresh.length }, 'mailbox watch heard new mail');
        });
      },
      onEnd: (error) => {
        if (!opened.watch || state.watch !== opened.watch) return;
        state.watch = undefined;
        state.live = false;
        state.readAt = Date.now();
        this.logger.info({ mailboxId: target.mailboxId, failed: error !== undefined }, 'mailbox watch ended');
      },
    });
    opened.watch = result.watch;
    return result;
  }

  private watchCount(): number {
    let count = 0;
    for (const state of this.states.values()) if (state.watch) count += 1;
    return count;
  }

  private async endWatch(state: MailboxState): Promise<void> {
    const watch = state.watch;
    if (!watch) return;
    state.watch = undefined;
    state.live = false;
    state.readAt = Date.now();
    await watch.stop().catch(() => undefined);
  }

  /** Ends watches nobody polls any more, and forgets mailboxes nobody asked about for a while. */
  private ensureSweeper(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => {
      const now = Date.now();
      for (const [mailboxId, state] of this.states) {
        if (now - state.lastWanted < WATCH_IDLE_MS) continue;
        void this.endWatch(state);
        if (!state.inflight) this.states.delete(mailboxId);
      }
    }, 5_000);
    this.sweeper.unref();
  }
}

async function parseAll(messages: FetchedMessage[]): Promise<KnownMail[]> {
  const parsed = await Promise.all(
    messages.map(async (message) => {
      const mail = await parsePlatformMail(message.source).catch(() => undefined);
      return mail ? { ...mail, receivedAt: message.receivedAt, uid: message.uid } : undefined;
    }),
  );
  return parsed.filter((mail): mail is KnownMail => mail !== undefined);
}

function pick(known: KnownMail[], kind: PlatformMailKind, since: Date, recipients: Set<string>): FoundMail | null {
  const match = known
    .filter(
      (mail) =>
        mail.kind === kind &&
        mail.receivedAt.getTime() >= since.getTime() &&
        (!mail.sentAt || mail.sentAt.getTime() >= since.getTime() - DATE_SKEW_MS) &&
        mail.recipients.some((address) => recipients.has(address)),
    )
    .sort((a, b) => b.receivedAt.getTime() - a.receivedAt.getTime() || b.uid - a.uid)[0];
  return match ? { value: match.value, receivedAt: match.receivedAt } : null;
}
