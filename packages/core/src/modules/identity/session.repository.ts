import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { TOKENS } from '../../shared/tokens.js';
import { AuthSessionModel } from './models/session.model.js';

@injectable()
export class SessionRepository {
  constructor(@inject(TOKENS.Knex) private readonly knex: Knex) {}

  async create(session: { id: string; userId: number; rememberMe: boolean; createdAt: Date; expiresAt: Date }, trx?: Knex.Transaction): Promise<void> {
    await AuthSessionModel.query(trx ?? this.knex).insert({
      id: session.id,
      user_id: session.userId,
      remember_me: session.rememberMe,
      created_at: session.createdAt,
      expires_at: session.expiresAt,
    });
  }

  async find(id: string): Promise<AuthSessionModel | undefined> {
    return AuthSessionModel.query(this.knex).findById(id);
  }

  async revoke(id: string, at: Date): Promise<void> {
    await AuthSessionModel.query(this.knex).patch({ revoked_at: at }).where({ id }).whereNull('revoked_at');
  }

  async revokeAllOfUser(userId: number, at: Date, trx?: Knex.Transaction): Promise<number> {
    return AuthSessionModel.query(trx ?? this.knex)
      .patch({ revoked_at: at })
      .where({ user_id: userId })
      .whereNull('revoked_at');
  }

  /** Sessions that expired before `before` (the prune job): answers how many went. */
  async deleteExpiredBefore(before: Date): Promise<number> {
    return AuthSessionModel.query(this.knex).where('expires_at', '<', before).delete();
  }
}
