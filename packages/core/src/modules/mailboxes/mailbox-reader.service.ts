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
 * One process of the cluster reads and watches a mailbox at a time: its _owner_, the process that
 * holds the mailbox's session advisory lock on its database events connection (taken by the first
 * poll that finds it free, so when the owner dies, its connection closes, the lock is freed and
 * the next poll anywhere takes over). The owner answers its own polls from memory, as above, and
 * publishes every read, every mail its watch hears and every failure on the board (tables
 * mailbox_read_state and mailbox_found_mail, see mailbox-board.repository.ts) with a NOTIFY.
 * Every other process answers from the board when it covers the moment asked for; when it does
 * not, it asks the owner to read (NOTIFY mailbox_read_wanted, the login encrypted) and waits for
 * the publication within the read budget. Every poll, wherever it lands, marks the mailbox wanted
 * on the board: the owner's watch lives WATCH_IDLE_MS after the last poll of the whole cluster.
 *
 * Links and codes are secrets: in memory, or encrypted with the credentials key on the board and
 * in the read requests; never logged and never audited. The logs name the mailbox id and what
 * happened, nothing else.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { inject, injectable, optional } from 'inversify';
import type { AppConfig } from '../../shared/config.js';
import type { Clock } from '../../shared/clock.js';
import { CredentialsCipher } from '../../shared/credentials-cipher.js';
import { DatabaseEvents, type Unsubscribe } from '../../shared/database-events.js';
import { UnavailableError, fail } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { TOKENS } from '../../shared/tokens.js';
import { MailboxBoardRepository, PUBLISHED_CHANNEL, type BoardState, type KnownMail } from './mailbox-board.repository.js';
import { MailSourceError, type FetchedMessage, type MailboxLogin, type MailSource, type MailWatch } from './mail-source.js';
import { platformMailOf, speaksFor, type PlatformMailKind, type PlatformVoice } from './platform-mail.js';
import { heardMail, type HeardMail, type HeardMailSink } from './account-alerts.js';
import { MAILBOX_HEARD_SINK, MAILBOX_SOURCE } from './tokens.js';
import { VERIFICATION_MAX_POLLS, VERIFICATION_POLL_SECONDS } from '../../promises/index.js';

/** One mailbox to read, and the addresses that count as "sent to this account". */
export interface MailboxTarget {
  mailboxId: number;
  login: MailboxLogin;
  recipients: string[];
  /**
   * The platform a link or code is asked for: its senders and link hosts (its alert rules). A
   * found mail is handed out only when it is from one of the senders and, for a link, points at
   * one of the hosts; without it nothing is (the watcher's reads ask for nothing).
   */
  platform?: PlatformVoice;
}

export interface FoundMail {
  value: string;
  receivedAt: Date;
}

/** A parsed read stays good this long (the panel's polls, VERIFICATION_POLL_SECONDS apart, then mostly hit IMAP once per poll, a burst once). */
export const CACHE_MS = 5_000;
/** A failed read is answered again for this long, so a dead server is not hammered by every poll. */
export const FAILURE_MS = 5_000;
/** A watch outlives the last poll for its mailbox by this much: a whole polling round fits in it, with 30 s to spare. */
export const WATCH_IDLE_MS = (VERIFICATION_MAX_POLLS * VERIFICATION_POLL_SECONDS + 30) * 1000;
/** Open IDLE connections per process, at most. */
export const MAX_WATCHES = 25;
/** Messages read per mailbox and read. */
const READ_LIMIT = 30;
/** A message whose own Date is this much older than the moment asked for is stale, whatever the server's date says. */
const DATE_SKEW_MS = 5 * 60_000;
/** Parsed mail older than this is dropped from a watch's memory. */
const KEEP_MS = 60 * 60_000;
/**
 * The advisory-lock namespace of mailbox ownership (the bytes of "mbox"): locks are taken in the
 * two-number form (namespace, mailbox id), apart from the single-number locks of migrations and seeding.
 */
export const MAILBOX_LOCK_NAMESPACE = 0x6d626f78;
/** The channel on which a process asks a mailbox's owner to read it. */
export const READ_WANTED_CHANNEL = 'mailbox_read_wanted';
/** A process waiting for the owner's publication looks at the board (and asks again) at least this often. */
const RECHECK_MS = 1_000;
/** What a wait for the owner's read may take beyond the read's own budget (the NOTIFYs and the board's queries). */
const ROUND_TRIP_MS = 1_000;
/** How often the owner looks whether its mailboxes are still polled anywhere. */
const SWEEP_MS = 5_000;

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
  inflight?: Promise<void>;
}

@injectable()
export class MailboxReaderService {
  /** What this process knows of the mailboxes it owns (and only those). */
  private readonly states = new Map<number, MailboxState>();
  /** The mailboxes whose lock this process holds. */
  private readonly owned = new Set<number>();
  private readonly taking = new Map<number, Promise<boolean>>();
  /** The latest hand-over of read mail to the sink, per mailbox. */
  private readonly handing = new Map<number, Promise<void>>();
  /** Resolvers of the polls waiting for a publication, per mailbox. */
  private readonly waiters = new Map<number, Set<() => void>>();
  /** This process on the board (which owner wrote a row). */
  private readonly processId = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private subscribed?: Promise<Unsubscribe[]>;
  private stopLossWatch?: Unsubscribe;
  private sweeper?: NodeJS.Timeout;
  private closed = false;

  constructor(
    @inject(MAILBOX_SOURCE) private readonly source: MailSource | null,
    @inject(TOKENS.Config) private readonly config: AppConfig,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(DatabaseEvents) private readonly events: DatabaseEvents,
    @inject(MailboxBoardRepository) private readonly board: MailboxBoardRepository,
    @inject(CredentialsCipher) private readonly cipher: CredentialsCipher,
    @inject(MAILBOX_HEARD_SINK) @optional() private readonly sink?: HeardMailSink,
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
    await this.subscribe();
    await this.board.markWanted(target.mailboxId);
    if (this.owned.has(target.mailboxId) || (await this.take(target.mailboxId))) return this.ownLatest(target, kind, since);
    return this.boardLatest(target, kind, since);
  }

  /**
   * Keeps the mailbox watched for account alerts (issue 29), whoever asks: marks it wanted (so its
   * owner, wherever it is, keeps its watch), takes it when nobody owns it, and as the owner reads
   * everything received since `since` (handing it to the heard-mail sink) and opens the watch.
   * Answers whether this process owns it. Throws UnavailableError when the read fails.
   */
  async keepWatched(target: MailboxTarget, since: Date): Promise<boolean> {
    if (!this.source || this.closed) return false;
    await this.subscribe();
    await this.board.markWanted(target.mailboxId);
    if (!this.owned.has(target.mailboxId) && !(await this.take(target.mailboxId))) return false;
    const state = this.stateOf(target);
    if (!this.covers(state, since)) await this.refresh(state, target, since);
    // The read's mail is classified before the watch job reports (a restart's re-read included).
    await this.handing.get(target.mailboxId);
    return true;
  }

  /** Ends every watch and gives every mailbox up (process shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    this.stopLossWatch?.();
    const unsubscribe = await this.subscribed?.catch(() => []);
    unsubscribe?.forEach((stop) => stop());
    await Promise.all([...this.owned].map((mailboxId) => this.letGo(mailboxId)));
  }

  /** The owner's answer: from memory, read (and watched) here. */
  private async ownLatest(target: MailboxTarget, kind: PlatformMailKind, since: Date): Promise<FoundMail | null> {
    const state = this.stateOf(target);
    if (!this.covers(state, since)) await this.refresh(state, target, since);
    return pick(state.known, kind, since, target);
  }

  /**
   * Another process owns the mailbox: the board's answer when it covers `since`; else the owner is
   * asked to read, and the publication awaited within the read budget. Should the owner die or let
   * go meanwhile, this process takes the mailbox over.
   */
  private async boardLatest(target: MailboxTarget, kind: PlatformMailKind, since: Date): Promise<FoundMail | null> {
    const { mailboxId } = target;
    // Without the events connection this process can neither own the mailbox nor hear the owner:
    // say so at once rather than after the whole budget (take() tried to open it just now).
    if (!this.events.connected) throw this.withoutEvents(mailboxId);
    const until = Date.now() + this.config.mailbox.imapTimeoutMs + ROUND_TRIP_MS;
    let failureSeen: number | undefined;
    for (let asked = false; ; asked = true) {
      const state = await this.board.state(mailboxId);
      if (state && boardCovers(state, since)) return pick(await this.board.mail(mailboxId, kind, since), kind, since, target);
      const failureAt = state?.failureAt?.getTime();
      // A failure the owner published for this poll, or a few seconds ago (it is not asked again yet).
      if (failureAt !== undefined && (asked ? failureAt !== failureSeen : (state?.failureAgeMs ?? Infinity) < FAILURE_MS)) throw mailboxUnavailable();
      failureSeen = failureAt;
      const left = until - Date.now();
      if (left <= 0) {
        this.logger.warn({ mailboxId }, 'mailbox owner did not publish a read in time');
        throw mailboxUnavailable();
      }
      const published = this.published(mailboxId, Math.min(left, RECHECK_MS));
      // Asked again at each look: a request sent while the owner's connection was away is lost.
      await this.events.notify(
        READ_WANTED_CHANNEL,
        JSON.stringify({ mailboxId, since: since.getTime(), login: this.cipher.encrypt(JSON.stringify(target.login)) }),
      );
      await published;
      if (await this.take(mailboxId)) return this.ownLatest(target, kind, since);
      if (!this.events.connected) throw this.withoutEvents(mailboxId);
    }
  }

  private withoutEvents(mailboxId: number): UnavailableError {
    this.logger.warn({ mailboxId }, 'mailbox not read: no database events connection');
    return mailboxUnavailable();
  }

  /**
   * Takes the mailbox's lock when it is free; the board then starts afresh under this owner. One
   * attempt per mailbox at a time: PostgreSQL's session locks count, so a second grant to this
   * session would need a second release.
   */
  private take(mailboxId: number): Promise<boolean> {
    if (this.owned.has(mailboxId)) return Promise.resolve(true);
    let taking = this.taking.get(mailboxId);
    if (!taking) {
      taking = this.tryTake(mailboxId).finally(() => this.taking.delete(mailboxId));
      this.taking.set(mailboxId, taking);
    }
    return taking;
  }

  private async tryTake(mailboxId: number): Promise<boolean> {
    if (this.closed || !(await this.events.trySessionLock(MAILBOX_LOCK_NAMESPACE, mailboxId))) return false;
    try {
      if (this.closed) throw new Error('closed');
      await this.board.takeOver(mailboxId, this.processId);
    } catch (error) {
      await this.events.releaseSessionLock(MAILBOX_LOCK_NAMESPACE, mailboxId);
      if (this.closed) return false;
      throw error;
    }
    this.owned.add(mailboxId);
    this.states.delete(mailboxId);
    this.ensureSweeper();
    this.logger.info({ mailboxId }, 'mailbox owned by this process');
    return true;
  }

  /** Ends the watch and gives the mailbox's lock back. */
  private async letGo(mailboxId: number): Promise<void> {
    const state = this.states.get(mailboxId);
    this.states.delete(mailboxId);
    this.owned.delete(mailboxId);
    if (state) await this.endWatch(state);
    await this.board.release(mailboxId, this.processId).catch(() => undefined);
    await this.events.releaseSessionLock(MAILBOX_LOCK_NAMESPACE, mailboxId);
    this.logger.info({ mailboxId }, 'mailbox let go');
  }

  /** Listens for read requests and publications (once), and for the loss of the locks. */
  private subscribe(): Promise<unknown> {
    this.stopLossWatch ??= this.events.onSessionLost(() => this.lostEverything());
    this.subscribed ??= Promise.all([
      this.events.listen(READ_WANTED_CHANNEL, (payload) => this.readWanted(payload)),
      this.events.listen(PUBLISHED_CHANNEL, (payload) => this.wake(Number(payload))),
    ]);
    return this.subscribed;
  }

  /** The events connection is gone, and every lock with it: another process may own these mailboxes now. */
  private lostEverything(): void {
    if (this.owned.size === 0) return;
    this.logger.warn({ mailboxes: this.owned.size }, 'mailbox ownership lost with the database events connection');
    for (const mailboxId of this.owned) {
      const state = this.states.get(mailboxId);
      if (state) void this.endWatch(state);
      this.states.delete(mailboxId);
    }
    this.owned.clear();
  }

  /** Another process asks this one, the owner, to read (the login comes encrypted with the request). */
  private readWanted(payload: string): void {
    let request: { mailboxId: number; since: number; login: string };
    let login: MailboxLogin;
    try {
      request = JSON.parse(payload) as { mailboxId: number; since: number; login: string };
      if (!this.owned.has(request.mailboxId) || this.closed) return;
      login = JSON.parse(this.cipher.decrypt(request.login)) as MailboxLogin;
    } catch {
      this.logger.warn('mailbox read request not understood');
      return;
    }
    const target: MailboxTarget = { mailboxId: request.mailboxId, login, recipients: [] };
    const state = this.stateOf(target);
    const since = new Date(request.since);
    if (this.covers(state, since)) {
      // Known here already (the board may lag behind a publication that failed): publish again.
      void this.publish(state, request.mailboxId, state.known, { coveredSince: state.coveredSince, live: state.live });
      return;
    }
    // A failure is published by the read itself.
    void this.refresh(state, target, since).catch(() => undefined);
  }

  /** Resolves at the next publication for this mailbox, or after `ms`. */
  private published(mailboxId: number, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const waiting = this.waiters.get(mailboxId) ?? new Set<() => void>();
      this.waiters.set(mailboxId, waiting);
      const done = () => {
        clearTimeout(timer);
        waiting.delete(done);
        if (waiting.size === 0 && this.waiters.get(mailboxId) === waiting) this.waiters.delete(mailboxId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      waiting.add(done);
    });
  }

  private wake(mailboxId: number): void {
    for (const done of [...(this.waiters.get(mailboxId) ?? [])]) done();
  }

  /** Puts what this owner knows on the board and tells the cluster; a board that cannot be written is logged, not thrown. */
  private async publish(state: MailboxState, mailboxId: number, found: KnownMail[], read: { coveredSince?: Date; live: boolean }): Promise<void> {
    if (!this.owned.has(mailboxId) || this.states.get(mailboxId) !== state) return;
    await this.board
      .publish(mailboxId, this.processId, found, read, (trx) => this.events.notify(PUBLISHED_CHANNEL, String(mailboxId), trx))
      .catch((error: unknown) => this.logger.warn({ err: error, mailboxId }, 'mailbox read not published'));
  }

  private async publishFailure(mailboxId: number): Promise<void> {
    if (!this.owned.has(mailboxId)) return;
    await this.board
      .publishFailure(mailboxId, this.processId, 'mailbox_unavailable', (trx) => this.events.notify(PUBLISHED_CHANNEL, String(mailboxId), trx))
      .catch((error: unknown) => this.logger.warn({ err: error, mailboxId }, 'mailbox failure not published'));
  }

  private stateOf(target: MailboxTarget): MailboxState {
    // A changed address or password (staff edited the mailbox) starts afresh.
    const key = `${target.login.address}\u0000${target.login.password}`;
    const existing = this.states.get(target.mailboxId);
    if (existing && existing.key === key) return existing;
    if (existing) void this.endWatch(existing);
    const state: MailboxState = { key, known: [], readAt: 0, live: false };
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
      this.handOver(target.mailboxId, messages);
      state.coveredSince = since;
      state.readAt = Date.now();
      state.failure = undefined;
      if (watch && (this.closed || this.states.get(target.mailboxId) !== state)) {
        // Shut down, or the mailbox was let go (lost) while the watch opened.
        await watch.stop();
      } else if (watch) {
        state.watch = watch;
        state.live = true;
        this.ensureSweeper();
      }
      this.logger.debug({ mailboxId: target.mailboxId, messages: messages.length, ms: Date.now() - started, watching: state.live }, 'mailbox read');
      await this.publish(state, target.mailboxId, state.known, { coveredSince: since, live: state.live });
      // Only now: what the watch hears from here on is published after the read it follows.
      if (watch && state.watch === watch) watch.begin();
    } catch (error) {
      const reason = error instanceof MailSourceError ? error.reason : 'protocol';
      this.logger.warn({ mailboxId: target.mailboxId, reason, detail: error instanceof Error ? error.message : undefined }, 'mailbox read failed');
      const unavailable = mailboxUnavailable(error);
      state.failure = { error: unavailable, at: Date.now() };
      await this.publishFailure(target.mailboxId);
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
          void this.publish(state, target.mailboxId, parsed, { live: true });
          this.handOver(target.mailboxId, fresh);
          this.logger.debug({ mailboxId: target.mailboxId, messages: fresh.length }, 'mailbox watch heard new mail');
        });
      },
      onEnd: (error) => {
        if (!opened.watch || state.watch !== opened.watch) return;
        state.watch = undefined;
        state.live = false;
        state.readAt = Date.now();
        void this.publish(state, target.mailboxId, [], { live: false });
        this.logger.info({ mailboxId: target.mailboxId, failed: error !== undefined }, 'mailbox watch ended');
      },
    });
    opened.watch = result.watch;
    return result;
  }

  /**
   * Hands what this owner read or heard to the heard-mail sink (account alerts), in the
   * background: a poll never waits for it. The sink records each mail once, so a mail handed over
   * again (a later read, another owner after a takeover) changes nothing.
   */
  private handOver(mailboxId: number, messages: FetchedMessage[]): void {
    const sink = this.sink;
    if (!sink || messages.length === 0) return;
    const previous = this.handing.get(mailboxId) ?? Promise.resolve();
    // One hand-over at a time per mailbox, in arrival order: an alert is applied after the ones before it.
    const handing = previous
      .then(() => Promise.all(messages.map((message) => heardMail(message))))
      .then((mails) =>
        sink.heard(
          mailboxId,
          mails.filter((mail): mail is HeardMail => mail !== undefined),
        ),
      )
      .catch((error: unknown) => this.logger.warn({ err: error, mailboxId }, 'heard mail not handed over'))
      .finally(() => {
        if (this.handing.get(mailboxId) === handing) this.handing.delete(mailboxId);
      });
    this.handing.set(mailboxId, handing);
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

  /**
   * Lets go of the mailboxes nobody in the cluster polled for WATCH_IDLE_MS (the board's wanted_at,
   * which every process's polls move), and prunes the board's old mail.
   */
  private ensureSweeper(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  private async sweep(): Promise<void> {
    if (this.owned.size === 0) return;
    try {
      const ages = await this.board.wantedAges([...this.owned]);
      for (const mailboxId of [...this.owned]) {
        const idle = (ages.get(mailboxId) ?? Infinity) >= WATCH_IDLE_MS;
        if (idle && !this.states.get(mailboxId)?.inflight) await this.letGo(mailboxId);
      }
      await this.board.prune();
    } catch (error) {
      this.logger.warn({ err: error }, 'mailbox sweep failed');
    }
  }
}

/**
 * The links and codes of the messages that passed DMARC for their From domain (issue 33): an
 * unauthenticated mail never reaches the board or a buyer, whatever it claims.
 */
async function parseAll(messages: FetchedMessage[]): Promise<KnownMail[]> {
  const parsed = await Promise.all(
    messages
      .filter((message) => message.authentication === 'verified')
      .map(async (message) => {
        const mail = platformMailOf(message.mail);
        return mail ? { ...mail, receivedAt: message.receivedAt, uid: message.uid } : undefined;
      }),
  );
  return parsed.filter((mail): mail is KnownMail => mail !== undefined);
}

function mailboxUnavailable(cause?: unknown): UnavailableError {
  return fail('mailbox_unavailable', undefined, { cause: cause });
}

function recipientSet(target: MailboxTarget): Set<string> {
  return new Set(target.recipients.map((address) => address.toLowerCase()));
}

/** The board holds every platform e-mail received since `since`, read recently or kept current by a watch. */
function boardCovers(state: BoardState, since: Date): boolean {
  if (!state.owner || !state.coveredSince || state.coveredSince.getTime() > since.getTime()) return false;
  return state.live || (state.readAgeMs !== null && state.readAgeMs < CACHE_MS);
}

function pick(known: KnownMail[], kind: PlatformMailKind, since: Date, target: MailboxTarget): FoundMail | null {
  const recipients = recipientSet(target);
  const platform = target.platform;
  if (!platform) return null;
  const match = known
    .filter(
      (mail) =>
        mail.kind === kind &&
        mail.receivedAt.getTime() >= since.getTime() &&
        (!mail.sentAt || mail.sentAt.getTime() >= since.getTime() - DATE_SKEW_MS) &&
        mail.recipients.some((address) => recipients.has(address)) &&
        speaksFor(mail, platform),
    )
    .sort((a, b) => b.receivedAt.getTime() - a.receivedAt.getTime() || b.uid - a.uid)[0];
  return match ? { value: match.value, receivedAt: match.receivedAt } : null;
}
