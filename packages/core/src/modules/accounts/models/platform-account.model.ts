import { Model, type RelationMappings } from 'objection';
import { MailboxModel } from './mailbox.model.js';

export class PlatformAccountModel extends Model {
  static override tableName = 'platform_accounts';
  id!: number;
  platform_id!: number;
  login_email!: string;
  /** `v1:<keyId>:…` from the credentials cipher; never the plaintext. */
  password_encrypted!: string;
  slots_count!: number;
  forwarding_email!: string;
  mailbox_id!: number | null;
  is_active!: boolean;
  /** Seeded by demo mode (docs/demo-mode.md), never by staff: a demo mailbox and generated passwords. */
  is_demo!: boolean;
  /** ok, attention or broken (issue 29; the account-health flow sets it). */
  health!: 'ok' | 'attention' | 'broken';
  created_at!: Date;
  updated_at!: Date;
  /** The mailbox the platform's mails to this account arrive in (null: none of the shop's). */
  mailbox?: MailboxModel | null;

  static override relationMappings = (): RelationMappings => ({
    mailbox: { relation: Model.BelongsToOneRelation, modelClass: MailboxModel, join: { from: 'platform_accounts.mailbox_id', to: 'mailboxes.id' } },
  });
}

/** An account's columns, as a statement run without objection (`sqlRows`) answers them. */
export type PlatformAccountRow = Omit<PlatformAccountModel, keyof Model | 'mailbox'>;
