/**
 * The voices that can take an account off sale besides the platform's mail (issue 33): buyers'
 * problem reports, and the circuit breaker's incidents that hold further breaks of a platform for
 * staff. This service keeps the records; what a report or an incident does is the flows'
 * (account-reports.flow.ts, circuit-breaker.ts).
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { ProblemKind } from '../../validation/problem-reports.js';
import { AccountVoicesRepository } from './account-voices.repository.js';
import type { IncidentRow, ReportRow } from './models/account-voices.model.js';

export interface ProblemReportView {
  id: number;
  subscriptionId: number;
  userId: number;
  accountId: number;
  kind: ProblemKind;
  note: string | null;
  reportedAt: Date;
  confirmedAt: Date | null;
  confirmedBy: number | null;
}

export interface PlatformIncidentView {
  id: number;
  platformId: number;
  openedAt: Date;
  lastHeldAt: Date;
  /** Breaks held so far. */
  held: number;
  /** The accounts whose break was held. */
  accountIds: number[];
}

/** The advisory lock class of the circuit breaker (the key is the platform id). */
const BREAKER_LOCK_CLASS = 0x4342;

@injectable()
export class AccountVoicesService {
  constructor(@inject(AccountVoicesRepository) private readonly voices: AccountVoicesRepository) {}

  async addReport(
    input: { subscriptionId: number; userId: number; accountId: number; kind: ProblemKind; note: string | null; at: Date },
    trx: Knex.Transaction,
  ): Promise<ProblemReportView> {
    return reportView(
      await this.voices.insertReport(
        {
          subscription_id: input.subscriptionId,
          user_id: input.userId,
          platform_account_id: input.accountId,
          kind: input.kind,
          note: input.note,
          created_at: input.at,
        },
        trx,
      ),
    );
  }

  async reportOfSubscriptionSince(subscriptionId: number, after: Date, trx: Knex.Transaction): Promise<ProblemReportView | undefined> {
    const row = await this.voices.reportOfSubscriptionSince(subscriptionId, after, trx);
    return row ? reportView(row) : undefined;
  }

  reportersSince(accountId: number, after: Date, trx: Knex.Transaction): Promise<number> {
    return this.voices.reportersSince(accountId, after, trx);
  }

  async lockReport(id: number, trx: Knex.Transaction): Promise<ProblemReportView | undefined> {
    if (!Number.isSafeInteger(id) || id <= 0) return undefined;
    const row = await this.voices.lockReport(id, trx);
    return row ? reportView(row) : undefined;
  }

  markConfirmed(id: number, by: number | null, at: Date, trx: Knex.Transaction): Promise<void> {
    return this.voices.markConfirmed(id, by, at, trx);
  }

  async reportsOfAccounts(accountIds: number[], after: Date, limit: number): Promise<ProblemReportView[]> {
    return (await this.voices.reportsOfAccounts(accountIds, after, limit)).map(reportView);
  }

  /** Takes the platform's breaker lock for the rest of the transaction: one decision at a time per platform, cluster-wide. */
  lockPlatformBreaks(platformId: number, trx: Knex.Transaction): Promise<void> {
    return this.voices.lockPlatformBreaks(BREAKER_LOCK_CLASS, platformId, trx);
  }

  automaticBreaksSince(platformId: number, after: Date, exceptAccountId: number, trx: Knex.Transaction): Promise<number> {
    return this.voices.automaticBreaksSince(platformId, after, exceptAccountId, trx);
  }

  async openIncident(platformId: number, after: Date, trx?: Knex.Transaction): Promise<PlatformIncidentView | undefined> {
    const row = await this.voices.openIncident(platformId, after, trx);
    return row ? incidentView(row) : undefined;
  }

  async openIncidents(after: Date): Promise<PlatformIncidentView[]> {
    return (await this.voices.openIncidents(after)).map(incidentView);
  }

  async openNewIncident(platformId: number, at: Date, accountId: number, trx: Knex.Transaction): Promise<PlatformIncidentView> {
    return incidentView(await this.voices.insertIncident(platformId, at, accountId, trx));
  }

  addHeld(incidentId: number, at: Date, accountId: number, trx: Knex.Transaction): Promise<void> {
    return this.voices.addHeld(incidentId, at, accountId, trx);
  }

  markMailHeld(alertMailId: number, trx: Knex.Transaction): Promise<void> {
    return this.voices.markMailHeld(alertMailId, trx);
  }
}

function reportView(row: ReportRow): ProblemReportView {
  return {
    id: row.id,
    subscriptionId: row.subscription_id,
    userId: row.user_id,
    accountId: row.platform_account_id,
    kind: row.kind,
    note: row.note,
    reportedAt: row.created_at,
    confirmedAt: row.confirmed_at,
    confirmedBy: row.confirmed_by,
  };
}

function incidentView(row: IncidentRow): PlatformIncidentView {
  return {
    id: row.id,
    platformId: row.platform_id,
    openedAt: row.opened_at,
    lastHeldAt: row.last_held_at,
    held: row.held,
    accountIds: row.account_ids,
  };
}
