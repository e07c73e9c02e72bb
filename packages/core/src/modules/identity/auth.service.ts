/**
 * Sign-up, log-in, log-out and the check behind every authenticated request.
 */
import { randomUUID } from 'node:crypto';
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { AppConfig } from '../../shared/config.js';
import type { Clock } from '../../shared/clock.js';
import { UnauthenticatedError, fail } from '../../shared/errors.js';
import { RateLimiter } from '../../shared/rate-limiter.js';
import { TOKENS } from '../../shared/tokens.js';
import type { AuthenticateInput, ChangePasswordInput, CheckEmailInput, RegisterInput } from '../../wire/account.js';
import type { AuthenticatedUser, LoginResult, RequestContext } from './auth.types.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { accountAndSource, LIMITS } from './rate-limits.js';
import { SessionRepository } from './session.repository.js';
import { REMEMBER_ME_LIFETIME_MS, signToken, TOKEN_LIFETIME_MS, verifyToken } from './tokens.js';
import type { UserModel } from './models/user.model.js';
import { UserRepository } from './user.repository.js';

const INVALID_LOGIN = 'The e-mail or password is not correct.';

@injectable()
export class AuthService {
  /** Verifying against this when the e-mail is unknown makes both answers take as long. */
  private decoyHash: Promise<string> | undefined;

  constructor(
    @inject(TOKENS.Config) private readonly config: AppConfig,
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(RateLimiter) private readonly limiter: RateLimiter,
    @inject(UserRepository) private readonly users: UserRepository,
    @inject(SessionRepository) private readonly sessions: SessionRepository,
  ) {}

  /** GET checkemail: whether an account exists for this address. */
  async checkEmail({ email }: CheckEmailInput, context: RequestContext): Promise<boolean> {
    await this.limiter.consume(LIMITS.checkEmailPerIp, context.ip);
    return (await this.users.findByEmail(email)) !== undefined;
  }

  async register({ email, password, languageId }: RegisterInput, context: RequestContext): Promise<LoginResult> {
    await this.limiter.consume(LIMITS.registerPerIp, context.ip);
    const passwordHash = await hashPassword(password);
    return this.knex.transaction(async (trx) => {
      if (await this.users.findByEmail(email, trx)) throw fail('email_taken');
      const user = await this.users.insert({ email, password_hash: passwordHash, language_id: languageId, is_email_verified: false }, trx);
      return { ...(await this.startSession(user, false, trx)), signedUp: true };
    });
  }

  /**
   * Every try is counted (one atomic upsert each) before the password is checked, so a parallel
   * burst checks no more passwords than the limits allow: per source, per account and source, and
   * per account unless this source logged in to the account before. Strangers thus stop
   * themselves, not the owner; see CONTEXT.md "Login throttling". Unknown e-mails count the same.
   */
  async authenticate({ email, password, rememberMe }: AuthenticateInput, context: RequestContext): Promise<LoginResult> {
    const source = accountAndSource(email, context.ip);
    await this.limiter.consume(LIMITS.loginPerIp, context.ip);
    await this.limiter.consume(LIMITS.loginTriesPerAccountAndSource, source);
    if (!(await this.limiter.active(LIMITS.loginKnownSource, source))) {
      await this.limiter.consume(LIMITS.loginTriesPerAccount, email);
    }
    const user = await this.users.findByEmail(email);
    const valid = user?.password_hash ? await verifyPassword(user.password_hash, password) : await this.decoy(password);
    if (!user || !valid) throw new UnauthenticatedError(INVALID_LOGIN, 'invalid_credentials');
    // The account-wide count is left to run out: the owner logging in must not hand a
    // distributed attacker a fresh budget.
    await this.limiter.reset(LIMITS.loginTriesPerAccountAndSource, source);
    await this.limiter.hit(LIMITS.loginKnownSource, source);
    return this.startSession(user, rememberMe);
  }

  /** Issues a new login token backed by a session row. */
  async startSession(user: UserModel, rememberMe: boolean, trx?: Knex.Transaction): Promise<LoginResult> {
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + (rememberMe ? REMEMBER_ME_LIFETIME_MS : TOKEN_LIFETIME_MS));
    const sessionId = randomUUID();
    await this.sessions.create({ id: sessionId, userId: user.id, rememberMe, createdAt: now, expiresAt }, trx);
    const token = await signToken(this.config.tokenSecret, { userId: user.id, sessionId }, now, expiresAt);
    return { id: user.id, token, tokenExpiration: expiresAt, isEmailVerified: user.is_email_verified, photoUrl: user.photo_url, role: user.role };
  }

  /** The check behind every authenticated request: signature, expiry, session not revoked, user as stored now. */
  async authenticateToken(token: string): Promise<AuthenticatedUser> {
    const now = this.clock.now();
    const claims = await verifyToken(this.config.tokenSecret, token, now);
    const row = await this.users.findBySession(claims.sessionId, claims.userId, now);
    if (!row) throw fail('session_ended');
    return {
      id: row.id,
      email: row.email,
      name: row.name,
      photoUrl: row.photo_url,
      role: row.role,
      isEmailVerified: row.is_email_verified,
      languageId: row.language_id === 2 ? 2 : 1,
      sessionId: claims.sessionId,
    };
  }

  async logout(user: AuthenticatedUser): Promise<void> {
    await this.sessions.revoke(user.sessionId, this.clock.now());
  }

  /**
   * Changing the password ends every session of the user, then starts a new one here. Each try is
   * counted before the current password is checked (10 per 15 minutes per user), so a stolen token
   * cannot guess the password; a successful change clears the count.
   */
  async changePassword(user: AuthenticatedUser, { currentPassword, newPassword }: ChangePasswordInput): Promise<LoginResult> {
    await this.limiter.consume(LIMITS.changePasswordPerUser, String(user.id));
    const stored = await this.users.findById(user.id);
    if (!stored?.password_hash || !(await verifyPassword(stored.password_hash, currentPassword))) {
      throw new UnauthenticatedError('The current password is not correct.', 'invalid_credentials');
    }
    const passwordHash = await hashPassword(newPassword);
    const session = await this.knex.transaction(async (trx) => {
      const now = this.clock.now();
      const updated = await this.users.update(user.id, { password_hash: passwordHash, password_changed_at: now }, trx);
      await this.sessions.revokeAllOfUser(user.id, now, trx);
      return this.startSession(updated, false, trx);
    });
    await this.limiter.reset(LIMITS.changePasswordPerUser, String(user.id));
    return session;
  }

  private async decoy(password: string): Promise<false> {
    this.decoyHash ??= hashPassword(randomUUID());
    await verifyPassword(await this.decoyHash, password);
    return false;
  }
}
