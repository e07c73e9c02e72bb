import { Model } from 'objection';

/**
 * One entry of the audit log. No relations: the actor is the identity module's user (its id
 * and the label at the time are kept, so an entry outlives the account), and a target may be
 * any module's row.
 */
export class AuditEntryModel extends Model {
  static override tableName = 'audit_log';
  static override jsonAttributes = ['details'];
  id!: number;
  actor_user_id!: number | null;
  /** "cli", "worker" or the staff e-mail at the time. */
  actor_label!: string | null;
  action!: string;
  target_type!: string | null;
  target_id!: string | null;
  details!: Record<string, unknown>;
  ip!: string | null;
  created_at!: Date;
}

/** An entry's columns. */
export type AuditRow = Omit<AuditEntryModel, keyof Model>;
