/**
 * What buyers and the circuit breaker say about accounts (issue 33): `account_problem_reports`
 * (a buyer's "it doesn't work") and `platform_incidents` (breaks the circuit breaker held). See
 * the problem-reports-and-incidents migration.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { TOKENS } from '../../shared/tokens.js';
import type { ProblemKind } from '../../validation/problem-reports.js';

export interface ReportRow {
  id: number;
  subscription_id: number;
  user_id: number;
  platform_account_id: number;
  kind: ProblemKind;
  note: string | null;
  created_at: Date;
  confirmed_at: Date | null;
  confirmed_by: number | null;
}

export interface IncidentRow {
  id: number;
  platform_id: number;
  opened_at: Date;
  last_held_at: Date;
  held: number;
  account_ids: number[];
}

// PostgreSQL's bigint columns come back as strings.
const nullableNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value));
const report = (row: ReportRow): ReportRow => ({
  ...row,
  id: Number(row.id),
  subscription_id: Number(row.subscription_id),
  user_id: Number(row.user_id),
  platform_account_id: Number(row.platform_account_id),
  confirmed_by: nullableNumber(row.confirmed_by),
});
const incident = (row: IncidentRow): IncidentRow => ({
  ...row,
  id: Number(row.id),
  platform_id: Number(row.platform_id),
  held: Number(row.held),
  account_ids: row.account_ids.map(Number),
});

@injectable()
export class AccountVoicesRepository {
  constructor(@inject(TOKENS.Knex) private readonly knex: Knex) {}

  async insertReport(row: Omit<ReportRow, 'id' | 'confirmed_at' | 'confirmed_by'>, trx: Knex.Transaction): Promise<ReportRow> {
    const [inserted] = await trx('account_problem_reports').insert(row).returning('*');
    return report(inserted as ReportRow);
  }

  /** The subscription's newest report since `after`. */
  async reportOfSubscriptionSince(subscriptionId: number, after: Date, trx: Knex.Transaction): Promise<ReportRow | undefined> {
    const row = await trx('account_problem_reports').where({ subscription_id: subscriptionId }).where('created_at', '>', after).orderBy('id', 'desc').first();
    return row ? report(row as ReportRow) : undefined;
  }

  /** How many different buyers reported the account since `after`. */
  async reportersSince(accountId: number, after: Date, trx: Knex.Transaction): Promise<number> {
    const row = await trx('account_problem_reports')
      .where({ platform_account_id: accountId })
      .where('created_at', '>', after)
      .countDistinct<{ n: string }[]>('user_id as n')
      .first();
    return Number(row?.n ?? 0);
  }

  async lockReport(id: number, trx: Knex.Transaction): Promise<ReportRow | undefined> {
    const row = await trx('account_problem_reports').where({ id }).forUpdate().first();
    return row ? report(row as ReportRow) : undefined;
  }

  async markConfirmed(id: number, by: number | null, at: Date, trx: Knex.Transaction): Promise<void> {
    await trx('account_problem_reports').where({ id }).whereNull('confirmed_at').update({ confirmed_at: at, confirmed_by: by });
  }

  /** The accounts' reports since `after`, newest first, at most `limit` per account. */
  async reportsOfAccounts(accountIds: number[], after: Date, limit: number): Promise<ReportRow[]> {
    if (accountIds.length === 0) return [];
    const rows = await this.knex.raw<{ rows: ReportRow[] }>(
      `select * from (
         select r.*, row_number() over (partition by platform_account_id order by id desc) as n
           from account_problem_reports r
          where platform_account_id = any(?) and created_at > ?) ranked
        where n <= ? order by platform_account_id, id desc`,
      [accountIds, after, limit],
    );
    return rows.rows.map(({ n: _n, ...row }: ReportRow & { n?: unknown }) => report(row as ReportRow));
  }

  /** Serialises the circuit breaker's decisions for one platform across every process, until the transaction ends. */
  async lockPlatformBreaks(lockClass: number, platformId: number, trx: Knex.Transaction): Promise<void> {
    await trx.raw('select pg_advisory_xact_lock(?, ?)', [lockClass, platformId]);
  }

  /** The platform's accounts that turned broken by themselves (not by staff) since `after`, other than `exceptId`. */
  async automaticBreaksSince(platformId: number, after: Date, exceptId: number, trx: Knex.Transaction): Promise<number> {
    const row = await trx('platform_accounts')
      .where({ platform_id: platformId, health: 'broken' })
      .where('health_since', '>', after)
      .whereNot({ id: exceptId })
      .whereRaw("coalesce(health_cause->>'kind', '') <> 'staff'")
      .count<{ n: string }[]>('* as n')
      .first();
    return Number(row?.n ?? 0);
  }

  /** The platform's incident still open (a break held since `after`), if any. */
  async openIncident(platformId: number, after: Date, trx?: Knex.Transaction): Promise<IncidentRow | undefined> {
    const row = await (trx ?? this.knex)('platform_incidents')
      .where({ platform_id: platformId })
      .where('last_held_at', '>', after)
      .orderBy('id', 'desc')
      .first();
    return row ? incident(row as IncidentRow) : undefined;
  }

  async openIncidents(after: Date): Promise<IncidentRow[]> {
    const rows = await this.knex('platform_incidents').where('last_held_at', '>', after).orderBy('id');
    return (rows as IncidentRow[]).map(incident);
  }

  async insertIncident(platformId: number, at: Date, accountId: number, trx: Knex.Transaction): Promise<IncidentRow> {
    const [row] = await trx('platform_incidents')
      .insert({ platform_id: platformId, opened_at: at, last_held_at: at, held: 1, account_ids: [accountId] })
      .returning('*');
    return incident(row as IncidentRow);
  }

  async addHeld(id: number, at: Date, accountId: number, trx: Knex.Transaction): Promise<void> {
    await trx.raw(
      `update platform_incidents set held = held + 1, last_held_at = greatest(last_held_at, ?),
              account_ids = case when ? = any(account_ids) then account_ids else account_ids || ?::bigint end
        where id = ?`,
      [at, accountId, accountId, id],
    );
  }

  /** The mail row's action: the circuit breaker held what it would have done. */
  async markMailHeld(alertMailId: number, trx: Knex.Transaction): Promise<void> {
    await trx('account_alert_mail').where({ id: alertMailId }).update({ action: 'held' });
  }
}
