import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { TOKENS } from '../../shared/tokens.js';
import { VerificationCodeModel, type CodePurpose } from './models/session.model.js';

/** Every read is of one purpose: a sign-up code and a password-reset code never stand in for each other. */
@injectable()
export class VerificationCodeRepository {
  constructor(@inject(TOKENS.Knex) private readonly knex: Knex) {}

  /** Locks the user's newest unconsumed code so two checks cannot both spend it. */
  async latestUnconsumedForUpdate(userId: number, purpose: CodePurpose, trx: Knex.Transaction): Promise<VerificationCodeModel | undefined> {
    return VerificationCodeModel.query(trx).where({ user_id: userId, purpose }).whereNull('consumed_at').orderBy('id', 'desc').forUpdate().first();
  }

  async countSince(email: string, purpose: CodePurpose, since: Date, trx?: Knex.Transaction): Promise<number> {
    const row = await (trx ?? this.knex)('verification_codes')
      .where({ email, purpose })
      .where('created_at', '>=', since)
      .count<{ count: number }>('id as count')
      .first();
    return Number(row?.count ?? 0);
  }

  async newestCreatedAt(email: string, purpose: CodePurpose, trx?: Knex.Transaction): Promise<Date | undefined> {
    const row = await (trx ?? this.knex)('verification_codes').where({ email, purpose }).max<{ at: Date | null }>('created_at as at').first();
    return row?.at ? new Date(row.at) : undefined;
  }

  async insert(
    code: { user_id: number; email: string; purpose: CodePurpose; code_hash: string; failed_attempts: number; created_at: Date; expires_at: Date },
    trx: Knex.Transaction,
  ): Promise<void> {
    await trx('verification_codes').insert(code);
  }

  async recordFailure(id: number, trx: Knex.Transaction): Promise<number> {
    const [row] = await trx('verification_codes').where({ id }).increment('failed_attempts', 1).returning('failed_attempts');
    return row.failed_attempts as number;
  }

  /** Spends the code; any older code of the same user and purpose dies with it. */
  async consume(id: number, at: Date, trx: Knex.Transaction): Promise<void> {
    const [{ user_id, purpose }] = await trx('verification_codes').where({ id }).update({ consumed_at: at }).returning(['user_id', 'purpose']);
    await trx('verification_codes').where({ user_id, purpose }).whereNull('consumed_at').update({ consumed_at: at });
  }

  /** Every open code of the user, whatever its purpose (a password reset ends them all, as it ends sessions). */
  async consumeAllOfUser(userId: number, at: Date, trx: Knex.Transaction): Promise<void> {
    await trx('verification_codes').where({ user_id: userId }).whereNull('consumed_at').update({ consumed_at: at });
  }

  /** Codes that expired before `before` (the prune job): answers how many went. */
  async deleteExpiredBefore(before: Date): Promise<number> {
    return VerificationCodeModel.query(this.knex).where('expires_at', '<', before).delete();
  }
}
