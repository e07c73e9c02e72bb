import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { insertRowUnlessConflict } from '../../shared/database.js';
import { translateDatabaseError } from '../../shared/errors.js';
import { TOKENS } from '../../shared/tokens.js';
import { OutboxEmailModel, type OutboxStatus } from './models/outbox-email.model.js';

export interface NewOutboxEmail {
  kind: number;
  user_id: number | null;
  to_address: string;
  language_id: number;
  subject: string;
  html: string;
  text: string;
  /** Only for a code e-mail that is still to be delivered: the bodies hold the code masked. */
  code: string | null;
  status: OutboxStatus;
  idempotency_key: string | null;
  created_at: Date;
}

/** Columns of the list view: everything but the bodies. */
const SUMMARY_COLUMNS = [
  'id',
  'kind',
  'user_id',
  'to_address',
  'language_id',
  'subject',
  'status',
  'attempts',
  'last_error',
  'idempotency_key',
  'message_id',
  'created_at',
  'sent_at',
  'last_attempt_at',
];

@injectable()
export class OutboxRepository {
  constructor(@inject(TOKENS.Knex) private readonly knex: Knex) {}

  /** Inserts the e-mail unless its idempotency key is taken; returns the new id, or undefined when it was. */
  async insertUnlessDuplicate(row: NewOutboxEmail, trx: Knex.Transaction): Promise<number | undefined> {
    try {
      // Every activation writes one: one plain statement, not the query builder.
      const inserted = await insertRowUnlessConflict<{ id: number }>(trx, 'email_outbox', row, { conflictOn: ['idempotency_key'], returning: 'id' });
      return inserted?.id;
    } catch (error) {
      return translateDatabaseError(error, 'e-mail');
    }
  }

  async findIdByIdempotencyKey(key: string, trx?: Knex.Transaction): Promise<number | undefined> {
    const row = await OutboxEmailModel.query(trx ?? this.knex)
      .select('id')
      .findOne({ idempotency_key: key });
    return row?.id;
  }

  /** The e-mail (without bodies) written under this idempotency key. */
  async findSummaryByIdempotencyKey(key: string, trx?: Knex.Transaction): Promise<OutboxEmailModel | undefined> {
    return OutboxEmailModel.query(trx ?? this.knex)
      .select(SUMMARY_COLUMNS)
      .findOne({ idempotency_key: key });
  }

  /**
   * Locks the row for this transaction, or returns undefined at once when another transaction
   * holds it (or it does not exist): two deliverers never work on the same e-mail.
   */
  async lockForDelivery(id: number, trx: Knex.Transaction): Promise<OutboxEmailModel | undefined> {
    return OutboxEmailModel.query(trx).findById(id).forUpdate().skipLocked();
  }

  async exists(id: number, trx?: Knex.Transaction): Promise<boolean> {
    const row = await OutboxEmailModel.query(trx ?? this.knex)
      .select('id')
      .findById(id);
    return row !== undefined;
  }

  async findById(id: number, trx?: Knex.Transaction): Promise<OutboxEmailModel | undefined> {
    return OutboxEmailModel.query(trx ?? this.knex).findById(id);
  }

  async recordFailedAttempt(id: number, error: string, at: Date, trx: Knex.Transaction): Promise<void> {
    await trx('email_outbox')
      .where({ id })
      .update({ attempts: trx.raw('least(attempts + 1, 32767)'), last_error: error, last_attempt_at: at });
  }

  /** Also forgets the code of a code e-mail: once the SMTP server has it, nobody needs it here. */
  async markSent(id: number, sent: { messageId: string; at: Date }, trx: Knex.Transaction): Promise<void> {
    await trx('email_outbox')
      .where({ id })
      .update({
        status: 'sent',
        message_id: sent.messageId,
        sent_at: sent.at,
        last_attempt_at: sent.at,
        last_error: null,
        attempts: trx.raw('least(attempts + 1, 32767)'),
        code: null,
      });
  }

  /** pending → failed; a row in any other state keeps it (a sent e-mail stays sent). */
  async markFailed(id: number, trx?: Knex.Transaction): Promise<boolean> {
    const updated = await (trx ?? this.knex)('email_outbox').where({ id, status: 'pending' }).update({ status: 'failed' });
    return updated > 0;
  }

  /** failed → pending, so delivery starts over. */
  async reopenFailed(id: number, trx: Knex.Transaction): Promise<boolean> {
    const updated = await trx('email_outbox').where({ id, status: 'failed' }).update({ status: 'pending' });
    return updated > 0;
  }

  /** Metrics: e-mails waiting to be sent, e-mails given up on, and when the oldest waiting one was written. */
  async backlog(trx?: Knex.Transaction): Promise<{ pending: number; failed: number; oldestPendingAt: Date | null }> {
    const db = trx ?? this.knex;
    const row = await db('email_outbox')
      .whereIn('status', ['pending', 'failed'])
      .first<{ pending: number; failed: number; oldest: Date | null }>(
        db.raw("count(*) filter (where status = 'pending')::int as pending"),
        db.raw("count(*) filter (where status = 'failed')::int as failed"),
        db.raw("min(created_at) filter (where status = 'pending') as oldest"),
      );
    return { pending: row?.pending ?? 0, failed: row?.failed ?? 0, oldestPendingAt: row?.oldest ?? null };
  }

  /** Pending e-mails nobody has tried since `before`, oldest first. */
  async findStalePending(before: Date, limit: number): Promise<Array<{ id: number; kind: number }>> {
    return this.knex('email_outbox')
      .select<Array<{ id: number; kind: number }>>('id', 'kind')
      .where('status', 'pending')
      .andWhere(this.knex.raw('coalesce(last_attempt_at, created_at) < ?', [before]))
      .orderBy('id')
      .limit(limit);
  }

  async page(query: {
    offset: number;
    limit: number;
    status?: OutboxStatus;
    userId?: number;
    kind?: number;
  }): Promise<{ rows: OutboxEmailModel[]; count: number }> {
    const filter = <Q extends Knex.QueryBuilder | ReturnType<typeof OutboxEmailModel.query>>(builder: Q): Q => {
      if (query.status) builder.where('status', query.status);
      if (query.userId !== undefined) builder.where('user_id', query.userId);
      if (query.kind !== undefined) builder.where('kind', query.kind);
      return builder;
    };
    const [rows, total] = await Promise.all([
      filter(OutboxEmailModel.query(this.knex).select(SUMMARY_COLUMNS)).orderBy('id', 'desc').offset(query.offset).limit(query.limit),
      filter(this.knex('email_outbox')).count<Array<{ count: number }>>('id as count'),
    ]);
    return { rows, count: Number(total[0]?.count ?? 0) };
  }
}
