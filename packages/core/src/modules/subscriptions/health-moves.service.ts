/**
 * Moves off broken accounts (issue 29): which subscription left which account, whether it found
 * a slot yet, and the time its buyer lost. One row per subscription, so a move is recorded
 * once however many processes try it; the account-health flow does the moving.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { HealthMoveRepository, type HealthMoveRow } from './health-move.repository.js';

export interface HealthMoveView {
  id: number;
  accountId: number;
  subscriptionId: number;
  toSubscriptionId: number | null;
  lostFrom: Date;
  movedAt: Date | null;
  /** What staff gave back, once. */
  extendedMs: number | null;
  extendedAt: Date | null;
}

@injectable()
export class HealthMovesService {
  constructor(@inject(HealthMoveRepository) private readonly moves: HealthMoveRepository) {}

  async openOrGet(accountId: number, subscriptionId: number, lostFrom: Date, trx: Knex.Transaction): Promise<HealthMoveView> {
    return toView(await this.moves.openOrGet(accountId, subscriptionId, lostFrom, trx));
  }

  markMoved(id: number, toSubscriptionId: number, at: Date, trx: Knex.Transaction): Promise<void> {
    return this.moves.markMoved(id, toSubscriptionId, at, trx);
  }

  async ofAccounts(accountIds: number[], trx?: Knex.Transaction): Promise<HealthMoveView[]> {
    return (await this.moves.ofAccounts(accountIds, trx)).map(toView);
  }

  async ofSubscriptions(subscriptionIds: number[], trx?: Knex.Transaction): Promise<HealthMoveView[]> {
    return (await this.moves.ofSubscriptions(subscriptionIds, trx)).map(toView);
  }

  accountsWaiting(trx?: Knex.Transaction): Promise<number[]> {
    return this.moves.accountsWaiting(trx);
  }

  async movedNotExtended(accountId: number, trx: Knex.Transaction): Promise<HealthMoveView[]> {
    return (await this.moves.lockForExtension(accountId, trx)).map(toView);
  }

  dropWaiting(accountId: number, trx: Knex.Transaction): Promise<void> {
    return this.moves.dropWaiting(accountId, trx);
  }

  markExtended(id: number, ms: number, at: Date, trx: Knex.Transaction): Promise<void> {
    return this.moves.markExtended(id, ms, at, trx);
  }
}

function toView(row: HealthMoveRow): HealthMoveView {
  return {
    id: Number(row.id),
    accountId: Number(row.platform_account_id),
    subscriptionId: Number(row.subscription_id),
    toSubscriptionId: row.to_subscription_id === null ? null : Number(row.to_subscription_id),
    lostFrom: row.lost_from,
    movedAt: row.moved_at,
    extendedMs: row.extended_ms === null ? null : Number(row.extended_ms),
    extendedAt: row.extended_at,
  };
}
