import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { sqlRows } from '../../shared/database.js';
import { TOKENS } from '../../shared/tokens.js';
import { isUniqueViolation, translateDatabaseError, fail } from '../../shared/errors.js';
import { UserModel, type Role } from './models/user.model.js';

/** What a live session's check reads of its user. */
export type SessionUserRow = Pick<UserModel, 'id' | 'email' | 'name' | 'photo_url' | 'role' | 'is_email_verified' | 'language_id'>;

@injectable()
export class UserRepository {
  constructor(@inject(TOKENS.Knex) private readonly knex: Knex) {}

  async findByEmail(email: string, trx?: Knex.Transaction): Promise<UserModel | undefined> {
    return UserModel.query(trx ?? this.knex).findOne({ email: email.toLowerCase() });
  }

  async findById(id: number, trx?: Knex.Transaction): Promise<UserModel | undefined> {
    return UserModel.query(trx ?? this.knex).findById(id);
  }

  /**
   * The user behind a live session (not revoked, not expired), in one statement. Run on every
   * logged-in call, so it takes the lean path (`sqlRows`) and reads only what a session carries.
   */
  async findBySession(sessionId: string, userId: number, now: Date): Promise<SessionUserRow | undefined> {
    const [row] = await sqlRows<SessionUserRow>(
      this.knex,
      `select users.id, users.email, users.name, users.photo_url, users.role, users.is_email_verified, users.language_id
         from users join auth_sessions on auth_sessions.user_id = users.id
        where auth_sessions.id = $1 and users.id = $2 and auth_sessions.revoked_at is null and auth_sessions.expires_at > $3`,
      [sessionId, userId, now],
    );
    return row;
  }

  async countWithRole(role: Role, trx?: Knex.Transaction): Promise<number> {
    const row = await (trx ?? this.knex)('users').where({ role }).count<{ count: number }>('id as count').first();
    return Number(row?.count ?? 0);
  }

  /** Moderators and admins, admins first, then by e-mail. */
  async staff(): Promise<UserModel[]> {
    return UserModel.query(this.knex)
      .where('role', '>', 0)
      .orderBy([
        { column: 'role', order: 'desc' },
        { column: 'email', order: 'asc' },
      ]);
  }

  /** One page of users, newest first (the id breaks ties). */
  async page(offset: number, limit: number): Promise<UserModel[]> {
    return UserModel.query(this.knex)
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .offset(offset)
      .limit(limit);
  }

  async count(): Promise<number> {
    const row = await this.knex('users').count<{ count: number }>('id as count').first();
    return Number(row?.count ?? 0);
  }

  /**
   * Users whose e-mail contains `text`, whatever its case, newest first, at most `limit`. The
   * text is matched literally: LIKE's wildcards (`%`, `_`) and its escape character are escaped.
   */
  async searchByEmail(text: string, limit: number): Promise<UserModel[]> {
    const literal = text.replace(/[\\%_]/g, (char) => `\\${char}`);
    return UserModel.query(this.knex)
      .whereRaw(`email ilike ? escape '\\'`, [`%${literal}%`])
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(limit);
  }

  async insert(user: Partial<UserModel>, trx?: Knex.Transaction): Promise<UserModel> {
    try {
      return await UserModel.query(trx ?? this.knex).insertAndFetch(user);
    } catch (error) {
      // Two sign-ups racing past the service's look-up meet here, at the unique index: same answer as the look-up's.
      if (isUniqueViolation(error, 'users_email_unique')) throw fail('email_taken', undefined, { cause: error });
      return translateDatabaseError(error, 'user');
    }
  }

  async update(id: number, patch: Partial<UserModel>, trx?: Knex.Transaction): Promise<UserModel> {
    return UserModel.query(trx ?? this.knex).patchAndFetchById(id, { ...patch, updated_at: new Date() });
  }
}
