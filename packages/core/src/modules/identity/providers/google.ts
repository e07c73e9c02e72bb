/**
 * Google sign-in: the browser hands us a Google ID token (a JWT); we check it ourselves against
 * Google's published keys, the way google-auth-library does (protocols.md section 4): RS256 only,
 * a key from the JWKS by `kid`, issuer, audience = our client id, `iat`/`exp` present, expiry with
 * 300 s of clock skew, no expiry further than a day ahead, and a verified e-mail.
 *
 * The token is a credential: it never appears in an error message or a log.
 */
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { type UnauthenticatedError, fail } from '../../../shared/errors.js';
import type { GoogleIdTokenVerifier, SocialProfile } from './social-profile.js';
import { optionalString } from './oauth-http.js';

export interface GoogleIdTokensOptions {
  /** GOOGLE_CLIENT_ID: the only accepted `aud`. */
  clientId: string;
  /** GOOGLE_API_BASE: where `/oauth2/v3/certs` is served. Default `https://www.googleapis.com`. */
  apiBase?: string;
  /** The clock used for `exp`/`iat`/`nbf` checks (tests). */
  now?: () => Date;
}

export const GOOGLE_ISSUERS = ['accounts.google.com', 'https://accounts.google.com'];
/** google-auth-library's CLOCK_SKEW_SECS. */
const CLOCK_SKEW_SECONDS = 300;
/** google-auth-library's MAX_TOKEN_LIFETIME_SECS: a token may not claim to live longer than this. */
const MAX_EXPIRY_SECONDS = 86_400;
/** Real ID tokens are about 1 KiB; anything far larger is not worth parsing. */
const MAX_TOKEN_LENGTH = 8192;
const KEYS_TIMEOUT_MS = 10_000;

/** Thrown by our key lookup when Google's keys could not be fetched; becomes an UnavailableError. */
class KeysUnavailable extends Error {}

/** Errors of the key lookup that say something about the token (unknown kid, odd alg), not about the key server. */
const TOKEN_KEY_ERRORS = [errors.JWKSNoMatchingKey, errors.JWKSMultipleMatchingKeys, errors.JOSENotSupported, errors.JOSEAlgNotAllowed, errors.JWSInvalid];

function invalid(): UnauthenticatedError {
  return fail('google_token_invalid');
}

export class GoogleIdTokens implements GoogleIdTokenVerifier {
  private readonly clientId: string;
  private readonly now: () => Date;
  private readonly getKey: JWTVerifyGetKey;

  constructor(options: GoogleIdTokensOptions) {
    if (!options.clientId) throw new TypeError('GoogleIdTokens needs a client id');
    this.clientId = options.clientId;
    this.now = options.now ?? (() => new Date());
    const base = (options.apiBase ?? 'https://www.googleapis.com').replace(/\/+$/, '');
    // One key set per verifier: jose caches the keys (10 min) and refetches on an unknown kid (30 s cool-down).
    const jwks = createRemoteJWKSet(new URL(`${base}/oauth2/v3/certs`), { timeoutDuration: KEYS_TIMEOUT_MS });
    this.getKey = async (header, token) => {
      try {
        return await jwks(header, token);
      } catch (error) {
        if (TOKEN_KEY_ERRORS.some((type) => error instanceof type)) throw error;
        throw new KeysUnavailable('Google keys unavailable', { cause: error });
      }
    };
  }

  async verify(idToken: string): Promise<SocialProfile> {
    if (typeof idToken !== 'string' || idToken.length === 0 || idToken.length > MAX_TOKEN_LENGTH) throw invalid();
    const currentDate = this.now();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(idToken, this.getKey, {
        algorithms: ['RS256'],
        issuer: GOOGLE_ISSUERS,
        audience: this.clientId,
        currentDate,
        clockTolerance: CLOCK_SKEW_SECONDS,
        requiredClaims: ['sub', 'iat', 'exp'],
      }));
    } catch (error) {
      if (error instanceof KeysUnavailable) {
        throw fail('google_unavailable', undefined, { cause: error.cause });
      }
      throw invalid();
    }

    // Checks jose leaves out but google-auth-library makes.
    const now = Math.floor(currentDate.getTime() / 1000);
    const { iat, exp, sub, aud } = payload as { iat: number; exp: number; sub: unknown; aud: unknown };
    if (Array.isArray(aud) && aud.length !== 1) throw invalid(); // other audiences we do not trust (OIDC Core 3.1.3.7)
    if (iat > now + CLOCK_SKEW_SECONDS) throw invalid(); // issued in the future
    if (exp >= now + MAX_EXPIRY_SECONDS) throw invalid(); // claims an implausibly long life
    if (typeof sub !== 'string' || sub === '' || sub.length > 255) throw invalid();

    const email = optionalString(payload.email)?.toLowerCase() ?? null;
    const verified = payload.email_verified === true || payload.email_verified === 'true';
    if (!email || !verified) {
      throw fail('google_email_not_verified');
    }

    return {
      provider: 'google',
      providerUserId: sub,
      email,
      emailVerified: true,
      name: optionalString(payload.name),
      photoUrl: optionalString(payload.picture),
    };
  }
}
