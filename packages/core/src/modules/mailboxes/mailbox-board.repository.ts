/**
 * The board where the process that reads a mailbox publishes what it found, for every process of
 * the cluster (tables mailbox_read_state and mailbox_found_mail). Links and codes are stored
 * encrypted with the credentials key; they are decrypted only to answer a poll.
 *
 * Ages are measured by PostgreSQL's clock (now() - read_at), so processes on machines whose clocks
 * differ agree on what is fresh. Every write of the owner names it: a process that lost its lock
 * (its session ended) can no longer overwrite what the new owner publishes.
 *
 * Through `MailboxReadStateModel` and `FoundMailModel`; the upserts (`markWanted`, `takeOver`,
 * found mail in `publish`) stay knex's builder and raw SQL (objection answers the object it was
 * given when `on conflict` merges).
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { CredentialsCipher } from '../../shared/credentials-cipher.js';
import { TOKENS } from '../../shared/tokens.js';
import type { PlatformMailKind } from './platform-mail.js';
import { FoundMailModel, MailboxReadStateModel } from './models/mailbox-board.model.js';

/** A platform e-mail found in a mailbox. The value is a secret. */
export interface KnownMail {
  kind: PlatformMailKind;
  value: string;
  /** The author (RFC 5322 From), lower case: only a platform whose senders include it is handed the value. */
  from: string;
  recipients: string[];
  receivedAt: Date;
  uid: number;
  sentAt?: Date;
}

/** What the board says of one mailbox, ages in ms by the database's clock. */
export interface BoardState {
  owner: string | null;
  coveredSince: Date | null;
  readAgeMs: number | null;
  live: boolean;
  failureCode: string | null;
  failureAt: Date | null;
  failureAgeMs: number | null;
}

/** Found mail is kept this long after it was received (well past HOUSEHOLD_LINK_MINUTES, when links expire). */
const KEEP = '1 hour';

/** The channel on which the owner says "mailbox N: the board has news". */
export const PUBLISHED_CHANNEL = 'mailbox_published';

@injectable()
export class MailboxBoardRepository {
  constructor(
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(CredentialsCipher) private readonly cipher: CredentialsCipher,
  ) {}

  /** A poll for this mailbox, from any process: keeps its owner's watch alive. */
  async markWanted(mailboxId: number): Promise<void> {
    await this.knex.raw(
      `insert into mailbox_read_state (mailbox_id, wanted_at) values (?, now())
       on conflict (mailbox_id) do update set wanted_at = now()`,
      [mailboxId],
    );
  }

  /** A new owner starts from nothing: whatever the last owner said of freshness no longer holds. */
  async takeOver(mailboxId: number, owner: string): Promise<void> {
    await this.knex.raw(
      `insert into mailbox_read_state (mailbox_id, owner) values (?, ?)
       on conflict (mailbox_id) do update set owner = excluded.owner, live = false, covered_since = null, read_at = null`,
      [mailboxId, owner],
    );
  }

  /** The owner lets go (nobody polls any more): nothing on the board stays "live". */
  async release(mailboxId: number, owner: string): Promise<void> {
    await MailboxReadStateModel.query(this.knex).where({ mailbox_id: mailboxId, owner }).patch({ owner: null, live: false });
  }

  async state(mailboxId: number): Promise<BoardState | undefined> {
    const row = (await MailboxReadStateModel.query(this.knex)
      .findById(mailboxId)
      .select(
        'owner',
        'covered_since',
        'live',
        'failure_code',
        'failure_at',
        this.knex.raw('(extract(epoch from now() - read_at) * 1000)::float8 as read_age_ms'),
        this.knex.raw('(extract(epoch from now() - failure_at) * 1000)::float8 as failure_age_ms'),
      )) as (MailboxReadStateModel & { read_age_ms: number | null; failure_age_ms: number | null }) | undefined;
    if (!row) return undefined;
    return {
      owner: row.owner,
      coveredSince: row.covered_since,
      readAgeMs: row.read_age_ms,
      live: row.live,
      failureCode: row.failure_code,
      failureAt: row.failure_at,
      failureAgeMs: row.failure_age_ms,
    };
  }

  /** Found mail of this kind received at or after `since`, decrypted. */
  async mail(mailboxId: number, kind: PlatformMailKind, since: Date): Promise<KnownMail[]> {
    const rows = await FoundMailModel.query(this.knex)
      .where({ mailbox_id: mailboxId, kind })
      .andWhere('received_at', '>=', since)
      .whereNotNull('sender')
      .select('uid', 'received_at', 'value_encrypted', 'recipients', 'sent_at', 'sender');
    // A row written under an earlier CREDENTIALS_KEY (before a rotation) counts as not found; the
    // owner's next read writes it again under the current key.
    return rows
      .filter((row) => !this.cipher.needsRotation(row.value_encrypted))
      .map((row) => ({
        kind,
        value: this.cipher.decrypt(row.value_encrypted),
        from: row.sender!,
        recipients: row.recipients,
        receivedAt: row.received_at,
        uid: Number(row.uid),
        sentAt: row.sent_at ?? undefined,
      }));
  }

  /**
   * Publishes a read (or what a watch heard) and tells the cluster, in one transaction. `read`
   * says what the owner now knows: everything since `coveredSince` (a read), or only that it is
   * still current (`readAt` moves on).
   */
  async publish(
    mailboxId: number,
    owner: string,
    found: KnownMail[],
    read: { coveredSince?: Date; live: boolean },
    notify: (trx: Knex.Transaction) => Promise<void>,
  ): Promise<void> {
    await this.knex.transaction(async (trx) => {
      if (found.length > 0) {
        await trx('mailbox_found_mail')
          .insert(
            found.map((mail) => ({
              mailbox_id: mailboxId,
              uid: mail.uid,
              received_at: mail.receivedAt,
              kind: mail.kind,
              value_encrypted: this.cipher.encrypt(mail.value),
              sender: mail.from,
              recipients: mail.recipients,
              sent_at: mail.sentAt ?? null,
            })),
          )
          .onConflict(['mailbox_id', 'received_at', 'uid'])
          .merge(['value_encrypted', 'sender']);
      }
      await MailboxReadStateModel.query(trx)
        .where({ mailbox_id: mailboxId, owner })
        .patch({
          ...(read.coveredSince ? { covered_since: read.coveredSince } : {}),
          read_at: trx.fn.now(),
          live: read.live,
        });
      await notify(trx);
    });
  }

  /** A failed read, for the processes waiting on it (and those that poll in the next seconds). */
  async publishFailure(mailboxId: number, owner: string, code: string, notify: (trx: Knex.Transaction) => Promise<void>): Promise<void> {
    await this.knex.transaction(async (trx) => {
      await MailboxReadStateModel.query(trx).where({ mailbox_id: mailboxId, owner }).patch({ failure_code: code, failure_at: trx.fn.now(), live: false });
      await notify(trx);
    });
  }

  /** How long ago each of these mailboxes was last polled anywhere, ms. */
  async wantedAges(mailboxIds: number[]): Promise<Map<number, number>> {
    if (mailboxIds.length === 0) return new Map();
    const rows = (await MailboxReadStateModel.query(this.knex)
      .whereIn('mailbox_id', mailboxIds)
      .select('mailbox_id', this.knex.raw('(extract(epoch from now() - wanted_at) * 1000)::float8 as age_ms'))) as Array<
      MailboxReadStateModel & { age_ms: number }
    >;
    return new Map(rows.map((row) => [Number(row.mailbox_id), row.age_ms]));
  }

  /** Drops found mail received more than an hour ago. */
  async prune(): Promise<void> {
    await FoundMailModel.query(this.knex)
      .where('received_at', '<', this.knex.raw(`now() - interval '${KEEP}'`))
      .delete();
  }
}
