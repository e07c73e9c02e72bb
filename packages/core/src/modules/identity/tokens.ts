/**
 * Login tokens: HS256 JWTs (algorithm pinned, issuer and audience checked) whose `jti` names
 * a row in auth_sessions. The signature proves we issued the token; the session row lets us
 * revoke it (log-out, password change) before it expires.
 */
import { webcrypto } from 'node:crypto';
import { jwtVerify, SignJWT, errors as joseErrors } from 'jose';
import { UnauthenticatedError } from '../../shared/errors.js';

export const TOKEN_ISSUER = 'subshare';
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

export async function verifyToken(secret: Uint8Array, token: string, now: Date): Promise<TokenClaims> {
  try {
    const { payload } = await jwtVerify(token, await verifyKey(secret), {
      algorithms: [ALGORITHM],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      currentDate: now,
      requiredClaims: ['sub', 'jti', 'exp', 'iat'],
    });
    const userId = Number(payload.sub);
    if (!Number.isSafeInteger(userId) || userId <= 0 || typeof payload.jti !== 'string')
      throw new UnauthenticatedError('Your login is not valid.', 'invalid_token');
    return { userId, sessionId: payload.jti };
  } catch (error) {
    if (error instanceof UnauthenticatedError) throw error;
    if (error instanceof joseErrors.JWTExpired) throw new UnauthenticatedError('Your login has expired. Please log in again.', 'token_expired');
    throw new UnauthenticatedError('Your login is not valid.', 'invalid_token');
  }
}
