import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { TOKENS } from '../../shared/tokens.js';
import { translateDatabaseError } from '../../shared/errors.js';
import { UserModel, type Role } from './models/user.model.js';

@injectable()
export class UserRepository {
  constructor(@inject(TOKENS.Knex) private readonly knex: Knex) {}

  async findByEmail(email: string, trx?: Knex.Transaction): Promise<UserModel | undefined> {
    return UserModel.query(trx ?? this.knex).findOne({ email: email.toLowerCase() });
  }

  async findById(id: number, trx?: Knex.Transaction): Promise<UserModel | undefined> {
    return UserModel.query(trx ?? this.knex).findById(id);
  }

  /** The user behind a live session (not revoked, not expired), in one query. */
  async findBySession(sessionId: string, userId: number, now: Date): Promise<UserModel | undefined> {
    return UserModel.query(this.knex)
      .select('users.*')
      .join('auth_sessions', 'auth_sessions.user_id', 'users.id')
      .where('auth_sessions.id', sessionId)
      .where('users.id', userId)
      .whereNull('auth_sessions.revoked_at')
      .where('auth_sessions.expires_at', '>', now)
      .first();
  }

  async countWithRole(role: Role, trx?: Knex.Transaction): Promise<number> {
    const row = await (trx ?? this.knex)('users').where({ role }).count<{ count: number }>('id as count').first();
    return Number(row?.count ?? 0);
  }

  async insert(user: Partial<UserModel>, trx?: Knex.Transaction): Promise<UserModel> {
    try {
      return await UserModel.query(trx ?? this.knex).insertAndFetch(user);
    } catch (error) {
      return translateDatabaseError(error, 'user');
    }
  }

  async update(id: number, patch: Partial<UserModel>, trx?: Knex.Transaction): Promise<UserModel> {
    return UserModel.query(trx ?? this.knex).patchAndFetchById(id, { ...patch, updated_at: new Date() });
  }
}
