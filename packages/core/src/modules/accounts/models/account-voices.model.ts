import { Model, type RelationMappings } from 'objection';
import type { ProblemKind } from '../../../validation/problem-reports.js';
import { PlatformAccountModel } from './platform-account.model.js';

/**
 * A buyer's "it doesn't work" about the account of their subscription (issue 33). The
 * subscription and the buyer are other modules' rows: kept by id, no relation.
 */
export class ProblemReportModel extends Model {
  static override tableName = 'account_problem_reports';
  id!: number;
  subscription_id!: number;
  user_id!: number;
  platform_account_id!: number;
  kind!: ProblemKind;
  /** At most 500 characters (a check in the migration). */
  note!: string | null;
  created_at!: Date;
  /** Staff confirmed it (the account broke). */
  confirmed_at!: Date | null;
  confirmed_by!: number | null;
  account?: PlatformAccountModel;

  static override relationMappings = (): RelationMappings => ({
    account: {
      relation: Model.BelongsToOneRelation,
      modelClass: PlatformAccountModel,
      join: { from: 'account_problem_reports.platform_account_id', to: 'platform_accounts.id' },
    },
  });
}

/**
 * A break of a platform's accounts the circuit breaker held (issue 33): open while breaks keep
 * being held. Its platform is the catalog's and its accounts a list of ids: no relations.
 */
export class PlatformIncidentModel extends Model {
  static override tableName = 'platform_incidents';
  id!: number;
  platform_id!: number;
  opened_at!: Date;
  last_held_at!: Date;
  /** How many breaks were held. */
  held!: number;
  /** The accounts whose break was held (bigint[], not JSON). */
  account_ids!: number[];
}

/** A report's columns. */
export type ReportRow = Omit<ProblemReportModel, keyof Model | 'account'>;
/** An incident's columns. */
export type IncidentRow = Omit<PlatformIncidentModel, keyof Model>;
