/**
 * The health columns of `platform_accounts` and the alert mail recorded for them
 * (`account_alert_mail`, once per mail: see the account-health migration), through
 * `PlatformAccountModel` and `AlertMailModel`. Raw SQL stays for what the builder cannot say
 * well: an insert that answers whether it went in (`on conflict do nothing returning`), the
 * newest mails per account (a window), and one account per mailbox (`distinct on`, joined on the
 * link or the login e-mail).
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { TOKENS } from '../../shared/tokens.js';
import { MailboxModel } from './models/mailbox.model.js';
import { PlatformAccountModel } from './models/platform-account.model.js';
import type { AccountHealthState } from '../../validation/alert-rules.js';
import type { AlertMailAction, MailAuthentication } from '../../validation/mail-trust.js';

export interface HealthRow {
  id: number;
  platform_id: number;
  login_email: string;
  slots_count: number;
  is_active: boolean;
  mailbox_id: number | null;
  health: AccountHealthState;
  health_since: Date | null;
  health_cause: Record<string, unknown> | null;
}

export interface NewAlertMail {
  mailbox_id: number;
  uid_validity: string;
  uid: number;
  message_id: string | null;
  platform_account_id: number;
  sender: string;
  subject: string;
  received_at: Date;
  kind: string;
  /** Whether it passed DMARC for its From domain, or why not (validation/mail-trust.ts). */
  authentication: MailAuthentication;
  /** What it did to the account (validation/mail-trust.ts). */
  action: AlertMailAction;
  /** A household or verification link in it pointed outside the platform's hosts and was dropped. */
  link_dropped: boolean;
}

/** A recorded platform mail as staff read it: who sent it, its subject, and what the shop made of it. */
export interface AlertMailRow {
  id: number;
  platform_account_id: number;
  sender: string;
  subject: string;
  received_at: Date;
  kind: string;
  action: AlertMailAction | null;
  authentication: MailAuthentication | null;
  link_dropped: boolean;
}

const HEALTH_COLUMNS = ['id', 'platform_id', 'login_email', 'slots_count', 'is_active', 'mailbox_id', 'health', 'health_since', 'health_cause'];

@injectable()
export class AccountHealthRepository {
  constructor(@inject(TOKENS.Knex) private readonly knex: Knex) {}

  /** The accounts whose mail lands in this mailbox: linked to it, or whose login e-mail is its address. */
  async ofMailbox(mailboxId: number, trx?: Knex.Transaction): Promise<HealthRow[]> {
    return PlatformAccountModel.query(trx ?? this.knex)
      .select(HEALTH_COLUMNS)
      .where('mailbox_id', mailboxId)
      .orWhere((query) => query.whereNull('mailbox_id').where('login_email', MailboxModel.query().select('email').where('id', mailboxId)))
      .orderBy('id');
  }

  async lock(id: number, trx: Knex.Transaction): Promise<HealthRow | undefined> {
    return PlatformAccountModel.query(trx).findById(id).select(HEALTH_COLUMNS).forUpdate();
  }

  async setHealth(id: number, health: AccountHealthState, since: Date, cause: Record<string, unknown>, trx: Knex.Transaction): Promise<void> {
    await PlatformAccountModel.query(trx).findById(id).patch({ health, health_since: since, health_cause: cause, updated_at: since });
  }

  /** Inserts the mail unless it is recorded already (same UID under the same UIDVALIDITY, or the same Message-ID); the new row's id. */
  async recordMail(mail: NewAlertMail, trx: Knex.Transaction): Promise<number | undefined> {
    const rows = await trx.raw<{ rows: Array<{ id: string }> }>(
      `insert into account_alert_mail (mailbox_id, uid_validity, uid, message_id, platform_account_id, sender, subject, received_at, kind, authentication, action, link_dropped)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing returning id`,
      [
        mail.mailbox_id,
        mail.uid_validity,
        mail.uid,
        mail.message_id,
        mail.platform_account_id,
        mail.sender,
        mail.subject,
        mail.received_at,
        mail.kind,
        mail.authentication,
        mail.action,
        mail.link_dropped,
      ],
    );
    return rows.rows[0] ? Number(rows.rows[0].id) : undefined;
  }

  /** The newest recorded mails of each account, at most `perAccount` each: never a body (none is stored). */
  async recentMails(accountIds: number[], perAccount: number, trx?: Knex.Transaction): Promise<AlertMailRow[]> {
    if (accountIds.length === 0) return [];
    const rows = await (trx ?? this.knex).raw<{ rows: AlertMailRow[] }>(
      `select id, platform_account_id, sender, subject, received_at, kind, action, authentication, link_dropped from (
         select m.*, row_number() over (partition by platform_account_id order by received_at desc, id desc) as n
           from account_alert_mail m where platform_account_id = any(?::bigint[])
       ) newest where n <= ? order by platform_account_id, received_at desc, id desc`,
      [accountIds, perAccount],
    );
    return rows.rows.map((row) => ({ ...row, id: Number(row.id), platform_account_id: Number(row.platform_account_id) }));
  }

  /** Accounts by health (broken first, then attention, then ok), optionally of one platform. */
  async list(platformId: number | undefined, trx?: Knex.Transaction): Promise<HealthRow[]> {
    const query = PlatformAccountModel.query(trx ?? this.knex)
      .select(HEALTH_COLUMNS)
      .orderByRaw("case health when 'broken' then 0 when 'attention' then 1 else 2 end, health_since desc nulls last, id");
    if (platformId !== undefined) query.where({ platform_id: platformId });
    return query;
  }

  async counts(trx?: Knex.Transaction, platformId?: number): Promise<Record<AccountHealthState, number>> {
    const rows = await (trx ?? this.knex)('platform_accounts')
      .where({ is_active: true, ...(platformId === undefined ? {} : { platform_id: platformId }) })
      .groupBy('health')
      .select('health')
      .count<Array<{ health: AccountHealthState; count: string }>>('* as count');
    const counts: Record<AccountHealthState, number> = { ok: 0, attention: 0, broken: 0 };
    for (const row of rows) counts[row.health] = Number(row.count);
    return counts;
  }

  /** Active accounts with a mailbox (linked, or one whose address is the login e-mail), one per mailbox. */
  async watchedMailboxes(trx?: Knex.Transaction): Promise<Array<{ account_id: number; mailbox_id: number }>> {
    const rows = await (trx ?? this.knex).raw<{ rows: Array<{ account_id: string; mailbox_id: string }> }>(
      `select distinct on (m.id) a.id as account_id, m.id as mailbox_id
         from platform_accounts a
         join mailboxes m on m.id = a.mailbox_id or (a.mailbox_id is null and m.email = a.login_email)
        where a.is_active
        order by m.id, a.id`,
    );
    return rows.rows.map((row) => ({ account_id: Number(row.account_id), mailbox_id: Number(row.mailbox_id) }));
  }
}
