/**
 * `account_health_moves`: each subscription taken off a broken account, once (unique per
 * subscription): waiting for a slot, or moved (to which subscription, when); and the staff
 * extension of the time it lost, once.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { TOKENS } from '../../shared/tokens.js';

export interface HealthMoveRow {
  id: number;
  platform_account_id: number;
  subscription_id: number;
  to_subscription_id: number | null;
  lost_from: Date;
  moved_at: Date | null;
  extended_ms: number | null;
  extended_at: Date | null;
}

@injectable()
export class HealthMoveRepository {
  constructor(@inject(TOKENS.Knex) private readonly knex: Knex) {}

  /** The subscription's move, created waiting when it has none; locked to the transaction. */
  async openOrGet(accountId: number, subscriptionId: number, lostFrom: Date, trx: Knex.Transaction): Promise<HealthMoveRow> {
    await trx.raw(
      `insert into account_health_moves (platform_account_id, subscription_id, lost_from) values (?, ?, ?)
       on conflict (subscription_id) do nothing`,
      [accountId, subscriptionId, lostFrom],
    );
    return trx('account_health_moves').where({ subscription_id: subscriptionId }).forUpdate().first();
  }

  async markMoved(id: number, toSubscriptionId: number, at: Date, trx: Knex.Transaction): Promise<void> {
    await trx('account_health_moves').where({ id }).update({ to_subscription_id: toSubscriptionId, moved_at: at });
  }

  async ofAccounts(accountIds: number[], trx?: Knex.Transaction): Promise<HealthMoveRow[]> {
    if (accountIds.length === 0) return [];
    return (trx ?? this.knex)('account_health_moves').whereIn('platform_account_id', accountIds).orderBy('id');
  }

  /** The moves that concern these subscriptions, as the moved one or as where it went. */
  async ofSubscriptions(subscriptionIds: number[], trx?: Knex.Transaction): Promise<HealthMoveRow[]> {
    if (subscriptionIds.length === 0) return [];
    return (trx ?? this.knex)('account_health_moves')
      .whereIn('subscription_id', subscriptionIds)
      .orWhereIn('to_subscription_id', subscriptionIds)
      .orderBy('id');
  }

  /** Broken accounts' subscriptions still waiting for a slot: their account ids. */
  async accountsWaiting(trx?: Knex.Transaction): Promise<number[]> {
    const rows = await (trx ?? this.knex)('account_health_moves').whereNull('moved_at').distinct('platform_account_id');
    return rows.map((row: { platform_account_id: number }) => Number(row.platform_account_id));
  }

  async lockForExtension(accountId: number, trx: Knex.Transaction): Promise<HealthMoveRow[]> {
    return trx('account_health_moves').where({ platform_account_id: accountId }).whereNotNull('moved_at').whereNull('extended_at').orderBy('id').forUpdate();
  }

  /** The account is repaired: its buyers still waiting stay on it. */
  async dropWaiting(accountId: number, trx: Knex.Transaction): Promise<void> {
    await trx('account_health_moves').where({ platform_account_id: accountId }).whereNull('moved_at').delete();
  }

  async markExtended(id: number, ms: number, at: Date, trx: Knex.Transaction): Promise<void> {
    await trx('account_health_moves').where({ id }).update({ extended_ms: ms, extended_at: at });
  }
}
