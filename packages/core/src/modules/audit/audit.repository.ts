/**
 * The audit log's table (`audit_log`), through knex's query builder: filtered pages for the
 * admin list, and one insert per entry, in the caller's transaction when there is one.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { TOKENS } from '../../shared/tokens.js';

export interface AuditRow {
  id: number;
  actor_user_id: number | null;
  actor_label: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  details: Record<string, unknown>;
  ip: string | null;
  created_at: Date;
}

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
    await (trx ?? this.knex)('audit_log').insert({ ...row, details: JSON.stringify(row.details) });
  }

  /** Entries that match, newest first. */
  async page(filter: AuditFilter, offset: number, limit: number): Promise<AuditRow[]> {
    return this.filtered(filter).orderBy('id', 'desc').limit(limit).offset(offset).select<AuditRow[]>('*');
  }

  async count(filter: AuditFilter): Promise<number> {
    const [row] = await this.filtered(filter).count<Array<{ count: string | number }>>('id as count');
    return Number(row?.count ?? 0);
  }

  private filtered(filter: AuditFilter): Knex.QueryBuilder {
    return this.knex('audit_log').modify((query) => {
      if (filter.action) query.where({ action: filter.action });
      if (filter.actorUserId) query.where({ actor_user_id: filter.actorUserId });
      // Labels are e-mails as typed at the time: compared without case, literally (no wildcards).
      if (filter.actorEmail) query.whereRaw('lower(actor_label) = ?', [filter.actorEmail.toLowerCase()]);
      if (filter.targetType) query.where({ target_type: filter.targetType });
      if (filter.targetId) query.where({ target_id: filter.targetId });
    });
  }
}
