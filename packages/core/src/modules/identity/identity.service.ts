/**
 * Who people are and what they may do. This first slice holds what operators need from day
 * one: creating an admin and changing roles. Sign-up, sign-in and tokens build on it.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import * as yup from 'yup';
import { NotFoundError, ValidationError } from '../../shared/errors.js';
import { offsetOf, pagesOf, type PageCount } from '../../shared/paging.js';
import { TOKENS } from '../../shared/tokens.js';
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN } from './passwords.js';
import { ROLES, type Role, type UserModel } from './models/user.model.js';
import { SessionRepository } from './session.repository.js';
import { UserRepository } from './user.repository.js';
import type { UserPagesQuery, UsersByEmailQuery, UsersQuery } from '../../wire/staff.js';

const adminSchema = yup.object({
  email: yup.string().trim().lowercase().email('email must be a valid e-mail address').required('email is required'),
  password: yup
    .string()
    .min(PASSWORD_MIN, `password must be at least ${PASSWORD_MIN} characters`)
    .max(PASSWORD_MAX, `password must be at most ${PASSWORD_MAX} characters`)
    .required('password is required'),
});

/** A search matches at most this many users (the admin form searches by e-mail, a fragment is enough). */
export const USER_SEARCH_LIMIT = 100;

/** A user as the staff lists show one (no password, no sessions). */
export interface UserSummary {
  id: number;
  email: string;
  isEmailVerified: boolean;
  name: string | null;
  role: Role;
  createdAt: Date;
}

/** One page of users, newest first; `pages` and `count` are the spec's paged count response. */
export interface UsersPage {
  items: UserSummary[];
  count: number;
  pages: number;
  page: number;
  limit: number;
}

/** What others may show of a user: the panel's header. */
export interface UserProfile {
  id: number;
  name: string | null;
  email: string;
  photoUrl: string | null;
  languageId: 1 | 2;
}

export interface AdminResult {
  id: number;
  email: string;
  created: boolean;
}

@injectable()
export class IdentityService {
  constructor(
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(UserRepository) private readonly users: UserRepository,
    @inject(SessionRepository) private readonly sessions: SessionRepository,
  ) {}

  async hasAdmin(): Promise<boolean> {
    return (await this.users.countWithRole(ROLES.admin)) > 0;
  }

  /** Creates an admin, or makes an existing user admin with this password (verified e-mail). */
  async createAdmin(input: { email: string; password: string }): Promise<AdminResult> {
    let valid: yup.InferType<typeof adminSchema>;
    try {
      valid = adminSchema.validateSync(input, { abortEarly: false });
    } catch (error) {
      const inner = (error as yup.ValidationError).inner ?? [];
      throw new ValidationError('The admin details are invalid.', Object.fromEntries(inner.map((e) => [e.path ?? '_', e.message])));
    }
    const passwordHash = await hashPassword(valid.password);
    return this.knex.transaction(async (trx) => {
      const existing = await this.users.findByEmail(valid.email, trx);
      if (existing) {
        // A new password ends every login made with the old one.
        const now = new Date();
        await this.users.update(existing.id, { role: ROLES.admin, password_hash: passwordHash, password_changed_at: now, is_email_verified: true }, trx);
        await this.sessions.revokeAllOfUser(existing.id, now, trx);
        return { id: existing.id, email: existing.email, created: false };
      }
      const user = await this.users.insert({ email: valid.email, password_hash: passwordHash, role: ROLES.admin, is_email_verified: true, name: 'Admin' }, trx);
      return { id: user.id, email: user.email, created: true };
    });
  }

  async profile(userId: number): Promise<UserProfile> {
    const user = Number.isSafeInteger(userId) && userId > 0 ? await this.users.findById(userId) : undefined;
    if (!user) throw new NotFoundError('This user does not exist.', 'user_not_found');
    return { id: user.id, name: user.name, email: user.email, photoUrl: user.photo_url, languageId: user.language_id === 2 ? 2 : 1 };
  }

  /** Staff: every user, newest first, a page at a time (`{ page = 1, limit = 20 }`, limit 1 to 100). */
  async listUsers({ page, limit }: UsersQuery): Promise<UsersPage> {
    const [rows, count] = await Promise.all([this.users.page(offsetOf(page, limit), limit), this.users.count()]);
    return { items: rows.map(toSummary), count, pages: pagesOf(count, limit), page, limit };
  }

  /** Staff: `{ limit = 20 }` → how many users and how many pages of `limit`. */
  async countUsers({ limit }: UserPagesQuery): Promise<PageCount> {
    const count = await this.users.count();
    return { pages: pagesOf(count, limit), count };
  }

  /** Staff: `{ email }` → the users whose e-mail contains it (any case, matched literally), newest first, at most 100. */
  async searchUsersByEmail({ email }: UsersByEmailQuery): Promise<UserSummary[]> {
    return (await this.users.searchByEmail(email, USER_SEARCH_LIMIT)).map(toSummary);
  }

  async setRole(email: string, role: Role): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user) throw new ValidationError(`No user has the e-mail ${email}.`, { email: 'unknown e-mail' }, 'user_not_found');
    await this.users.update(user.id, { role });
  }
}

function toSummary(user: UserModel): UserSummary {
  return { id: user.id, email: user.email, isEmailVerified: user.is_email_verified, name: user.name, role: user.role, createdAt: user.created_at };
}
