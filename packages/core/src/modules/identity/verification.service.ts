/**
 * Codes sent by e-mail: 6 random digits, stored only as an HMAC, valid 10 minutes, single use.
 * Asking for a new code is limited (once a minute, 10 a day per address). Checking one is limited
 * like log-in (`spendTry`): a stranger's wrong codes stop the stranger, not the owner. A code has
 * a purpose: confirming the address at sign-up, or resetting a forgotten password; a check only
 * looks at codes of its own purpose, and the purpose is part of the HMAC.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { AppConfig } from '../../shared/config.js';
import type { Clock } from '../../shared/clock.js';
import { inTransaction } from '../../shared/database.js';
import { ConflictError, TooManyRequestsError, ValidationError, fail } from '../../shared/errors.js';
import { type RateLimit, RateLimiter, type RateLimitState } from '../../shared/rate-limiter.js';
import { TOKENS } from '../../shared/tokens.js';
import type { ForgotPasswordInput, ResetPasswordInput, SendCodeInput, VerifyCodeInput } from '../../wire/account.js';
import { EMAIL_KIND, type EnqueueResult, NotificationsService } from '../notifications/index.js';
import { AuthService } from './auth.service.js';
import type { AuthenticatedUser, LoginResult, RequestContext } from './auth.types.js';
import type { CodePurpose } from './models/session.model.js';
import type { UserModel } from './models/user.model.js';
import { hashPassword } from './passwords.js';
import { accountAndSource, CODE_RULES, LIMITS } from './rate-limits.js';
import { SessionRepository } from './session.repository.js';
import { UserRepository } from './user.repository.js';
import { VerificationCodeRepository } from './verification-code.repository.js';

type CheckOutcome = { kind: 'verified'; result: LoginResult } | { kind: 'wrong' };

/** A counted code check: the address-and-source subject and its count. */
type CodeTry = RateLimitState & { source: string };

type Recipient = { id: number; email: string; languageId: 1 | 2 };

const recipientOf = (user: UserModel): Recipient => ({ id: user.id, email: user.email, languageId: user.language_id === 2 ? 2 : 1 });

@injectable()
export class VerificationService {
  constructor(
    @inject(TOKENS.Config) private readonly config: AppConfig,
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(RateLimiter) private readonly limiter: RateLimiter,
    @inject(UserRepository) private readonly users: UserRepository,
    @inject(VerificationCodeRepository) private readonly codes: VerificationCodeRepository,
    @inject(SessionRepository) private readonly sessions: SessionRepository,
    @inject(AuthService) private readonly auth: AuthService,
    @inject(NotificationsService) private readonly notifications: NotificationsService,
  ) {}

  /** POST sendverificationcode: mails a new code to the caller's own address. */
  async sendCode(user: AuthenticatedUser, { email }: SendCodeInput, context: RequestContext): Promise<void> {
    if (email && email !== user.email) throw fail('not_your_email');
    if (user.isEmailVerified) throw fail('already_verified');
    await this.limiter.consume(LIMITS.codeSendPerIp, context.ip);
    await inTransaction(this.knex, undefined, (trx) => this.issueCode(user, 'signup', trx));
  }

  /**
   * Staff (`sendemail` kind 5): a new code to this user's own address under the same rules as
   * `sendCode` (unverified addresses only, the caller's IP limit, once a minute, 10 a day). Runs
   * in `trx` when given; `idempotencyKey` makes a repeat answer the first e-mail and issue no code.
   * 404 `user_not_found`, 409 `already_verified`, 429 too soon.
   */
  async sendCodeTo(
    userId: number,
    context: RequestContext,
    options: { idempotencyKey?: string; trx?: Knex.Transaction } = {},
  ): Promise<EnqueueResult & { to: string }> {
    const user = Number.isSafeInteger(userId) && userId > 0 ? await this.users.findById(userId, options.trx) : undefined;
    if (!user) throw fail('user_not_found');
    if (user.is_email_verified) throw new ConflictError('This e-mail address is already verified.', 'already_verified');
    await this.limiter.consume(LIMITS.codeSendPerIp, context.ip);
    const sent = await inTransaction(this.knex, options.trx, (trx) => this.issueCode(recipientOf(user), 'signup', trx, options.idempotencyKey));
    return { ...sent, to: user.email };
  }

  /**
   * POST forgotpassword: mails a password-reset code when an account has this address. The answer
   * and the limits (per IP; once a minute and 10 a day per address, counted by address) are the
   * same whether or not it does, so the call cannot be used to find accounts.
   */
  async requestPasswordReset({ email }: ForgotPasswordInput, context: RequestContext): Promise<void> {
    await this.limiter.consume(LIMITS.resetSendPerIp, context.ip);
    await this.limiter.consume(LIMITS.resetSendPerAddress, email);
    await this.limiter.consume(LIMITS.resetSendPerAddressDaily, email);
    const user = await this.users.findByEmail(email);
    await inTransaction(this.knex, undefined, async (trx) => {
      if (user) {
        await this.issueCode(recipientOf(user), 'password_reset', trx);
      } else {
        // Roughly the same work as issuing a code: a code drawn and hashed, a lock, a read.
        await trx.raw('select pg_advisory_xact_lock(?, hashtext(?))', [0x5e20, email]);
        this.hash(0, 'password_reset', String(randomInt(0, 10 ** CODE_RULES.digits)));
        await this.codes.countSince(email, 'password_reset', this.clock.now(), trx);
      }
    });
  }

  /**
   * POST resetpassword: a correct reset code sets the new password, ends every session and every
   * open code of the user, marks the address verified (the code arrived there) and logs in.
   * A wrong, expired or missing code and an unknown address all get one answer (`spendTry`).
   */
  async resetPassword({ email, code, password }: ResetPasswordInput, context: RequestContext): Promise<LoginResult> {
    const tries = await this.spendTry(LIMITS.resetCheckPerIp, email, context);
    // Hashed first, outside the row lock, so that every answer costs the same argon2 work.
    const passwordHash = await hashPassword(password);
    const user = await this.users.findByEmail(email);
    const outcome: CheckOutcome = user
      ? await this.checkCode(user, 'password_reset', code, async (trx, now) => {
          await this.codes.consumeAllOfUser(user.id, now, trx);
          const updated = await this.users.update(user.id, { password_hash: passwordHash, password_changed_at: now, is_email_verified: true }, trx);
          await this.sessions.revokeAllOfUser(user.id, now, trx);
          return this.auth.startSession(updated, false, trx);
        })
      : { kind: 'wrong' };
    return this.answer(outcome, tries);
  }

  /** Stores a new code (hashed) and writes its e-mail; the code exists only in the e-mail. */
  private async issueCode(user: Recipient, purpose: CodePurpose, trx: Knex.Transaction, idempotencyKey?: string): Promise<EnqueueResult> {
    const now = this.clock.now();
    const code = String(randomInt(0, 10 ** CODE_RULES.digits)).padStart(CODE_RULES.digits, '0');
    // Serialise code requests of one user so the limits below cannot be raced.
    await trx.raw('select pg_advisory_xact_lock(?, ?)', [0x5e1f, user.id]);
    if (idempotencyKey) {
      const existing = await this.notifications.findByIdempotencyKey(idempotencyKey, trx);
      if (existing) return { id: existing.id, created: false };
    }
    // Reset codes are limited by address before the account is looked up (requestPasswordReset).
    if (purpose === 'signup') await this.checkResendLimits(user.email, purpose, now, trx);
    await this.codes.insert(
      {
        user_id: user.id,
        email: user.email,
        purpose,
        code_hash: this.hash(user.id, purpose, code),
        failed_attempts: 0,
        created_at: now,
        expires_at: new Date(now.getTime() + CODE_RULES.validMs),
      },
      trx,
    );
    return this.notifications.enqueue(
      {
        kind: EMAIL_KIND.verificationCode,
        to: user.email,
        languageId: user.languageId,
        userId: user.id,
        data: { code, validMinutes: CODE_RULES.validMs / 60_000, ...(purpose === 'password_reset' ? { purpose: 'passwordReset' as const } : {}) },
        idempotencyKey,
      },
      trx,
    );
  }

  private async checkResendLimits(email: string, purpose: CodePurpose, now: Date, trx: Knex.Transaction): Promise<void> {
    const newest = await this.codes.newestCreatedAt(email, purpose, trx);
    if (newest && now.getTime() - newest.getTime() < CODE_RULES.resendIntervalMs) {
      const wait = Math.ceil((CODE_RULES.resendIntervalMs - (now.getTime() - newest.getTime())) / 1000);
      throw new TooManyRequestsError('code_requested_recently', wait);
    }
    if ((await this.codes.countSince(email, purpose, new Date(now.getTime() - 24 * 3600_000), trx)) >= CODE_RULES.maxPerDay) {
      throw new TooManyRequestsError('too_many_codes_today', 3600);
    }
  }

  /** POST sendverificationcodecallback: a correct code verifies the address and logs the user in. */
  async confirmCode({ email, code }: VerifyCodeInput, context: RequestContext): Promise<LoginResult> {
    const tries = await this.spendTry(LIMITS.codeCheckPerIp, email, context);
    const user = await this.users.findByEmail(email);
    if (!user) return this.answer({ kind: 'wrong' }, tries);

    const outcome = await this.checkCode(user, 'signup', code, async (trx, now, codeId) => {
      await this.codes.consume(codeId, now, trx);
      const verified = await this.users.update(user.id, { is_email_verified: true }, trx);
      await this.notifications.enqueue(
        {
          kind: EMAIL_KIND.welcome,
          to: verified.email,
          languageId: verified.language_id === 2 ? 2 : 1,
          userId: verified.id,
          data: { name: verified.name },
          idempotencyKey: `user:${verified.id}:welcome`,
        },
        trx,
      );
      return this.auth.startSession(verified, false, trx);
    });
    return this.answer(outcome, tries);
  }

  /**
   * Counts a code check before the address is looked up, as log-in counts a password try (see
   * CONTEXT.md "Code checks"): per source, per address and source (5 an hour: a stranger stops
   * himself), and per address across sources (30 an hour) unless this source has logged in to the
   * account, so the owner at home is never locked out by others. Answers the address-and-source count.
   */
  private async spendTry(perIp: RateLimit, email: string, context: RequestContext): Promise<CodeTry> {
    const source = accountAndSource(email, context.ip);
    await this.limiter.consume(perIp, context.ip);
    const tries = await this.limiter.consume(LIMITS.codeTriesPerAddressAndSource, source);
    if (!(await this.limiter.active(LIMITS.loginKnownSource, source))) await this.limiter.consume(LIMITS.codeTriesPerAddress, email);
    return { ...tries, source };
  }

  /**
   * Checks `code` against the user's newest open code of `purpose` (locked for update, so two
   * checks cannot both spend it) and runs `onMatch` in the same transaction when it is right.
   * A wrong try is recorded on the code (`failed_attempts`, for support); the limits decide.
   */
  private checkCode(
    user: UserModel,
    purpose: CodePurpose,
    code: string,
    onMatch: (trx: Knex.Transaction, now: Date, codeId: number) => Promise<LoginResult>,
  ): Promise<CheckOutcome> {
    return this.knex.transaction(async (trx): Promise<CheckOutcome> => {
      const now = this.clock.now();
      const stored = await this.codes.latestUnconsumedForUpdate(user.id, purpose, trx);
      if (!stored || new Date(stored.expires_at) <= now) return { kind: 'wrong' };
      if (!this.matches(stored.code_hash, user.id, purpose, code)) {
        await this.codes.recordFailure(stored.id, trx);
        return { kind: 'wrong' };
      }
      return { kind: 'verified', result: await onMatch(trx, now, stored.id) };
    });
  }

  /**
   * One answer for a wrong, expired, spent or missing code and an unknown address, so a check
   * never tells which addresses have accounts; the source's last allowed try answers 429.
   */
  private async answer(outcome: CheckOutcome, { source, remaining, retryAfterSeconds }: CodeTry): Promise<LoginResult> {
    if (outcome.kind === 'verified') {
      // The address-wide count runs out on its own: the owner's success must not hand a
      // distributed guesser a fresh budget (as log-in).
      await this.limiter.reset(LIMITS.codeTriesPerAddressAndSource, source);
      await this.limiter.hit(LIMITS.loginKnownSource, source);
      return outcome.result;
    }
    if (remaining === 0) throw new TooManyRequestsError(LIMITS.codeTriesPerAddressAndSource.code, retryAfterSeconds);
    // The tries left go to `params` too, so a translation says them (wire/errors.ts); English says "1 try".
    const left = `${remaining} ${remaining === 1 ? 'try' : 'tries'} left`;
    throw new ValidationError(`The code is not correct or has expired. ${left}.`, { code: 'The code is not correct.' }, 'invalid_code', {
      triesLeft: remaining,
    });
  }

  /** Sign-up codes keep their original HMAC input, so codes issued before purposes existed still work. */
  private hash(userId: number, purpose: CodePurpose, code: string): string {
    const input = purpose === 'signup' ? `verification:${userId}:${code}` : `${purpose}:${userId}:${code}`;
    return createHmac('sha256', this.config.tokenSecret).update(input).digest('hex');
  }

  private matches(storedHash: string, userId: number, purpose: CodePurpose, code: string): boolean {
    const expected = Buffer.from(storedHash, 'hex');
    const actual = Buffer.from(this.hash(userId, purpose, code), 'hex');
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }
}
