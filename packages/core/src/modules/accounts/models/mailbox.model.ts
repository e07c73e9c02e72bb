import { Model } from 'objection';

export class MailboxModel extends Model {
  static override tableName = 'mailboxes';
  id!: number;
  /** Null: not yet assigned to a platform (offered for every platform). */
  platform_id!: number | null;
  email!: string;
  /** `v1:<keyId>:…` from the credentials cipher; never the plaintext. */
  password_encrypted!: string;
  created_at!: Date;
}
