/**
 * E-mail verification codes: 6 random digits, stored only as an HMAC, valid 10 minutes,
 * single use, dead after 5 wrong tries. Asking for a new code is limited (once a minute,
 * 10 a day per address) and does not wipe the wrong tries of the last hour.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { AppConfig } from '../../shared/config.js';
import type { Clock } from '../../shared/clock.js';
import { inTransaction } from '../../shared/database.js';
import { ConflictError, ForbiddenError, NotFoundError, TooManyRequestsError, ValidationError } from '../../shared/errors.js';
import type { RateLimiter } from '../../shared/rate-limiter.js';
import { TOKENS } from '../../shared/tokens.js';
import { validate } from '../../shared/validate.js';
import { verificationCodeSchema, email as emailRule } from '../../validation/index.js';
import { EMAIL_KIND, NOTIFICATIONS, type EnqueueResult, type NotificationsService } from '../notifications/index.js';
import { AuthService } from './auth.service.js';
import type { AuthenticatedUser, LoginResult, RequestContext } from './auth.types.js';
import { CODE_RULES, LIMITS } from './rate-limits.js';
import { UserRepository } from './user.repository.js';
import { VerificationCodeRepository } from './verification-code.repository.js';
import * as yup from 'yup';

type CheckOutcome = { kind: 'verified'; result: LoginResult } | { kind: 'wrong'; triesLeft: number } | { kind: 'locked' } | { kind: 'expired' };

@injectable()
export class VerificationService {
  constructor(
    @inject(TOKENS.Config) private readonly config: AppConfig,
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.RateLimiter) private readonly limiter: RateLimiter,
    @inject(UserRepository) private readonly users: UserRepository,
    @inject(VerificationCodeRepository) private readonly codes: VerificationCodeRepository,
    @inject(AuthService) private readonly auth: AuthService,
    @inject(NOTIFICATIONS.Service) private readonly notifications: NotificationsService,
  ) {}

  /** POST sendverificationcode: mails a new code to the caller's own address. */
  async sendCode(user: AuthenticatedUser, input: unknown, context: RequestContext): Promise<void> {
    const { email } = validate(yup.object({ email: emailRule().optional() }), input);
    if (email && email !== user.email) throw new ForbiddenError('You can only verify your own e-mail address.', 'not_your_email');
    if (user.isEmailVerified) throw new ConflictError('Your e-mail address is already verified.', 'already_verified');
    await this.limiter.consume(LIMITS.codeSendPerIp, context.ip);
    await inTransaction(this.knex, undefined, (trx) => this.issueCode(user, trx));
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
    if (!user) throw new NotFoundError('This user does not exist.', 'user_not_found');
    if (user.is_email_verified) throw new ConflictError('This e-mail address is already verified.', 'already_verified');
    await this.limiter.consume(LIMITS.codeSendPerIp, context.ip);
    const recipient = { id: user.id, email: user.email, languageId: user.language_id === 2 ? (2 as const) : (1 as const) };
    const sent = await inTransaction(this.knex, options.trx, (trx) => this.issueCode(recipient, trx, options.idempotencyKey));
    return { ...sent, to: user.email };
  }

  /** Stores a new code (hashed) and writes its e-mail, within the resend limits; the code exists only in the e-mail. */
  private async issueCode(user: { id: number; email: string; languageId: 1 | 2 }, trx: Knex.Transaction, idempotencyKey?: string): Promise<EnqueueResult> {
    const now = this.clock.now();
    const code = String(randomInt(0, 10 ** CODE_RULES.digits)).padStart(CODE_RULES.digits, '0');
    // Serialise code requests of one user so the limits below cannot be raced.
    await trx.raw('select pg_advisory_xact_lock(?, ?)', [0x5e1f, user.id]);
    if (idempotencyKey) {
      const existing = await this.notifications.findByIdempotencyKey(idempotencyKey, trx);
      if (existing) return { id: existing.id, created: false };
    }
    const newest = await this.codes.newestCreatedAt(user.email, trx);
    if (newest && now.getTime() - newest.getTime() < CODE_RULES.resendIntervalMs) {
      const wait = Math.ceil((CODE_RULES.resendIntervalMs - (now.getTime() - newest.getTime())) / 1000);
      throw new TooManyRequestsError('Please wait a minute before asking for a new code.', wait);
    }
    if ((await this.codes.countSince(user.email, new Date(now.getTime() - 24 * 3600_000), trx)) >= CODE_RULES.maxPerDay) {
      throw new TooManyRequestsError('You have asked for too many codes today. Try again tomorrow.', 3600);
    }
    const previous = await this.codes.latestUnconsumed(user.id, trx);
    const carried = previous && now.getTime() - new Date(previous.created_at).getTime() < CODE_RULES.failureMemoryMs ? previous.failed_attempts : 0;
    await this.codes.insert(
      {
        user_id: user.id,
        email: user.email,
        code_hash: this.hash(user.id, code),
        failed_attempts: carried,
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
        data: { code, validMinutes: CODE_RULES.validMs / 60_000 },
        idempotencyKey,
      },
      trx,
    );
  }

  /** POST sendverificationcodecallback: a correct code verifies the address and logs the user in. */
  async confirmCode(input: unknown, context: RequestContext): Promise<LoginResult> {
    const { email, code } = validate(verificationCodeSchema(), input);
    await this.limiter.consume(LIMITS.codeCheckPerIp, context.ip);
    const user = await this.users.findByEmail(email);
    if (!user) throw new ValidationError('The code is not correct.', { code: 'The code is not correct.' }, 'invalid_code');

    const outcome = await this.knex.transaction(async (trx): Promise<CheckOutcome> => {
      const now = this.clock.now();
      const stored = await this.codes.latestUnconsumedForUpdate(user.id, trx);
      if (!stored || new Date(stored.expires_at) <= now) return { kind: 'expired' };
      if (stored.failed_attempts >= CODE_RULES.maxFailures) return { kind: 'locked' };
      if (!this.matches(stored.code_hash, user.id, code)) {
        const failures = await this.codes.recordFailure(stored.id, trx);
        return failures >= CODE_RULES.maxFailures ? { kind: 'locked' } : { kind: 'wrong', triesLeft: CODE_RULES.maxFailures - failures };
      }
      await this.codes.consume(stored.id, now, trx);
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
      return { kind: 'verified', result: await this.auth.startSession(verified, false, trx) };
    });

    switch (outcome.kind) {
      case 'verified':
        return outcome.result;
      case 'expired':
        throw new ValidationError('This code has expired. Ask for a new one.', { code: 'This code has expired.' }, 'code_expired');
      case 'locked':
        throw new TooManyRequestsError('Too many wrong codes. Wait an hour, then ask for a new code.', 3600);
      case 'wrong':
        throw new ValidationError(
          `The code is not correct. ${outcome.triesLeft} ${outcome.triesLeft === 1 ? 'try' : 'tries'} left.`,
          { code: 'The code is not correct.' },
          'invalid_code',
        );
    }
  }

  private hash(userId: number, code: string): string {
    return createHmac('sha256', this.config.tokenSecret).update(`verification:${userId}:${code}`).digest('hex');
  }

  private matches(storedHash: string, userId: number, code: string): boolean {
    const expected = Buffer.from(storedHash, 'hex');
    const actual = Buffer.from(this.hash(userId, code), 'hex');
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }
}
