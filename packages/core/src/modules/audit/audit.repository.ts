/**
 * The audit log (`audit_log`) through its model: filtered pages for the admin list, and one
 * insert per entry, in the caller's transaction when there is one.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { TOKENS } from '../../shared/tokens.js';
import { AuditEntryModel, type AuditRow } from './models/audit-entry.model.js';

export interface AuditFilter {
  action?: string;
  actorUserId?: number;
  actorEmail?: string;
  targetType?: string;
  targetId?: string;
}

@injectable()
export class AuditRepository {
  constructor(@inject(TOKENS.Knex) private readonly knex: Knex) {}

  async insert(row: Omit<AuditRow, 'id'>, trx?: Knex.Transaction): Promise<void> {
    await AuditEntryModel.query(trx ?? this.knex).insert(row);
  }

  /** Entries that match, newest first. */
  async page(filter: AuditFilter, offset: number, limit: number): Promise<AuditEntryModel[]> {
    return this.filtered(filter).orderBy('id', 'desc').limit(limit).offset(offset);
  }

  async count(filter: AuditFilter): Promise<number> {
    return this.filtered(filter).resultSize();
  }

  private filtered(filter: AuditFilter) {
    return AuditEntryModel.query(this.knex).modify((query) => {
      if (filter.action) query.where({ action: filter.action });
      if (filter.actorUserId) query.where({ actor_user_id: filter.actorUserId });
      // Labels are e-mails as typed at the time: compared without case, literally (no wildcards).
      if (filter.actorEmail) query.whereRaw('lower(actor_label) = ?', [filter.actorEmail.toLowerCase()]);
      if (filter.targetType) query.where({ target_type: filter.targetType });
      if (filter.targetId) query.where({ target_id: filter.targetId });
    });
  }
}
