/**
 * What buyers and the circuit breaker say about accounts (issue 33): `account_problem_reports`
 * (a buyer's "it doesn't work") and `platform_incidents` (breaks the circuit breaker held), through
 * `ProblemReportModel` and `PlatformIncidentModel`. See the problem-reports-and-incidents
 * migration. Raw SQL stays for the newest reports per account (a window), the advisory lock and
 * an incident's held count (an update that appends to an array unless it is there).
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { TOKENS } from '../../shared/tokens.js';
import { PlatformIncidentModel, ProblemReportModel, type IncidentRow, type ReportRow } from './models/account-voices.model.js';
import { AlertMailModel, PlatformAccountModel } from './models/platform-account.model.js';

// Numbers as numbers whatever the driver answers (bigint[] elements come back as strings).
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
    return report(await ProblemReportModel.query(trx).insert(row).returning('*'));
  }

  /** The subscription's newest report since `after`. */
  async reportOfSubscriptionSince(subscriptionId: number, after: Date, trx: Knex.Transaction): Promise<ReportRow | undefined> {
    const row = await ProblemReportModel.query(trx).where({ subscription_id: subscriptionId }).where('created_at', '>', after).orderBy('id', 'desc').first();
    return row ? report(row) : undefined;
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
    const row = await ProblemReportModel.query(trx).findById(id).forUpdate();
    return row ? report(row) : undefined;
  }

  async markConfirmed(id: number, by: number | null, at: Date, trx: Knex.Transaction): Promise<void> {
    await ProblemReportModel.query(trx).findById(id).whereNull('confirmed_at').patch({ confirmed_at: at, confirmed_by: by });
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
    return PlatformAccountModel.query(trx)
      .where({ platform_id: platformId, health: 'broken' })
      .where('health_since', '>', after)
      .whereNot({ id: exceptId })
      .whereRaw("coalesce(health_cause->>'kind', '') <> 'staff'")
      .resultSize();
  }

  /** The platform's incident still open (a break held since `after`), if any. */
  async openIncident(platformId: number, after: Date, trx?: Knex.Transaction): Promise<IncidentRow | undefined> {
    const row = await PlatformIncidentModel.query(trx ?? this.knex)
      .where({ platform_id: platformId })
      .where('last_held_at', '>', after)
      .orderBy('id', 'desc')
      .first();
    return row ? incident(row) : undefined;
  }

  async openIncidents(after: Date): Promise<IncidentRow[]> {
    return (await PlatformIncidentModel.query(this.knex).where('last_held_at', '>', after).orderBy('id')).map(incident);
  }

  async insertIncident(platformId: number, at: Date, accountId: number, trx: Knex.Transaction): Promise<IncidentRow> {
    const row = await PlatformIncidentModel.query(trx)
      .insert({ platform_id: platformId, opened_at: at, last_held_at: at, held: 1, account_ids: [accountId] })
      .returning('*');
    return incident(row);
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
    await AlertMailModel.query(trx).findById(alertMailId).patch({ action: 'held' });
  }
}
