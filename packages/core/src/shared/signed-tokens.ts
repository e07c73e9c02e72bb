/**
 * The shop's signed tokens that work without a login: the links of renewal e-mails, the demo
 * checkout page, and the OAuth `state` of Naver and Kakao sign-in. Each is an HS256 JWT made and
 * checked by jose, as login tokens are (modules/identity/tokens.ts), with the token secret.
 *
 * A token's purpose is its audience (`aud`), and reading one names the purpose it expects: jose
 * refuses another audience, so a cancel link cannot pay, a demo checkout token is no OAuth state,
 * and none of them is a login token (whose audience is `subshare-api`), nor the reverse. The
 * algorithm is pinned, the issuer checked, and `exp` is required: a token past it is refused.
 */
import { decodeJwt, jwtVerify, SignJWT, type JWTPayload } from 'jose';

/** Every purpose a token may serve; one audience each. */
export const TOKEN_PURPOSES = ['renewal-cancel', 'renewal-pay', 'demo-checkout', 'naver-state', 'kakao-state'] as const;
export type TokenPurpose = (typeof TOKEN_PURPOSES)[number];

/** The issuer of every token the shop signs (login tokens too). */
export const TOKEN_ISSUER = 'subshare';
const ALGORITHM = 'HS256';

/** What a token carries besides the registered claims jose sets here. */
export type TokenClaims = Omit<JWTPayload, 'aud' | 'iss' | 'exp' | 'iat'>;

const keyOf = (secret: Uint8Array | string): Uint8Array => (typeof secret === 'string' ? new TextEncoder().encode(secret) : secret);

/** A token for `purpose` carrying `claims`, refused after `expiresAt` (whole seconds, as JWTs count). */
export async function signToken(secret: Uint8Array | string, purpose: TokenPurpose, claims: TokenClaims, expiresAt: Date): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: ALGORITHM })
    .setIssuer(TOKEN_ISSUER)
    .setAudience(purpose)
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(keyOf(secret));
}

/** The claims of a genuine, unexpired token of `purpose`; undefined for anything else. */
export async function readToken(secret: Uint8Array | string, purpose: TokenPurpose, token: string, now: Date): Promise<JWTPayload | undefined> {
  if (typeof token !== 'string' || token.length > 8192) return undefined;
  // One spelling per token: base64url leaves the last character's low bits unused, and jose
  // accepts any spelling of those bits as the same signature.
  const signature = token.slice(token.lastIndexOf('.') + 1);
  if (Buffer.from(signature, 'base64url').toString('base64url') !== signature) return undefined;
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), {
      algorithms: [ALGORITHM],
      issuer: TOKEN_ISSUER,
      audience: purpose,
      currentDate: now,
      requiredClaims: ['exp'],
    });
    return payload;
  } catch {
    return undefined;
  }
}

/**
 * The claims of a token of `purpose` WITHOUT checking its signature or expiry: only for showing
 * what a token says (the demo checkout page) before it is used; trust comes from readToken.
 */
export function peekToken(purpose: TokenPurpose, token: string): JWTPayload | undefined {
  if (typeof token !== 'string' || token.length > 8192) return undefined;
  try {
    const payload = decodeJwt(token);
    return payload.aud === purpose ? payload : undefined;
  } catch {
    return undefined;
  }
}
