import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { translateDatabaseError, fail } from '../../shared/errors.js';
import { sqlRows } from '../../shared/database.js';
import { TOKENS } from '../../shared/tokens.js';
import type { StoredSecret } from './mailbox.repository.js';
import { PlatformAccountModel, type PlatformAccountRow } from './models/platform-account.model.js';

const UNIQUE_LOGIN = 'platform_accounts_platform_login_unique';

export type NewPlatformAccount = Pick<
  PlatformAccountModel,
  'platform_id' | 'login_email' | 'password_encrypted' | 'slots_count' | 'forwarding_email' | 'mailbox_id'
> & {
  created_at: Date;
  updated_at: Date;
  is_demo?: boolean;
};

@injectable()
export class PlatformAccountRepository {
  constructor(@inject(TOKENS.Knex) private readonly knex: Knex) {}

  /** Platforms (enabled or not) that have no account at all, active or not: what demo mode seeds. */
  async platformsWithoutAccounts(trx: Knex.Transaction): Promise<Array<{ id: number; slots_count: number }>> {
    return sqlRows(
      trx,
      'select p.id, p.slots_count from platforms p where not exists (select 1 from platform_accounts a where a.platform_id = p.id) order by p.id',
      [],
    );
  }

  async insert(account: NewPlatformAccount, trx: Knex.Transaction): Promise<PlatformAccountModel> {
    try {
      return await PlatformAccountModel.query(trx).insertAndFetch(account);
    } catch (error) {
      if ((error as { constraint?: string }).constraint === UNIQUE_LOGIN) {
        throw fail('account_exists', undefined, { cause: error });
      }
      return translateDatabaseError(error, 'platform account');
    }
  }

  async findById(id: number, trx?: Knex.Transaction): Promise<PlatformAccountModel | undefined> {
    return PlatformAccountModel.query(trx ?? this.knex).findById(id);
  }

  /** The account with its mailbox (undefined when there is no such account). */
  async findWithMailbox(id: number): Promise<PlatformAccountModel | undefined> {
    return PlatformAccountModel.query(this.knex).findById(id).withGraphFetched('mailbox');
  }

  /** Read on every panel view (the accounts of the buyer's slots), so through the lean path. */
  async findByIds(ids: number[], trx?: Knex.Transaction): Promise<PlatformAccountRow[]> {
    return sqlRows<PlatformAccountRow>(trx ?? this.knex, 'select * from platform_accounts where id = any($1) order by id', [ids]);
  }

  /** Ids and slot counts of the accounts that take new subscriptions (active, not broken). Read on every claim, so no model per row (a platform may have hundreds of accounts). */
  async activeSlotCountsOfPlatform(platformId: number, trx?: Knex.Transaction): Promise<Array<{ id: number; slots_count: number }>> {
    return sqlRows(trx ?? this.knex, "select id, slots_count from platform_accounts where platform_id = $1 and is_active and health <> 'broken' order by id", [
      platformId,
    ]);
  }

  /** How many active accounts each platform has (platforms without one are left out). */
  async activeCountsByPlatform(platformId?: number): Promise<Map<number, number>> {
    const rows = await sqlRows<{ platform_id: number; count: number }>(
      this.knex,
      'select platform_id, count(*)::int as count from platform_accounts where is_active and ($1::bigint is null or platform_id = $1) group by platform_id',
      [platformId ?? null],
    );
    return new Map(rows.map((row) => [Number(row.platform_id), row.count]));
  }

  async allActive(trx?: Knex.Transaction): Promise<PlatformAccountModel[]> {
    return PlatformAccountModel.query(trx ?? this.knex)
      .where({ is_active: true })
      .orderBy([{ column: 'platform_id' }, { column: 'id' }]);
  }

  /** Every stored password, the rows locked until the transaction ends (key rotation). */
  async lockAllSecrets(trx: Knex.Transaction): Promise<StoredSecret[]> {
    await trx.raw('lock table platform_accounts in exclusive mode');
    return PlatformAccountModel.query(trx).select('id', 'password_encrypted').orderBy('id');
  }

  async replaceSecret(id: number, passwordEncrypted: string, trx: Knex.Transaction): Promise<void> {
    await PlatformAccountModel.query(trx).findById(id).patch({ password_encrypted: passwordEncrypted });
  }
}
