/**
 * Account health (issue 29): ok, attention or broken, since when and why. This service keeps the
 * state and the alert mail recorded for it; what turns an account broken (the platform's mail)
 * and what follows (buyers moved, staff told) is the account-health flow's.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { TOKENS } from '../../shared/tokens.js';
import type { AccountHealthState } from '../../validation/alert-rules.js';
import type { AlertMailAction, MailAuthentication } from '../../validation/mail-trust.js';
import { AccountHealthRepository, type HealthRow, type NewAlertMail } from './account-health.repository.js';

export interface AccountHealthView {
  id: number;
  platformId: number;
  email: string;
  slotsCount: number;
  isActive: boolean;
  mailboxId: number | null;
  state: AccountHealthState;
  since: Date | null;
  /** Why: the mail that caused it (kind, subject, sender, receivedAt) or staff's reason. Never a code or link. */
  cause: Record<string, unknown> | null;
}

/**
 * A recorded platform mail with its verdicts (issue 33), for staff: whether it was authenticated
 * (null: recorded before the shop checked), the rule kind that matched, the action taken. Never a
 * code, a link or the body: none is stored.
 */
export interface AlertMailView {
  id: number;
  accountId: number;
  sender: string;
  subject: string;
  receivedAt: Date;
  kind: string;
  action: AlertMailAction | null;
  authentication: MailAuthentication | null;
  /** A household or verification link in it pointed outside the platform's hosts and was not handed out. */
  linkDropped: boolean;
}

/** How many recent mails staff see per account. */
export const RECENT_MAILS_PER_ACCOUNT = 10;

export type AlertMailRecord = Omit<NewAlertMail, 'mailbox_id' | 'platform_account_id'> & { mailboxId: number; accountId: number };

@injectable()
export class AccountHealthService {
  constructor(
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(AccountHealthRepository) private readonly health: AccountHealthRepository,
  ) {}

  /** The accounts whose mail lands in this mailbox. */
  async ofMailbox(mailboxId: number, trx?: Knex.Transaction): Promise<AccountHealthView[]> {
    return (await this.health.ofMailbox(mailboxId, trx)).map(toView);
  }

  /** The account's health, its row locked to the transaction (every change of health goes through here). */
  async lock(accountId: number, trx: Knex.Transaction): Promise<AccountHealthView | undefined> {
    if (!Number.isSafeInteger(accountId) || accountId <= 0) return undefined;
    const row = await this.health.lock(accountId, trx);
    return row ? toView(row) : undefined;
  }

  async set(accountId: number, state: AccountHealthState, since: Date, cause: Record<string, unknown>, trx: Knex.Transaction): Promise<void> {
    await this.health.setHealth(accountId, state, since, cause, trx);
  }

  /**
   * Records an alert mail once: the id of the new record, or undefined when this mail (same UID
   * under the same UIDVALIDITY, or the same Message-ID) was recorded before, by any process.
   */
  async recordMail({ mailboxId, accountId, ...mail }: AlertMailRecord, trx: Knex.Transaction): Promise<number | undefined> {
    return this.health.recordMail({ ...mail, mailbox_id: mailboxId, platform_account_id: accountId }, trx);
  }

  /** Each account's newest recorded mails (staff), newest first. */
  async recentMails(accountIds: number[], trx?: Knex.Transaction): Promise<AlertMailView[]> {
    return (await this.health.recentMails(accountIds, RECENT_MAILS_PER_ACCOUNT, trx)).map((row) => ({
      id: row.id,
      accountId: row.platform_account_id,
      sender: row.sender,
      subject: row.subject,
      receivedAt: row.received_at,
      kind: row.kind,
      action: row.action,
      authentication: row.authentication,
      linkDropped: row.link_dropped,
    }));
  }

  /** Accounts by health, broken first (staff). */
  async list(platformId?: number, trx?: Knex.Transaction): Promise<AccountHealthView[]> {
    return (await this.health.list(platformId, trx)).map(toView);
  }

  /** Active accounts per state (dashboard, metrics). */
  counts(trx?: Knex.Transaction): Promise<Record<AccountHealthState, number>> {
    return this.health.counts(trx);
  }

  /** One platform's active accounts per state (whether it is still on sale). */
  platformCounts(platformId: number, trx: Knex.Transaction): Promise<Record<AccountHealthState, number>> {
    return this.health.counts(trx, platformId);
  }

  /** One active account per mailbox: the mailboxes the watcher keeps watched. */
  async watchedMailboxes(): Promise<Array<{ accountId: number; mailboxId: number }>> {
    return (await this.health.watchedMailboxes()).map((row) => ({ accountId: row.account_id, mailboxId: row.mailbox_id }));
  }

  /** Runs `work` in a transaction of this shop's database (the flow's unit of work). */
  transaction<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return this.knex.transaction(work);
  }
}

function toView(row: HealthRow): AccountHealthView {
  return {
    id: row.id,
    platformId: row.platform_id,
    email: row.login_email,
    slotsCount: row.slots_count,
    isActive: row.is_active,
    mailboxId: row.mailbox_id,
    state: row.health,
    since: row.health_since,
    cause: row.health_cause,
  };
}
