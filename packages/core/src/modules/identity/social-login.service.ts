/**
 * Google, Naver and Kakao sign-in. Each provider's answer is verified with the provider
 * (ID-token signature, or code + state exchanged server to server); then the person is found
 * by the provider's user id, or linked to the account with the same verified e-mail, or
 * created. All three answer the same login response as a password login.
 */
import { randomBytes } from 'node:crypto';
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { AppConfig } from '../../shared/config.js';
import type { Clock } from '../../shared/clock.js';
import { NotFoundError, ValidationError, fail } from '../../shared/errors.js';
import { RateLimiter } from '../../shared/rate-limiter.js';
import { readToken, signToken } from '../../shared/signed-tokens.js';
import { TOKENS } from '../../shared/tokens.js';
import { email as emailSchema } from '../../validation/index.js';
import type { GoogleSignInInput, OAuthCallbackInput } from '../../wire/account.js';
import { AuthService } from './auth.service.js';
import type { LoginResult, RequestContext } from './auth.types.js';
import { LIMITS } from './rate-limits.js';
import { GoogleIdTokens } from './providers/google.js';
import { KakaoOAuth } from './providers/kakao.js';
import { NaverOAuth } from './providers/naver.js';
import type { GoogleIdTokenVerifier, KakaoOAuthClient, NaverOAuthClient, SocialProfile } from './providers/social-profile.js';
import { SessionRepository } from './session.repository.js';
import { SocialIdentityRepository } from './social-identity.repository.js';
import { UserRepository } from './user.repository.js';
import { pagePath } from '../../pages/index.js';

const STATE_LIFETIME_MS = 10 * 60_000;

export interface SocialProviders {
  google: { clientId: string } | null;
  naver: { authorizeUrl: string } | null;
  kakao: { authorizeUrl: string } | null;
}

@injectable()
export class SocialLoginService {
  private readonly google?: GoogleIdTokenVerifier;
  private readonly naver?: NaverOAuthClient;
  private readonly kakao?: KakaoOAuthClient;

  constructor(
    @inject(TOKENS.Config) private readonly config: AppConfig,
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(RateLimiter) private readonly limiter: RateLimiter,
    @inject(UserRepository) private readonly users: UserRepository,
    @inject(SocialIdentityRepository) private readonly identities: SocialIdentityRepository,
    @inject(SessionRepository) private readonly sessions: SessionRepository,
    @inject(AuthService) private readonly auth: AuthService,
  ) {
    const now = () => this.clock.now();
    if (config.google.clientId) this.google = new GoogleIdTokens({ clientId: config.google.clientId, apiBase: config.google.apiBase, now });
    if (config.naver.clientId && config.naver.clientSecret) {
      this.naver = new NaverOAuth({ clientId: config.naver.clientId, clientSecret: config.naver.clientSecret, apiBase: config.naver.apiBase });
    }
    if (config.kakao.restApiKey) this.kakao = new KakaoOAuth({ restApiKey: config.kakao.restApiKey, apiBase: config.kakao.apiBase });
  }

  /** Which buttons the login page may show; hidden when the provider is not configured. */
  async providers(): Promise<SocialProviders> {
    return {
      google: this.config.google.clientId ? { clientId: this.config.google.clientId } : null,
      naver: this.naver ? { authorizeUrl: this.naver.authorizeUrl(await this.issueState('naver'), this.redirectUri('naver')) } : null,
      kakao: this.kakao ? { authorizeUrl: this.kakao.authorizeUrl(await this.issueState('kakao'), this.redirectUri('kakao')) } : null,
    };
  }

  async googleAuthenticate({ idToken, credential }: GoogleSignInInput, context: RequestContext): Promise<LoginResult> {
    if (!this.google) throw new NotFoundError('Google sign-in is not available.', 'provider_disabled');
    const token = idToken || credential;
    if (!token) throw new ValidationError('Some fields are missing or invalid.', { idToken: 'idToken is required' });
    await this.limiter.consume(LIMITS.socialPerIp, context.ip);
    return this.login(await this.google.verify(token));
  }

  async naverCallback({ code, state }: OAuthCallbackInput, context: RequestContext): Promise<LoginResult> {
    if (!this.naver) throw new NotFoundError('Naver login is not available.', 'provider_disabled');
    await this.checkState('naver', state);
    await this.limiter.consume(LIMITS.socialPerIp, context.ip);
    return this.login(await this.naver.exchange(code, state));
  }

  async kakaoCallback({ code, state }: OAuthCallbackInput, context: RequestContext): Promise<LoginResult> {
    if (!this.kakao) throw new NotFoundError('Kakao login is not available.', 'provider_disabled');
    await this.checkState('kakao', state);
    await this.limiter.consume(LIMITS.socialPerIp, context.ip);
    return this.login(await this.kakao.exchange(code, this.redirectUri('kakao')));
  }

  /**
   * Finds, links or creates the user behind a verified provider profile, then logs them in.
   * Linking a provider-verified address to an account that never proved it owns the address
   * takes the account back for the owner: whoever registered it first (anyone can type any
   * address) loses the password they set and every session they hold.
   */
  async login(profile: SocialProfile): Promise<LoginResult> {
    return this.knex.transaction(async (trx) => {
      const linked = await this.identities.find(profile.provider, profile.providerUserId, trx);
      if (linked) {
        const user = await this.users.findById(linked.user_id, trx);
        if (!user) throw fail('user_gone');
        return this.auth.startSession(user, false, trx);
      }
      if (!profile.email) {
        throw new ValidationError(
          `Your ${profile.provider} account did not share an e-mail address, which we need to create your account.`,
          undefined,
          'email_required',
        );
      }
      // Providers hand over whatever the person typed there; it becomes our login and mail address.
      if (!emailSchema().isValidSync(profile.email, { strict: true })) {
        throw fail('provider_email_invalid');
      }
      let user = await this.users.findByEmail(profile.email, trx);
      if (user && !profile.emailVerified) {
        // Linking on an unverified address would let anyone take over the account that owns it.
        throw fail('password_login_required');
      }
      const signedUp = !user;
      if (!user) {
        user = await this.users.insert(
          { email: profile.email, name: profile.name, photo_url: profile.photoUrl, is_email_verified: profile.emailVerified, language_id: 1 },
          trx,
        );
      } else if (!user.is_email_verified) {
        user = await this.users.update(user.id, { is_email_verified: true, password_hash: null, password_changed_at: this.clock.now() }, trx);
        await this.sessions.revokeAllOfUser(user.id, this.clock.now(), trx);
      }
      await this.identities.link({ userId: user.id, provider: profile.provider, providerUserId: profile.providerUserId, email: profile.email }, trx);
      return { ...(await this.auth.startSession(user, false, trx)), signedUp };
    });
  }

  private redirectUri(provider: 'naver' | 'kakao'): string {
    // Kakao has no page of its own (spec: its login is not wired to the screen); its address keeps Naver's form.
    return `${this.config.publicUrl}${provider === 'naver' ? pagePath.naverCallback() : '/kakao/callback'}`;
  }

  /** A CSRF state we can recognise without storing it: a signed token of this provider's purpose with a random nonce. */
  private issueState(provider: 'naver' | 'kakao'): Promise<string> {
    const expiresAt = new Date(this.clock.now().getTime() + STATE_LIFETIME_MS);
    return signToken(this.config.tokenSecret, `${provider}-state`, { jti: randomBytes(12).toString('base64url') }, expiresAt);
  }

  /** Authentic, of this provider, not expired, and not used before (a state is spent by its first callback). */
  private async checkState(provider: 'naver' | 'kakao', state: string): Promise<void> {
    const claims = await readToken(this.config.tokenSecret, `${provider}-state`, state, this.clock.now());
    if (typeof claims?.jti !== 'string') throw fail('invalid_state');
    // One atomic upsert: of two callbacks racing with one state, exactly one counts first.
    const { hits } = await this.limiter.hit(LIMITS.oauthStateUse, `${provider}:${claims.jti}`);
    if (hits > 1) throw fail('invalid_state');
  }
}
