/**
 * Login tokens: HS256 JWTs (algorithm pinned, issuer and audience checked) whose `jti` names
 * a row in auth_sessions. The signature proves we issued the token; the session row lets us
 * revoke it (log-out, password change) before it expires.
 */
import { webcrypto } from 'node:crypto';
import { jwtVerify, SignJWT, errors as joseErrors } from 'jose';
import { UnauthenticatedError, fail } from '../../shared/errors.js';
import { TOKEN_ISSUER } from '../../shared/signed-tokens.js';

export { TOKEN_ISSUER };
/** Login tokens' audience; the tokens of shared/signed-tokens.ts have their purpose as theirs, so neither passes as the other. */
export const TOKEN_AUDIENCE = 'subshare-api';
const ALGORITHM = 'HS256';

export const TOKEN_LIFETIME_MS = 2 * 24 * 3600_000; // the policy texts' login cookie: two days
export const REMEMBER_ME_LIFETIME_MS = 14 * 24 * 3600_000; // two weeks with "remember me"

export interface TokenClaims {
  userId: number;
  sessionId: string;
}

export async function signToken(secret: Uint8Array, claims: TokenClaims, issuedAt: Date, expiresAt: Date): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(String(claims.userId))
    .setJti(claims.sessionId)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt(Math.floor(issuedAt.getTime() / 1000))
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(secret);
}

/**
 * The secret as a WebCrypto key, imported once per secret: jose imports a raw secret again on
 * every verification, about half of its time (and every signed-in call verifies a token).
 */
const verifyKeys = new WeakMap<Uint8Array, Promise<webcrypto.CryptoKey>>();

function verifyKey(secret: Uint8Array): Promise<webcrypto.CryptoKey> {
  let key = verifyKeys.get(secret);
  if (!key) {
    key = webcrypto.subtle.importKey('raw', new Uint8Array(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    verifyKeys.set(secret, key);
  }
  return key;
}

/**
 * Tokens jose has verified, per secret, with what verification depends on time for: a buyer
 * sends the same token with every call, and jose's check (WebCrypto HMAC, work handed to a
 * thread) cost 0.15 to 0.2 ms of CPU per call under load. The result is a function of the token's
 * bytes and the secret, except the time checks, which are made again on every use exactly as
 * jose makes them (`exp` against now, `nbf` if present). Only tokens that passed are kept (so
 * only tokens we signed), the oldest used first out. Revocation is not a token check: the
 * session row is read on every call (`AuthService.authenticateToken`).
 */
const VERIFIED_KEPT = 10_000;
const verifiedTokens = new WeakMap<Uint8Array, Map<string, VerifiedToken>>();

interface VerifiedToken {
  claims: TokenClaims;
  /** Seconds since the epoch, as in the token. */
  exp: number;
  nbf?: number;
}

export async function verifyToken(secret: Uint8Array, token: string, now: Date): Promise<TokenClaims> {
  let kept = verifiedTokens.get(secret);
  if (!kept) {
    kept = new Map();
    verifiedTokens.set(secret, kept);
  }
  const known = kept.get(token);
  if (known) {
    const seconds = Math.floor(now.getTime() / 1000);
    if (known.nbf !== undefined && known.nbf > seconds) throw fail('invalid_token');
    if (known.exp <= seconds) throw fail('token_expired');
    kept.delete(token);
    kept.set(token, known);
    return known.claims;
  }
  try {
    // One spelling per token: base64url leaves the last character's two low bits unused, and jose
    // accepts any of the four spellings of a signature as the same bytes.
    const signature = token.slice(token.lastIndexOf('.') + 1);
    if (Buffer.from(signature, 'base64url').toString('base64url') !== signature) throw fail('invalid_token');
    const { payload } = await jwtVerify(token, await verifyKey(secret), {
      algorithms: [ALGORITHM],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      currentDate: now,
      requiredClaims: ['sub', 'jti', 'exp', 'iat'],
    });
    const userId = Number(payload.sub);
    if (!Number.isSafeInteger(userId) || userId <= 0 || typeof payload.jti !== 'string') throw fail('invalid_token');
    const claims = { userId, sessionId: payload.jti };
    kept.set(token, { claims, exp: payload.exp!, ...(payload.nbf !== undefined ? { nbf: payload.nbf } : {}) });
    if (kept.size > VERIFIED_KEPT) kept.delete(kept.keys().next().value!);
    return claims;
  } catch (error) {
    if (error instanceof UnauthenticatedError) throw error;
    if (error instanceof joseErrors.JWTExpired) throw fail('token_expired');
    throw fail('invalid_token');
  }
}
