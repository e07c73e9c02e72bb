/**
 * The audit log: who among staff did what, and every reveal of a secret (platform
 * credentials, a kept e-mail with a live code). Written in the caller's transaction when
 * there is one, so an action and its trace commit together.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { Clock } from '../../shared/clock.js';
import { TOKENS } from '../../shared/tokens.js';

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

  async list(query: { page: number; limit: number; action?: string; actorUserId?: number }): Promise<{ items: AuditRecord[]; count: number }> {
    const base = this.knex('audit_log').modify((q) => {
      if (query.action) q.where({ action: query.action });
      if (query.actorUserId) q.where({ actor_user_id: query.actorUserId });
    });
    const [{ count }] = await base.clone().count<Array<{ count: number }>>('id as count');
    const rows: Array<{
      id: number;
      actor_user_id: number | null;
      actor_label: string | null;
      action: string;
      target_type: string | null;
      target_id: string | null;
      details: Record<string, unknown>;
      ip: string | null;
      created_at: Date;
    }> = await base
      .clone()
      .orderBy('id', 'desc')
      .limit(query.limit)
      .offset((query.page - 1) * query.limit);
    return {
      count: Number(count),
      items: rows.map((row) => ({
        id: row.id,
        actorUserId: row.actor_user_id,
        actorLabel: row.actor_label,
        action: row.action,
        targetType: row.target_type,
        targetId: row.target_id,
        details: row.details,
        ip: row.ip,
        createdAt: row.created_at,
      })),
    };
  }
}
