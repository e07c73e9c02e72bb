/**
 * Who people are and what they may do. This first slice holds what operators need from day
 * one: creating an admin and changing roles. Sign-up, sign-in and tokens build on it.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import * as yup from 'yup';
import { type AuditActor, AuditService } from '../audit/index.js';
import { ConflictError, NotFoundError, ValidationError, fail } from '../../shared/errors.js';
import { offsetOf, pagesOf, type PageCount } from '../../shared/paging.js';
import { TOKENS } from '../../shared/tokens.js';
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN } from './passwords.js';
import { ROLES, type Role, type UserModel } from './models/user.model.js';
import { SessionRepository } from './session.repository.js';
import { VerificationCodeRepository } from './verification-code.repository.js';
import { UserRepository } from './user.repository.js';
import type { SetRoleInput, UserPagesQuery, UsersByEmailQuery, UsersQuery } from '../../wire/staff.js';

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

/** A moderator or admin as the staff page lists them. */
export interface StaffMember {
  id: number;
  email: string;
  name: string | null;
  role: typeof ROLES.moderator | typeof ROLES.admin;
  /** When they got this role: the last role change, or their sign-up. */
  since: Date;
}

/** A role change: the role before and after; `changed: false` when the user had it already. */
export interface RoleChange {
  id: number;
  email: string;
  before: Role;
  role: Role;
  changed: boolean;
}

/**
 * Every role change takes this transaction-scoped advisory lock first, so changes are applied one
 * after another and the last-admin check sees every committed change before it: two admins
 * demoting each other at once leave one admin, never none. (Any fixed 64-bit key; the name says whose.)
 */
const ROLE_CHANGE_LOCK = 0x5375_6273_526f_6c65n; // "SubsRole"

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
    @inject(AuditService) private readonly audit: AuditService,
    @inject(VerificationCodeRepository) private readonly codes: VerificationCodeRepository,
  ) {}

  /** The prune job: sessions and one-time codes that expired before `before` can no longer matter. */
  async pruneExpired(before: Date): Promise<{ authSessions: number; verificationCodes: number }> {
    return { authSessions: await this.sessions.deleteExpiredBefore(before), verificationCodes: await this.codes.deleteExpiredBefore(before) };
  }

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
        const roleChange = existing.role === ROLES.admin ? {} : { role_changed_at: now };
        await this.users.update(
          existing.id,
          { role: ROLES.admin, ...roleChange, password_hash: passwordHash, password_changed_at: now, is_email_verified: true },
          trx,
        );
        await this.sessions.revokeAllOfUser(existing.id, now, trx);
        return { id: existing.id, email: existing.email, created: false };
      }
      const user = await this.users.insert({ email: valid.email, password_hash: passwordHash, role: ROLES.admin, is_email_verified: true, name: 'Admin' }, trx);
      return { id: user.id, email: user.email, created: true };
    });
  }

  async profile(userId: number): Promise<UserProfile> {
    const user = Number.isSafeInteger(userId) && userId > 0 ? await this.users.findById(userId) : undefined;
    if (!user) throw fail('user_not_found');
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

  /** Admins: every moderator and admin, admins first, then by e-mail. */
  async listStaff(): Promise<StaffMember[]> {
    const rows = await this.users.staff();
    return rows.map((user) => ({
      id: user.id,
      email: user.email,
      name: user.name,
      role: user.role === ROLES.admin ? ROLES.admin : ROLES.moderator,
      since: user.role_changed_at ?? user.created_at,
    }));
  }

  /**
   * Gives the user with this e-mail a role (the staff page's `setrole` and the CLI's `set-role`,
   * one rule for both). It takes effect on the user's next request: the guards read the role from
   * the database each time. Refuses (409 `last_admin`) to take the role of the last admin, under a
   * lock that orders concurrent changes. Audited as `user.role` with the role before and after;
   * giving a user the role they have changes and records nothing.
   */
  async setRole(actor: AuditActor, { email, role }: SetRoleInput): Promise<RoleChange> {
    return this.knex.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(?)', [ROLE_CHANGE_LOCK.toString()]);
      const user = await this.users.findByEmail(email, trx);
      if (!user) throw new NotFoundError(`No user has the e-mail ${email}.`, 'user_not_found');
      const before = user.role;
      if (before === role) return { id: user.id, email: user.email, before, role, changed: false };
      if (before === ROLES.admin && (await this.users.countWithRole(ROLES.admin, trx)) <= 1) {
        throw new ConflictError(`${user.email} is the last admin: make someone else admin first.`, 'last_admin');
      }
      await this.users.update(user.id, { role, role_changed_at: new Date() }, trx);
      await this.audit.record(actor, { action: 'user.role', targetType: 'user', targetId: user.id, details: { email: user.email, before, after: role } }, trx);
      return { id: user.id, email: user.email, before, role, changed: true };
    });
  }
}

function toSummary(user: UserModel): UserSummary {
  return { id: user.id, email: user.email, isEmailVerified: user.is_email_verified, name: user.name, role: user.role, createdAt: user.created_at };
}
