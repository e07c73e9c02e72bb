import { Model, type RelationMappings } from 'objection';
import type { PlatformMailKind } from '../platform-mail.js';

/**
 * What the board says of one mailbox (`mailbox_read_state`): its owner, what the published mail
 * covers, the last failure, and when any process last polled it. The mailbox is the accounts
 * module's row: kept by id.
 */
export class MailboxReadStateModel extends Model {
  static override tableName = 'mailbox_read_state';
  static override idColumn = 'mailbox_id';
  mailbox_id!: number;
  /** The process that reads the mailbox (null: nobody now). */
  owner!: string | null;
  /** The published mail is every platform e-mail received since then. */
  covered_since!: Date | null;
  read_at!: Date | null;
  /** A watch keeps it current. */
  live!: boolean;
  failure_code!: string | null;
  failure_at!: Date | null;
  wanted_at!: Date;
  /** The platform e-mails found in the mailbox, when they were fetched. */
  found?: FoundMailModel[];

  static override relationMappings = (): RelationMappings => ({
    found: {
      relation: Model.HasManyRelation,
      modelClass: FoundMailModel,
      join: { from: 'mailbox_read_state.mailbox_id', to: 'mailbox_found_mail.mailbox_id' },
    },
  });
}

/** A platform e-mail found in a mailbox (`mailbox_found_mail`); its link or code is a secret, stored encrypted. */
export class FoundMailModel extends Model {
  static override tableName = 'mailbox_found_mail';
  static override idColumn = ['mailbox_id', 'received_at', 'uid'];
  mailbox_id!: number;
  uid!: number;
  received_at!: Date;
  kind!: PlatformMailKind;
  /** `v1:<keyId>:…` from the credentials cipher. */
  value_encrypted!: string;
  /** The author (RFC 5322 From), lower case; null on rows found before senders were kept. */
  sender!: string | null;
  /** text[], not JSON. */
  recipients!: string[];
  sent_at!: Date | null;
  found_at!: Date;
  readState?: MailboxReadStateModel;

  static override relationMappings = (): RelationMappings => ({
    readState: {
      relation: Model.BelongsToOneRelation,
      modelClass: MailboxReadStateModel,
      join: { from: 'mailbox_found_mail.mailbox_id', to: 'mailbox_read_state.mailbox_id' },
    },
  });
}
