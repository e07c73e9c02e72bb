import { Model, type RelationMappings } from 'objection';
import type { AlertMailAction, MailAuthentication } from '../../../validation/mail-trust.js';
import { MailboxModel } from './mailbox.model.js';

export class PlatformAccountModel extends Model {
  static override tableName = 'platform_accounts';
  static override jsonAttributes = ['health_cause'];
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
  /** Since when it has its health (null: ok from the start). */
  health_since!: Date | null;
  /** Why: the mail, report or staff decision that set it. */
  health_cause!: Record<string, unknown> | null;
  created_at!: Date;
  updated_at!: Date;
  /** The mailbox the platform's mails to this account arrive in (null: none of the shop's). */
  mailbox?: MailboxModel | null;
  /** The platform mails recorded for it, when they were fetched. */
  alertMails?: AlertMailModel[];

  static override relationMappings = (): RelationMappings => ({
    mailbox: { relation: Model.BelongsToOneRelation, modelClass: MailboxModel, join: { from: 'platform_accounts.mailbox_id', to: 'mailboxes.id' } },
    alertMails: {
      relation: Model.HasManyRelation,
      modelClass: AlertMailModel,
      join: { from: 'platform_accounts.id', to: 'account_alert_mail.platform_account_id' },
    },
  });
}

/**
 * A platform mail the watcher recorded for an account (`account_alert_mail`), once per mail (by
 * UID under its UIDVALIDITY, or Message-ID); never its body.
 */
export class AlertMailModel extends Model {
  static override tableName = 'account_alert_mail';
  id!: number;
  mailbox_id!: number;
  uid_validity!: string;
  uid!: number;
  message_id!: string | null;
  platform_account_id!: number;
  sender!: string;
  subject!: string;
  received_at!: Date;
  /** An alert kind, or 'unrecognised' (the platform's sender, no rule matched). */
  kind!: string;
  classified_at!: Date;
  /** Whether it passed DMARC for its From domain, or why not (validation/mail-trust.ts). */
  authentication!: MailAuthentication | null;
  /** What it did to the account (validation/mail-trust.ts). */
  action!: AlertMailAction | null;
  /** A household or verification link in it pointed outside the platform's hosts and was dropped. */
  link_dropped!: boolean;
  account?: PlatformAccountModel;
  mailbox?: MailboxModel;

  static override relationMappings = (): RelationMappings => ({
    account: {
      relation: Model.BelongsToOneRelation,
      modelClass: PlatformAccountModel,
      join: { from: 'account_alert_mail.platform_account_id', to: 'platform_accounts.id' },
    },
    mailbox: { relation: Model.BelongsToOneRelation, modelClass: MailboxModel, join: { from: 'account_alert_mail.mailbox_id', to: 'mailboxes.id' } },
  });
}

/** An account's columns, as a statement run without objection (`sqlRows`) answers them. */
export type PlatformAccountRow = Omit<PlatformAccountModel, keyof Model | 'mailbox' | 'alertMails'>;
