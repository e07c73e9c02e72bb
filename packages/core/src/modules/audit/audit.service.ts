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
import type { AuditAction, AuditTargetType } from '../../validation/audit-actions.js';
import { AuditRepository } from './audit.repository.js';
import type { AuditRow } from './models/audit-entry.model.js';
import type { AuditPagesQuery, AuditQuery } from '../../wire/staff.js';

/** Who did it: a staff user (with their e-mail at the time), or an operator tool. */
export interface AuditActor {
  userId?: number;
  label: string;
  ip?: string;
}

export interface AuditEntry {
  /** One of the listed actions, each of which the staff screen names in both languages. */
  action: AuditAction;
  targetType?: AuditTargetType;
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

@injectable()
export class AuditService {
  constructor(
    @inject(AuditRepository) private readonly entries: AuditRepository,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  async record(actor: AuditActor, entry: AuditEntry, trx?: Knex.Transaction): Promise<void> {
    await this.entries.insert(
      {
        actor_user_id: actor.userId ?? null,
        actor_label: actor.label,
        action: entry.action,
        target_type: entry.targetType ?? null,
        target_id: entry.targetId === undefined ? null : String(entry.targetId),
        details: entry.details ?? {},
        ip: actor.ip ?? null,
        created_at: this.clock.now(),
      },
      trx,
    );
  }

  /**
   * Admins: the audit log, newest first, a page at a time (`{ page = 1, limit = 20, action?,
   * actorUserId?, actorEmail?, targetType?, targetId? }`, limit 1 to 100).
   */
  async list({ page, limit, ...filter }: AuditQuery): Promise<AuditPage> {
    const [rows, count] = await Promise.all([this.entries.page(filter, offsetOf(page, limit), limit), this.entries.count(filter)]);
    return { items: rows.map(toRecord), count, pages: pagesOf(count, limit), page, limit };
  }

  /** `{ limit = 20, action?, actorUserId? }` → how many entries and how many pages of `limit`. */
  async countPages({ limit, ...filter }: AuditPagesQuery): Promise<PageCount> {
    const count = await this.entries.count(filter);
    return { pages: pagesOf(count, limit), count };
  }
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
