import { Model } from 'objection';

export type OutboxStatus = 'pending' | 'sent' | 'failed' | 'kept';

/** One row of `email_outbox`: an e-mail rendered at the moment its cause happened. */
export class OutboxEmailModel extends Model {
  static override tableName = 'email_outbox';
  id!: number;
  kind!: number;
  user_id!: number | null;
  to_address!: string;
  language_id!: number;
  subject!: string;
  html!: string;
  text!: string;
  /** A code e-mail's one-time code, until it is delivered (the bodies show it masked); never shown to staff. */
  code!: string | null;
  status!: OutboxStatus;
  attempts!: number;
  last_error!: string | null;
  idempotency_key!: string | null;
  message_id!: string | null;
  created_at!: Date;
  sent_at!: Date | null;
  last_attempt_at!: Date | null;
}
