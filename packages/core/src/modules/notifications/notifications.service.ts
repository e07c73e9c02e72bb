/**
 * E-mails to users, through a transactional outbox.
 *
 * `enqueue` renders the e-mail at once and writes it to `email_outbox` in the caller's
 * transaction, together with the pg-boss job that will deliver it: both exist only if the cause
 * commits. `deliver` (the job) locks the row, sends it over SMTP and marks it sent; the `sent`
 * status is the guard that stops a second send, however often the job runs. Without SMTP_URL the
 * outbox is the destination: rows are stored as `kept` and staff read them.
 *
 * Logs carry outbox ids, kinds and statuses, never addresses, bodies or the data (codes).
 *
 * Codes (kinds in EMAIL_KIND_CARRIES_CODE): staff read the outbox, and a code there would let
 * them into the buyer's account. So the stored subject and bodies show the code masked, the code
 * waits in its own column until delivery puts it back in (and is then cleared), a kept code
 * e-mail (no SMTP) stores no code at all, and code e-mails have their own delivery queue.
 * In demo mode without SMTP, every e-mail is also printed on the console, code included, once its
 * transaction commits (console-mail.ts): the newcomer at the terminal reads it, staff do not.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { Clock } from '../../shared/clock.js';
import type { AppConfig } from '../../shared/config.js';
import { inTransaction } from '../../shared/database.js';
import { ConflictError, UnavailableError, ValidationError, fail } from '../../shared/errors.js';
import type { JobQueue } from '../../shared/jobs.js';
import type { Logger } from '../../shared/logger.js';
import { TOKENS } from '../../shared/tokens.js';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from '../../shared/paging.js';
import { type AuditActor, AuditService } from '../audit/index.js';
import {
  carriesCode,
  CODE_MASK,
  EMAIL_KIND_NAMES,
  isEmailKind,
  type EmailKind,
  type EmailDataByKind,
  type EmailKindName,
  type EmailLanguageId,
  type EmailMessage,
} from './email-kinds.js';
import { ConsoleMail } from './console-mail.js';
import { describeSmtpError, Mailer } from './mailer.js';
import type { OutboxEmailModel, OutboxStatus } from './models/outbox-email.model.js';
import { OutboxRepository } from './outbox.repository.js';
import { EMAIL_QUEUES } from './queues.js';
import type { RenderedEmail } from './templates/layout.js';
import { renderEmail, type RenderContext } from './templates/templates.js';

export type { OutboxStatus };

export interface EnqueueResult {
  id: number;
  /** False when an e-mail with the same idempotency key already existed (nothing was written). */
  created: boolean;
}

/**
 * What one delivery attempt did: `sent` now; `already-sent` earlier; `busy` another deliverer
 * holds the row right now; `not-pending` the row is kept or failed; `missing` no such row.
 */
export type DeliveryOutcome = 'sent' | 'already-sent' | 'busy' | 'not-pending' | 'missing';

export interface OutboxQuery {
  /** From 1. */
  page?: number;
  /** 1 to 100, default 20. */
  limit?: number;
  status?: OutboxStatus;
  userId?: number;
  kind?: EmailKind;
}

export interface OutboxEmailSummary {
  id: number;
  kind: EmailKind;
  kindName: EmailKindName;
  userId: number | null;
  to: string;
  languageId: EmailLanguageId;
  subject: string;
  status: OutboxStatus;
  attempts: number;
  lastError: string | null;
  idempotencyKey: string | null;
  messageId: string | null;
  createdAt: Date;
  sentAt: Date | null;
  lastAttemptAt: Date | null;
}

export interface OutboxEmail extends OutboxEmailSummary {
  html: string;
  text: string;
}

/** A staff retry: the e-mail's status after it, and whether this call queued it (false: it was waiting already). */
export interface OutboxRetry {
  id: number;
  status: OutboxStatus;
  queued: boolean;
}

export interface OutboxPage {
  items: OutboxEmailSummary[];
  count: number;
  pages: number;
  page: number;
  limit: number;
}

/** A delivery attempt failed; the job fails with it so that pg-boss retries. The message holds no secret. */
export class EmailDeliveryError extends UnavailableError {
  constructor(message: string) {
    super(message, 'email_delivery_failed');
  }
}

const OUTBOX_STATUSES: readonly OutboxStatus[] = ['pending', 'sent', 'failed', 'kept'];
const ADDRESS = /^[^\s@<>()[\],;:"\\]+@[^\s@<>()[\],;:"\\]+$/;
/**
 * Six digits in a row that are not part of a longer number or a colour (#333333): how a code looks
 * in an e-mail staff read. Stored code e-mails hold no code; this catches one written before they
 * were masked (or a template that shows the code in a way the masking missed).
 */
const CODE_PATTERN = /(?<![\d#])\d{6}(?!\d)/g;
/** Rows younger than this are left to the job that was sent with them. */
const SWEEP_AFTER_SECONDS = 120;
const SWEEP_BATCH = 500;

export interface OutboxBacklog {
  /** E-mails waiting for the SMTP server to take them. */
  pending: number;
  /** E-mails whose delivery gave up after its retries (staff can retry them). */
  failed: number;
  /** Age of the oldest pending e-mail in seconds; 0 when none waits. */
  oldestPendingSeconds: number;
}

@injectable()
export class NotificationsService {
  private readonly logger: Logger;
  private readonly renderContext: RenderContext;

  constructor(
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Config) private readonly config: AppConfig,
    @inject(TOKENS.Logger) logger: Logger,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.JobQueue) private readonly jobs: JobQueue,
    @inject(OutboxRepository) private readonly outbox: OutboxRepository,
    @inject(Mailer) private readonly mailer: Mailer,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(ConsoleMail) private readonly consoleMail: ConsoleMail,
  ) {
    this.logger = logger.child({ module: 'notifications' });
    this.renderContext = { brand: brandOf(config), publicUrl: config.publicUrl, business: config.business };
  }

  /**
   * One e-mail to each staff alert address (STAFF_ALERT_EMAILS), none when there is none. Staff
   * alerts are written in English. `cause` names what happened (`account:7:broken:…`): with the
   * address it is the idempotency key, so each address hears of each cause once.
   */
  async alertStaff<K extends EmailKind>(kind: K, data: EmailDataByKind[K], cause: string, trx?: Knex.Transaction): Promise<void> {
    for (const to of this.config.mailbox.staffAlertEmails) {
      await this.enqueue({ kind, to, languageId: 1, data, idempotencyKey: `${cause}:${to}` } as EmailMessage, trx);
    }
  }

  /**
   * Renders the e-mail and stores it in the outbox inside `trx` (or a transaction of its own),
   * with its delivery job when SMTP is configured. Safe to repeat with the same idempotency key.
   */
  async enqueue(email: EmailMessage, trx?: Knex.Transaction): Promise<EnqueueResult> {
    const to = typeof email.to === 'string' ? email.to.trim() : '';
    if (!ADDRESS.test(to) || to.length > 254) throw new ValidationError('The e-mail address is invalid.', { to: 'must be one e-mail address' });
    if (!isEmailKind(email.kind)) throw new ValidationError('This e-mail kind does not exist.', { kind: 'is not a known e-mail kind' });
    const key = email.idempotencyKey;
    if (key !== undefined && (typeof key !== 'string' || key.length === 0 || key.length > 200)) {
      throw new ValidationError('The idempotency key is invalid.', { idempotencyKey: 'must be 1 to 200 characters' });
    }
    const smtp = this.mailer.configured;
    const full = renderEmail(email, this.renderContext);
    const { rendered, code } = withCodeMasked(email, full);

    return inTransaction(this.knex, trx, async (t) => {
      const id = await this.outbox.insertUnlessDuplicate(
        {
          kind: email.kind,
          user_id: email.userId ?? null,
          to_address: to,
          language_id: email.languageId,
          subject: rendered.subject,
          html: rendered.html,
          text: rendered.text,
          // Kept (no SMTP): nobody will deliver it, so the code is not stored at all.
          code: smtp ? code : null,
          status: smtp ? 'pending' : 'kept',
          idempotency_key: key ?? null,
          created_at: this.clock.now(),
        },
        t,
      );
      if (id === undefined) {
        const existing = await this.outbox.findIdByIdempotencyKey(key as string, t);
        if (existing === undefined) throw fail('email_in_progress');
        this.logger.debug({ outboxId: existing, kind: email.kind }, 'e-mail already in the outbox');
        return { id: existing, created: false };
      }
      if (smtp) await this.jobs.send(deliveryQueueOf(email.kind), { outboxId: id }, { trx: t, singletonKey: singletonKey(id) });
      else if (this.consoleMail.enabled) {
        // The unmasked text, printed only once the e-mail really exists (its transaction committed).
        const printed = { outboxId: id, kindName: EMAIL_KIND_NAMES[email.kind], to, subject: full.subject, text: full.text };
        afterCommit(t, () => this.consoleMail.print(printed));
      }
      this.logger.debug({ outboxId: id, kind: email.kind, status: smtp ? 'pending' : 'kept' }, 'e-mail written to the outbox');
      return { id, created: true };
    });
  }

  /**
   * The e-mail written under this idempotency key, without bodies: lets a caller whose keys name
   * a time window (staff `sendemail`) see whether the previous window's e-mail is recent enough.
   */
  async findByIdempotencyKey(key: string, trx?: Knex.Transaction): Promise<OutboxEmailSummary | undefined> {
    const row = await this.outbox.findSummaryByIdempotencyKey(key, trx);
    return row ? toSummary(row) : undefined;
  }

  /**
   * When the e-mail written under this key reached its reader, or null while it has not: sent over
   * SMTP (its sent time), or, in demo mode without SMTP, printed on the console as it was written
   * (the newcomer at the terminal is its reader, so it counts as delivered: issue 34). A kept
   * e-mail of a production shop without SMTP reached nobody.
   */
  async deliveredAt(key: string, trx?: Knex.Transaction): Promise<Date | null> {
    const email = await this.findByIdempotencyKey(key, trx);
    if (email?.status === 'sent') return email.sentAt;
    if (email?.status === 'kept' && this.consoleMail.enabled) return email.createdAt;
    return null;
  }

  /** Whether e-mails written now reach their readers: over SMTP, or on demo mode's console. */
  get delivers(): boolean {
    return this.mailer.configured || this.consoleMail.enabled;
  }

  /**
   * Sends one outbox e-mail if it is still pending. Holds the row's lock while talking to the SMTP
   * server, so concurrent calls send it once; marks it sent in the same transaction. A failure is
   * recorded on the row (attempts, last_error) and rethrown, so the job is retried.
   */
  async deliver(outboxId: number): Promise<DeliveryOutcome> {
    if (!Number.isSafeInteger(outboxId) || outboxId <= 0) throw new ValidationError('The outbox id is invalid.', { outboxId: 'must be a positive id' });
    let failure: EmailDeliveryError | undefined;
    const outcome = await this.knex.transaction(async (trx): Promise<DeliveryOutcome | 'failed'> => {
      const row = await this.outbox.lockForDelivery(outboxId, trx);
      if (!row) return (await this.outbox.exists(outboxId, trx)) ? 'busy' : 'missing';
      if (row.status === 'sent') return 'already-sent';
      if (row.status !== 'pending') return 'not-pending';

      const messageId = this.messageIdFor(row);
      const attemptAt = this.clock.now();
      const unmask = (stored: string) => (row.code ? stored.split(CODE_MASK).join(row.code) : stored);
      try {
        await this.mailer.send({
          to: row.to_address,
          subject: unmask(row.subject),
          html: unmask(row.html),
          text: unmask(row.text),
          messageId,
          headers: { 'X-Subshare-Outbox-Id': String(row.id), 'Auto-Submitted': 'auto-generated' },
        });
      } catch (error) {
        const reason = describeSmtpError(error, this.config.mail.smtpUrl);
        await this.outbox.recordFailedAttempt(row.id, reason, attemptAt, trx);
        this.logger.warn({ outboxId: row.id, kind: row.kind, attempt: row.attempts + 1, error: reason }, 'e-mail delivery failed; it stays pending');
        failure = new EmailDeliveryError(`E-mail ${row.id} was not delivered: ${reason}`);
        return 'failed'; // commit the recorded attempt, then throw
      }
      // Past this point the SMTP server has the message. Should this commit fail, the job runs
      // again and sends it with the same Message-ID, which recipients' servers can recognise.
      await this.outbox.markSent(row.id, { messageId, at: this.clock.now() }, trx);
      this.logger.info({ outboxId: row.id, kind: row.kind, messageId }, 'e-mail sent');
      return 'sent';
    });
    if (outcome === 'failed') throw failure;
    return outcome;
  }

  /** The delivery job gave up (its dead letter arrived): a still-pending e-mail becomes failed, for staff to see. */
  async markFailed(outboxId: number): Promise<boolean> {
    const changed = await this.outbox.markFailed(outboxId);
    if (changed) this.logger.error({ outboxId }, 'e-mail delivery gave up after its retries; marked failed');
    return changed;
  }

  /**
   * Staff: try a failed e-mail again (a fresh round of retries), audited as `email.retry`. Only a
   * failed e-mail is reopened, by one conditional update (failed → pending) with its job in the
   * same transaction, so a double click or two staff at once queue it once: the second finds it
   * pending and answers `queued: false` without doing anything. A sent or kept e-mail: 409
   * `email_not_failed`; no SMTP server configured: 409 `smtp_not_configured`.
   */
  async retry(outboxId: number, actor: AuditActor): Promise<OutboxRetry> {
    if (!this.mailer.configured) throw fail('smtp_not_configured');
    const result = await this.knex.transaction(async (trx): Promise<OutboxRetry> => {
      const reopened = await this.outbox.reopenFailed(outboxId, trx);
      const row = await this.outbox.findById(outboxId, trx);
      if (!row) throw fail('email_not_found');
      if (!reopened) {
        if (row.status === 'pending') return { id: row.id, status: row.status, queued: false };
        throw new ConflictError(`Only a failed e-mail can be retried; this one is ${row.status}.`, 'email_not_failed');
      }
      await this.jobs.send(deliveryQueueOf(row.kind), { outboxId }, { trx, singletonKey: singletonKey(outboxId) });
      await this.audit.record(
        actor,
        { action: 'email.retry', targetType: 'email', targetId: row.id, details: { kind: row.kind, attempts: row.attempts } },
        trx,
      );
      return { id: row.id, status: row.status, queued: true };
    });
    if (result.queued) this.logger.info({ outboxId }, 'failed e-mail queued again');
    return result;
  }

  /**
   * The safety net, run by the `email-sweep` job: sends a delivery job for every pending e-mail that nobody
   * has tried for a while. The queue allows one live job per e-mail (singleton key), so an e-mail
   * whose job is still waiting or retrying gets no second one.
   */
  async sweep(): Promise<{ checked: number; requeued: number }> {
    if (!this.mailer.configured) return { checked: 0, requeued: 0 };
    const before = new Date(this.clock.now().getTime() - SWEEP_AFTER_SECONDS * 1000);
    const ids = await this.outbox.findStalePending(before, SWEEP_BATCH);
    let requeued = 0;
    for (const { id, kind } of ids) {
      const jobId = await this.jobs.send(deliveryQueueOf(kind), { outboxId: id }, { singletonKey: singletonKey(id) });
      if (jobId) requeued += 1;
    }
    if (requeued > 0) this.logger.warn({ requeued, checked: ids.length }, 'pending e-mails without a live delivery job were queued again');
    return { checked: ids.length, requeued };
  }

  /** Metrics: how many e-mails wait for the SMTP server (and since when), and how many it never took. */
  async outboxBacklog(trx?: Knex.Transaction): Promise<OutboxBacklog> {
    const { pending, failed, oldestPendingAt } = await this.outbox.backlog(trx);
    const oldestPendingSeconds = oldestPendingAt ? Math.max(0, (this.clock.now().getTime() - oldestPendingAt.getTime()) / 1000) : 0;
    return { pending, failed, oldestPendingSeconds };
  }

  /** Staff: the outbox, newest first, without bodies. */
  async listOutbox(query: OutboxQuery = {}): Promise<OutboxPage> {
    const page = query.page ?? 1;
    const limit = query.limit ?? PAGE_LIMIT_DEFAULT;
    const errors: Record<string, string> = {};
    if (!Number.isSafeInteger(page) || page < 1) errors.page = 'must be 1 or more';
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > PAGE_LIMIT_MAX) errors.limit = `must be 1 to ${PAGE_LIMIT_MAX}`;
    if (query.status !== undefined && !OUTBOX_STATUSES.includes(query.status)) errors.status = `must be one of ${OUTBOX_STATUSES.join(', ')}`;
    if (query.kind !== undefined && !isEmailKind(query.kind)) errors.kind = 'is not a known e-mail kind';
    if (query.userId !== undefined && (!Number.isSafeInteger(query.userId) || query.userId < 1)) errors.userId = 'must be a positive id';
    if (Object.keys(errors).length > 0) throw new ValidationError('The outbox query is invalid.', errors);

    const { rows, count } = await this.outbox.page({ offset: (page - 1) * limit, limit, status: query.status, userId: query.userId, kind: query.kind });
    return { items: rows.map((row) => maskedForStaff(toSummary(row))), count, pages: Math.ceil(count / limit), page, limit };
  }

  /** Staff: one e-mail with its bodies, a code masked. Every read is audited. */
  async getOutboxEmail(id: number, reader: AuditActor): Promise<OutboxEmail> {
    const row = Number.isSafeInteger(id) && id > 0 ? await this.outbox.findById(id) : undefined;
    if (!row) throw fail('email_not_found');
    await this.audit.record(reader, { action: 'email.read', targetType: 'email', targetId: row.id, details: { kind: row.kind, status: row.status } });
    return maskedForStaff({ ...toSummary(row), html: row.html, text: row.text });
  }

  /**
   * A Message-ID that is the same for every attempt at one outbox row, and differs between
   * installations whose ids happen to collide (it includes the row's creation time).
   */
  private messageIdFor(row: OutboxEmailModel): string {
    const created = new Date(row.created_at).getTime().toString(36);
    return `<outbox-${row.id}.${created}@${domainOf(this.config.mail.from)}>`;
  }
}

/** Runs `effect` once the outermost transaction of `trx` has committed; never after a rollback. */
function afterCommit(trx: Knex.Transaction, effect: () => void): void {
  let outer = trx;
  while (outer.parentTransaction) outer = outer.parentTransaction;
  outer.executionPromise.then(effect, () => undefined);
}

function singletonKey(outboxId: number): string {
  return `email:${outboxId}`;
}

/** Code e-mails have a queue (and workers) of their own, so they never wait behind other mail. */
function deliveryQueueOf(kind: number): string {
  return carriesCode(kind) ? EMAIL_QUEUES.deliverCode.name : EMAIL_QUEUES.deliver.name;
}

/**
 * For a kind that carries a code: the e-mail with every occurrence of the code replaced by
 * CODE_MASK, and the code, so that delivery can put it back. Other kinds pass unchanged.
 */
function withCodeMasked(email: EmailMessage, rendered: RenderedEmail): { rendered: RenderedEmail; code: string | null } {
  if (!carriesCode(email.kind)) return { rendered, code: null };
  const code = (email.data as { code?: unknown }).code;
  // The template has validated the code already; this guards the masking itself.
  if (typeof code !== 'string' || code.length < 4) throw new ValidationError('The e-mail data is invalid.', { 'data.code': 'is required' });
  const parts = [rendered.subject, rendered.html, rendered.text];
  // Unmasking replaces every mask with the code: a mask the template wrote itself would become one.
  if (parts.some((part) => part.includes(CODE_MASK))) throw new Error(`an e-mail of kind ${email.kind} contains the code mask itself`);
  const [subject, html, text] = parts.map((part) => part.split(code).join(CODE_MASK));
  return { rendered: { ...rendered, subject, html, text }, code };
}

/** What staff may read of an e-mail: for a code kind, anything that still looks like a code is masked. */
function maskedForStaff<T extends OutboxEmailSummary & { html?: string; text?: string }>(email: T): T {
  if (!carriesCode(email.kind)) return email;
  const mask = (value: string) => value.replace(CODE_PATTERN, CODE_MASK);
  return {
    ...email,
    subject: mask(email.subject),
    ...(email.html === undefined ? {} : { html: mask(email.html) }),
    ...(email.text === undefined ? {} : { text: mask(email.text) }),
  };
}

function toSummary(row: OutboxEmailModel): OutboxEmailSummary {
  return {
    id: row.id,
    kind: row.kind as EmailKind,
    kindName: EMAIL_KIND_NAMES[row.kind as EmailKind],
    userId: row.user_id,
    to: row.to_address,
    languageId: row.language_id as EmailLanguageId,
    subject: row.subject,
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
    idempotencyKey: row.idempotency_key,
    messageId: row.message_id,
    createdAt: row.created_at,
    sentAt: row.sent_at,
    lastAttemptAt: row.last_attempt_at,
  };
}

/** The sender's display name (`subshare` in `subshare <no-reply@…>`) is the brand e-mails speak as. */
function brandOf(config: AppConfig): string {
  const display = /^\s*"?([^"<]*?)"?\s*</.exec(config.mail.from)?.[1]?.trim();
  return display || config.business.name;
}

function domainOf(from: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1];
  return domain ?? 'subshare.invalid';
}
