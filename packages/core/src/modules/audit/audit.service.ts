/**
 * The audit log: who among staff did what, and every reveal of a secret (platform
 * credentials, a kept e-mail with a live code). Written in the caller's transaction when
 * there is one, so an action and its trace commit together.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { Clock } from '../../shared/clock.js';
import { offsetOf, pagesOf, type PageCount } from '../../shared/paging.js';
import { TOKENS } from '../../shared/tokens.js';
import type { AuditPagesQuery, AuditQuery } from '../../wire/staff.js';

/** Who did it: a staff user (with their e-mail at the time), or an operator tool. */
export interface AuditActor {
  userId?: number;
  label: string;
  ip?: string;
}

export interface AuditEntry {
  action: string;
  targetType?: string;
  targetId?: string | number;
  details?: Record<string, unknown>;
}

export interface AuditRecord {
  id: number;
  actorUserId: number | null;
  actorLabel: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  details: Record<string, unknown>;
  ip: string | null;
  createdAt: Date;
}

/** One page of entries, newest first; `pages` and `count` are the spec's paged count response. */
export interface AuditPage {
  items: AuditRecord[];
  count: number;
  pages: number;
  page: number;
  limit: number;
}

interface AuditFilter {
  action?: string;
  actorUserId?: number;
  actorEmail?: string;
  targetType?: string;
  targetId?: string;
}

@injectable()
export class AuditService {
  constructor(
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  async record(actor: AuditActor, entry: AuditEntry, trx?: Knex.Transaction): Promise<void> {
    await (trx ?? this.knex)('audit_log').insert({
      actor_user_id: actor.userId ?? null,
      actor_label: actor.label,
      action: entry.action,
      target_type: entry.targetType ?? null,
      target_id: entry.targetId === undefined ? null : String(entry.targetId),
      details: JSON.stringify(entry.details ?? {}),
      ip: actor.ip ?? null,
      created_at: this.clock.now(),
    });
  }

  /**
   * Admins: the audit log, newest first, a page at a time (`{ page = 1, limit = 20, action?,
   * actorUserId?, actorEmail?, targetType?, targetId? }`, limit 1 to 100).
   */
  async list({ page, limit, ...filter }: AuditQuery): Promise<AuditPage> {
    const [rows, count] = await Promise.all([
      this.filtered(filter).orderBy('id', 'desc').limit(limit).offset(offsetOf(page, limit)).select<AuditRow[]>('*'),
      this.count(filter),
    ]);
    return { items: rows.map(toRecord), count, pages: pagesOf(count, limit), page, limit };
  }

  /** `{ limit = 20, action?, actorUserId? }` → how many entries and how many pages of `limit`. */
  async countPages({ limit, ...filter }: AuditPagesQuery): Promise<PageCount> {
    const count = await this.count(filter);
    return { pages: pagesOf(count, limit), count };
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

  private async count(filter: AuditFilter): Promise<number> {
    const [row] = await this.filtered(filter).count<Array<{ count: string | number }>>('id as count');
    return Number(row?.count ?? 0);
  }
}

interface AuditRow {
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

function toRecord(row: AuditRow): AuditRecord {
  return {
    id: row.id,
    actorUserId: row.actor_user_id,
    actorLabel: row.actor_label,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    details: row.details,
    ip: row.ip,
    createdAt: row.created_at,
  };
}
